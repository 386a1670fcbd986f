// Registers the sandbox tools: `run` (one-off jailed execution in a discovered environment, or a
// call in a persistent session: ./sessions/), `list_sessions` and `close_session`.
import { z } from "zod";
import type { Capability } from "../capability.js";
import { reachesOut } from "../config/network.js";
import { waitMessage } from "../jail/budget.js";
import { cappedAccess, jailSettings } from "../jail/policy.js";
import type { JailResult } from "../jail/runner.js";
import { programFacts, programResultOutput, programResultShape, renderStreams } from "../mcp/program-result.js";
import { markToolsOff, toolOffered } from "../mcp/tool-calls.js";
import { defineTool, registerTool, ToolError } from "../mcp/tool.js";
import { envNote } from "./env-notes.js";
import { describeEnvironments, pickEnvironment } from "./environments.js";
import { environmentJail, runCode } from "./run.js";
import { jailLauncher } from "./sessions/launcher.js";
import { SessionManager } from "./sessions/manager.js";
import { runInSession } from "./sessions/run-in-session.js";
import type { SessionResult } from "./sessions/session.js";

const outputShape = {
  ...programResultShape,
  session: z.string().optional().describe("The session the code ran in"),
  notices: z.array(z.string()).optional().describe("What happened to the session's state (interrupted, ended, fresh start)"),
};

type RunOutput = z.infer<z.ZodObject<typeof outputShape>>;

function toOutput(result: JailResult | SessionResult, session?: string): RunOutput {
  return {
    ...programResultOutput(result),
    ...(session === undefined ? {} : { session }),
    ...("notices" in result && result.notices.length > 0 ? { notices: result.notices } : {}),
  };
}

function render(output: RunOutput): string[] {
  const facts = [`exit ${output.exit_code ?? "none"}`, `${output.duration_ms} ms`];
  if (output.session !== undefined) facts.push(`session ${output.session}`);
  facts.push(...programFacts(output, output.session === undefined ? "timed out: killed with everything it started" : "timed out"));
  return renderStreams([facts.join(" · "), ...(output.notices ?? []).map((notice) => `note: ${notice}`)], output);
}

export const sandboxCapability: Capability = {
  name: "sandbox",
  tools: ["run", "list_sessions", "close_session"],
  instructions:
    "run: executes code once in a jailed environment, starting in the project (/project; relative paths are project files), with /workspace as fresh scratch space; pick the env from its list. Give `session` to keep an interpreter's state across calls (list_sessions, close_session).",
  async register(ctx) {
    const { environments } = ctx.discovery;
    if (environments.size === 0) {
      ctx.log.warn("sandbox: no environment discovered, `run` is not offered (see `nixshed doctor`)");
      markToolsOff(ctx.mcp, sandboxCapability.tools, "no sandbox environment was discovered (see `nixshed doctor`)");
      return;
    }
    const cap = ctx.config.sandbox.project_access;
    const limits = ctx.config.sandbox.sessions;
    const jailContext = { settings: jailSettings(ctx.config), projectRoot: ctx.projectRoot, budget: ctx.jails };
    const sessions = new SessionManager({
      launcher: jailLauncher((env) => environmentJail(env, jailContext), ctx.log),
      budget: ctx.jails,
      limits: {
        maxSessions: limits.max_sessions,
        idleTimeoutMs: limits.idle_timeout_seconds * 1000,
        maxLifetimeMs: limits.max_lifetime_seconds * 1000,
      },
    });
    const listing = describeEnvironments(environments.values(), cap);
    // Where a jail starts: the project, unless no environment may see it.
    const noProject = [...environments.values()].every((env) => cappedAccess(env.projectAccess, cap) === "none");
    const start = noProject
      ? "Starts in /workspace, empty scratch; no project here"
      : "Starts in /project, the project; /workspace is empty scratch";
    const run = defineTool({
      name: "run",
      title: "Run code in a jail",
      description: `Run code once in a fresh jail: stdout, stderr, exit code. ${start}; nothing persists; a timeout kills all it started.
With \`session\`, an interpreter keeps variables, imports, cwd and /workspace across calls; a timeout interrupts it. At most ${limits.max_sessions}, closed after ${limits.idle_timeout_seconds} s idle or ${limits.max_lifetime_seconds} s.
${listing}`,
      input: {
        // A name, not an enum: "bash", "python3" or "js" are the environment an agent means (environmentCalled).
        env: z.string().optional().describe("Name or interpreter (default: from the session, #! or code)"),
        code: z.string().describe("Code to run"),
        stdin: z.string().optional().describe("Standard input"),
        timeout_seconds: z.number().int().min(1).optional().describe("Wall-clock limit (default: the env's)"),
        session: z
          .string()
          .regex(/^[A-Za-z0-9_.-]{1,64}$/, "a session id is 1-64 letters, digits, '_', '.' or '-'")
          .optional()
          .describe("Persistent session id (created on first use)"),
      },
      output: outputShape,
      // Destructive: an environment may write the project. Open world only when one has network.
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: [...environments.values()].some((env) => reachesOut(env.network)),
      },
      async run(args, call) {
        // A session call without env runs where the session lives (or lived).
        const sessionEnv = args.session === undefined ? undefined : sessions.envOf(args.session);
        const env = pickEnvironment(environments, args.env ?? sessionEnv, args.code);
        const request = { code: args.code, stdin: args.stdin, timeoutSeconds: args.timeout_seconds };
        const onWait = (ahead: number, running: number) => void call.progress(0, undefined, waitMessage(ahead, running));
        const context = { ...jailContext, signal: call.signal, onWait, log: ctx.log, spool: ctx.results?.spooler("run") };
        const output =
          args.session === undefined
            ? toOutput(await runCode(env, request, context))
            : toOutput(await runInSession(sessions, args.session, env, request, context), args.session);
        const note = envNote(environments, env, args, output, { sessionEnv, nixpkgsOffered: toolOffered(ctx.mcp, "nixpkgs_execute") });
        return note ? { ...output, notices: [...(output.notices ?? []), note] } : output;
      },
      render,
    });
    registerTool(ctx.mcp, run, ctx.log);
    registerTool(ctx.mcp, listSessions(sessions), ctx.log);
    registerTool(ctx.mcp, closeSession(sessions), ctx.log);
    return { close: () => sessions.closeAll() };
  },
};

const listSessions = (sessions: SessionManager) =>
  defineTool({
    name: "list_sessions",
    title: "List sessions",
    description: "Live sessions of `run`: id, env, age, idle time, calls, busy.",
    input: {},
    output: {
      sessions: z.array(
        z.object({
          id: z.string(),
          env: z.string(),
          age_seconds: z.number(),
          idle_seconds: z.number(),
          calls: z.number(),
          busy: z.boolean(),
        }),
      ),
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run() {
      return {
        sessions: sessions
          .list()
          .map((s) => ({ id: s.id, env: s.env, age_seconds: s.ageSeconds, idle_seconds: s.idleSeconds, calls: s.calls, busy: s.busy })),
      };
    },
    render: ({ sessions: list }) =>
      list.length === 0
        ? "no sessions"
        : list
            .map((s) => `${s.id} (${s.env}): ${s.calls} calls, age ${s.age_seconds} s, ${s.busy ? "busy" : `idle ${s.idle_seconds} s`}`)
            .join("\n"),
  });

const closeSession = (sessions: SessionManager) =>
  defineTool({
    name: "close_session",
    title: "Close a session",
    description: "Close a `run` session: kills all it started, drops its state and /workspace.",
    input: { session: z.string().describe("The session id") },
    output: { closed: z.string() },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    async run({ session }) {
      if (await sessions.close(session)) return { closed: session };
      const live = sessions.list().map((s) => s.id);
      const why = sessions.closedWhy(session);
      throw new ToolError(
        `no session '${session}'${why ? `: it was ${why}` : ""}`,
        live.length > 0 ? `Live sessions: ${live.join(", ")}.` : "There are no live sessions.",
      );
    },
    render: ({ closed }) => `closed session ${closed}`,
  });
