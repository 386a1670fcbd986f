// Registers the sandbox tools: `run` (one-off jailed execution in a discovered environment).
import { z } from "zod";
import type { Capability } from "../capability.js";
import type { JailResult } from "../common/jail.js";
import { defineTool, registerTool, ToolError } from "../mcp/tool.js";
import { describeEnvironment, pickEnvironment } from "./environments.js";
import { SandboxError } from "./errors.js";
import { runCode } from "./run.js";

const outputShape = {
  stdout: z.string(),
  stderr: z.string(),
  exit_code: z.number().int().nullable().describe("The program's exit code; 128+N when signal N killed it"),
  duration_ms: z.number().int(),
  timed_out: z.boolean(),
  truncated: z.object({ stdout: z.number().int(), stderr: z.number().int() }).describe("Bytes dropped from the middle of each stream"),
  limit_hit: z.enum(["memory", "processes"]).optional().describe("A jail limit the program ran into"),
};

type RunOutput = z.infer<z.ZodObject<typeof outputShape>>;

function toOutput(result: JailResult): RunOutput {
  return {
    stdout: result.stdout,
    stderr: result.stderr,
    exit_code: result.exitCode,
    duration_ms: result.durationMs,
    timed_out: result.timedOut,
    truncated: result.truncated,
    ...(result.limitHit ? { limit_hit: result.limitHit } : {}),
  };
}

function render(output: RunOutput): string {
  const facts = [`exit ${output.exit_code ?? "none"}`, `${output.duration_ms} ms`];
  if (output.timed_out) facts.push("timed out: killed with everything it started");
  if (output.limit_hit) facts.push(`${output.limit_hit} limit reached`);
  for (const stream of ["stdout", "stderr"] as const) {
    if (output.truncated[stream] > 0) facts.push(`${stream}: ${output.truncated[stream]} bytes dropped from the middle`);
  }
  const sections = (["stdout", "stderr"] as const).filter((stream) => output[stream]).map((stream) => `--- ${stream}\n${output[stream]}`);
  return [facts.join(" · "), ...sections].join("\n");
}

export const sandboxCapability: Capability = {
  name: "sandbox",
  instructions:
    "run: executes code once in a jailed environment (fresh each call: /workspace empty, /project is the project); pick the env from its list.",
  async register(ctx) {
    const { environments } = ctx.discovery;
    const names = [...environments.keys()];
    if (names.length === 0) {
      ctx.log.warn("sandbox: no environment discovered, `run` is not offered (see `nixshed doctor`)");
      return;
    }
    const cap = ctx.config.sandbox.project_access;
    const listing = [...environments.values()].map((env) => describeEnvironment(env, cap)).join("\n");
    const run = defineTool({
      name: "run",
      title: "Run code in a jail",
      description: `Run code once in a fresh jail and get its stdout, stderr and exit code. Nothing persists between calls; /workspace (the cwd) is empty each time, /project is the project (read-only unless noted). On timeout the code and everything it started are killed and the output so far comes back.
Environments:
${listing}`,
      input: {
        env: z.enum(names as [string, ...string[]]).describe("The environment to run in"),
        code: z.string().describe("Code for the environment's interpreter (bash, python3 or node), passed as a file, any length"),
        stdin: z.string().optional().describe("Standard input of the program"),
        timeout_seconds: z.number().int().min(1).optional().describe("Wall-clock limit (default: the environment's)"),
      },
      output: outputShape,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      async run(args, call) {
        try {
          const env = pickEnvironment(environments, args.env);
          const result = await runCode(
            env,
            { code: args.code, stdin: args.stdin, timeoutSeconds: args.timeout_seconds },
            { settings: ctx.config.sandbox, projectRoot: ctx.projectRoot, signal: call.signal },
          );
          return toOutput(result);
        } catch (error) {
          if (error instanceof SandboxError) throw new ToolError(error.message, error.hint);
          throw error;
        }
      },
      render,
    });
    registerTool(ctx.mcp, run, ctx.log);
  },
};
