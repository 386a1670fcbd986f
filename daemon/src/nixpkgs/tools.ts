// Registers the nixpkgs tools: nixpkgs_search, nixpkgs_execute, nixpkgs_install_tool,
// nixpkgs_uninstall_tool, nixpkgs_list_installed, and one small tool per everyday package
// (config nixpkgs.common_tools / nixpkgs.tools) and per installed package.
import type { RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { Capability, ServerContext } from "../capability.js";
import { programFacts, programResultOutput, programResultShape, renderStreams } from "../mcp/program-result.js";
import { defineTool, registerTool, ToolError, type ToolCallContext } from "../mcp/tool.js";
import { COMMON_TOOLS } from "./common-tools.js";
import { NixpkgsError } from "./errors.js";
import { PackageRunner, type Execution } from "./execute.js";
import { IndexProvider, indexSources, planIndex, type IndexPlan } from "./index-provider.js";
import { InstalledRegistry, type InstalledTool } from "./installed.js";
import { renderResults } from "./render.js";
import { MAX_LIMIT, searchIndex } from "./search.js";
import { hostSystem } from "./system.js";
import { decodeAttr, TOOL_PREFIX, toolNameFor } from "./tool-names.js";

const runOutput = {
  package: z.string(),
  program: z.string(),
  ...programResultShape,
};
type RunOutput = z.infer<z.ZodObject<typeof runOutput>>;

/** What a package tool returns: kept small, since a hundred of these schemas go into tools/list. */
const briefOutput = {
  stdout: z.string(),
  stderr: z.string(),
  exit_code: z.number().nullable(),
  note: z.string().optional(),
};
type BriefOutput = z.infer<z.ZodObject<typeof briefOutput>>;

const toolArgs = {
  args: z.array(z.string()).optional().describe("Arguments"),
  stdin: z.string().optional().describe("Standard input"),
};

const runAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };

const TIMED_OUT = "timed out: killed with everything it started";

function toOutput(execution: Execution): RunOutput {
  return { package: execution.attr, program: execution.program, ...programResultOutput(execution) };
}

function toBrief(execution: Execution): BriefOutput {
  const note = programFacts(programResultOutput(execution), TIMED_OUT).join("; ");
  return { stdout: execution.stdout, stderr: execution.stderr, exit_code: execution.exitCode, ...(note ? { note } : {}) };
}

function renderRun(output: RunOutput): string {
  const facts = [`${output.package}: ${output.program} exited ${output.exit_code ?? "by signal"}`, `${output.duration_ms} ms`, ...programFacts(output, TIMED_OUT)];
  return renderStreams([facts.join(" · ")], output);
}

function renderBrief(output: BriefOutput): string {
  return renderStreams([`exit ${output.exit_code ?? "by signal"}${output.note ? ` · ${output.note}` : ""}`], output);
}

/** Whether two tool definitions run the same thing the same way. */
function sameTool(a: Omit<InstalledTool, "name">, b: Omit<InstalledTool, "name">): boolean {
  return (
    a.attr === b.attr &&
    a.program === b.program &&
    a.description === b.description &&
    a.timeoutSeconds === b.timeoutSeconds &&
    JSON.stringify(a.defaultArgs ?? []) === JSON.stringify(b.defaultArgs ?? [])
  );
}

/** NixpkgsError → ToolError, so the agent sees the message and the hint. */
async function asTool<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof NixpkgsError) throw new ToolError(error.message, error.hint);
    throw error;
  }
}

const progressOf = (call: ToolCallContext) => (done: number, total: number | undefined, message: string) => void call.progress(done, total, message);

/** The attributes pre-registered as tools, per config nixpkgs.common_tools and nixpkgs.tools. */
function commonAttrs(ctx: ServerContext): { attr: string; program?: string }[] {
  const { common_tools: mode, tools } = ctx.config.nixpkgs;
  const own = tools.map((attr) => ({ attr }));
  if (mode === "off") return [];
  if (mode === "replace") return own;
  if (mode === "extend") return [...COMMON_TOOLS, ...own.filter((tool) => !COMMON_TOOLS.some((c) => c.attr === tool.attr))];
  return [...COMMON_TOOLS];
}

function safePlan(ctx: ServerContext): IndexPlan {
  try {
    return planIndex(indexSources(ctx.config.nixpkgs, ctx.discovery.nixpkgs, ctx.cacheDir));
  } catch (error) {
    if (error instanceof NixpkgsError) return { kind: "none", reason: error.message };
    throw error;
  }
}

export const nixpkgsCapability: Capability = {
  name: "nixpkgs",
  instructions:
    "nixpkgs_search finds any nixpkgs package; nixpkgs_execute runs one once in a jail (no install); nixpkgs_install_tool makes one a tool of its own. Every nixpkgs_<package> tool runs that package's program jailed: args as an array, project at /project.",
  async register(ctx) {
    const provider = new IndexProvider(safePlan(ctx), (message) => ctx.log.info(message));
    const runner = new PackageRunner({
      config: ctx.config,
      discovered: ctx.discovery.nixpkgs,
      projectRoot: ctx.projectRoot,
      cacheDir: ctx.cacheDir,
      // Execution needs the index too (to check the attribute), but does not wait for it to build.
      index: () => {
        try {
          return provider.get();
        } catch (error) {
          if (error instanceof NixpkgsError) return undefined;
          throw error;
        }
      },
    });
    const registry = new InstalledRegistry(ctx.stateDir, (message) => ctx.log.warn(message));
    const registered = new Map<string, RegisteredTool>();
    const packageTools = new Map<string, InstalledTool & { common?: boolean }>();

    /** What running an installed (or everyday) tool with these args means. */
    const fromInstalled = (tool: InstalledTool, args: string[] = []) => ({
      attr: tool.attr,
      program: tool.program,
      args: [...(tool.defaultArgs ?? []), ...args],
    });

    const add = <I extends z.ZodRawShape, O extends z.ZodRawShape>(tool: Parameters<typeof registerTool<I, O>>[1]) =>
      registered.set(tool.name, registerTool(ctx.mcp, tool, ctx.log));

    add(
      defineTool({
        name: "nixpkgs_search",
        title: "Search nixpkgs",
        description:
          "Find nixpkgs packages by name, program or what they do (e.g. 'rg', 'python requests', 'resize images'). Broken and unfree packages are hidden unless asked for.",
        input: {
          query: z.string().describe("Package name, program name or a few words of what it does"),
          limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe("Results (default 10)"),
          include_broken: z.boolean().optional().describe("Also show packages marked broken"),
          include_unfree: z.boolean().optional().describe("Also show unfree packages"),
          platform: z.string().optional().describe(`Nix system (default ${hostSystem()}; "any" for all)`),
        },
        output: {
          query: z.string(),
          results: z.array(
            z.object({
              attr: z.string(),
              pname: z.string(),
              version: z.string(),
              description: z.string(),
              homepage: z.string(),
              license: z.string(),
              mainProgram: z.string(),
              flags: z.array(z.string()),
              alsoIn: z.array(z.string()),
            }),
          ),
        },
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        run: (args) =>
          asTool(() => ({
            query: args.query,
            results: searchIndex(provider.get(), args.query, {
              limit: args.limit,
              includeBroken: args.include_broken,
              includeUnfree: args.include_unfree,
              platform: args.platform ?? hostSystem(),
            }).map(({ score: _score, ...result }) => result),
          })),
        render: (result) => renderResults(result.query, result.results),
      }),
    );

    add(
      defineTool({
        name: "nixpkgs_execute",
        title: "Run a nixpkgs package once",
        description:
          "Run a program of any nixpkgs package once in a jail, without installing it (built on first use; may take minutes). Args are an array, never a shell string. The project is at /project; network is off unless configured.",
        input: {
          package: z.string().describe("Attribute path, e.g. ripgrep or python3Packages.black (or an installed tool's name)"),
          args: z.array(z.string()).optional().describe("Arguments (an array, no shell)"),
          stdin: z.string().optional().describe("Standard input (at most 1 MiB)"),
          program: z.string().optional().describe("Program to run (default: the package's main program)"),
          timeout_seconds: z.number().int().min(1).optional().describe("Run time limit (the build has its own)"),
        },
        output: runOutput,
        annotations: runAnnotations,
        run: (args, call) =>
          asTool(async () => {
            // An installed tool's name runs that tool; another nixpkgs_ name decodes to its attribute.
            const installed = packageTools.get(args.package);
            const attr = args.package.startsWith(TOOL_PREFIX) ? decodeAttr(args.package.slice(TOOL_PREFIX.length)) : args.package;
            const execution = await runner.execute(
              installed
                ? {
                    ...fromInstalled(installed, args.args),
                    ...(args.program ? { program: args.program } : {}),
                    stdin: args.stdin,
                    timeoutSeconds: args.timeout_seconds ?? installed.timeoutSeconds,
                  }
                : { attr, args: args.args, stdin: args.stdin, program: args.program, timeoutSeconds: args.timeout_seconds },
              { signal: call.signal, progress: progressOf(call) },
            );
            return toOutput(execution);
          }),
        render: renderRun,
      }),
    );

    /** Registers the tool of one package (common or installed). */
    const registerPackageTool = (tool: InstalledTool & { common?: boolean }, summary: string) => {
      packageTools.set(tool.name, tool);
      add(
        defineTool({
          name: tool.name,
          title: tool.attr,
          description: tool.description ?? summary,
          input: toolArgs,
          output: briefOutput,
          annotations: runAnnotations,
          run: (args, call) =>
            asTool(async () =>
              toBrief(
                await runner.execute(
                  { ...fromInstalled(tool, args.args), stdin: args.stdin, timeoutSeconds: tool.timeoutSeconds },
                  { signal: call.signal, progress: progressOf(call) },
                ),
              ),
            ),
          render: renderBrief,
        }),
      );
    };

    const summaryOf = (attr: string, program?: string): string => {
      const index = provider.peek();
      const id = index ? index.lookup(attr) : -1;
      const description = id >= 0 ? index!.record(id).description : "";
      const runs = program ?? (id >= 0 ? index!.record(id).mainProgram : "");
      const short = description.length > 64 ? `${description.slice(0, 63).trimEnd()}…` : description;
      return `${short || `nixpkgs ${attr}`}${runs ? ` (runs ${runs})` : ""}`;
    };

    // Everyday packages first, validated against the index when it is at hand (not built for this).
    const index = provider.peek();
    const missing: string[] = [];
    for (const common of commonAttrs(ctx)) {
      if (index && index.lookup(common.attr) < 0) {
        missing.push(common.attr);
        continue;
      }
      const name = toolNameFor(common.attr, new Set(registered.keys()));
      registerPackageTool({ name, attr: common.attr, program: common.program, common: true }, summaryOf(common.attr, common.program));
    }
    if (missing.length > 0) ctx.log.info(`nixpkgs: common tools not in the index, not offered: ${missing.join(", ")}`);

    for (const tool of registry.all()) {
      if (registered.has(tool.name)) {
        ctx.log.warn(`nixpkgs: installed tool ${tool.name} clashes with a built-in tool; skipped (uninstall and reinstall it)`);
        continue;
      }
      registerPackageTool(tool, summaryOf(tool.attr, tool.program));
    }

    add(
      defineTool({
        name: "nixpkgs_install_tool",
        title: "Install a nixpkgs package as a tool",
        description:
          "Add a tool nixpkgs_<name> that runs a nixpkgs package's program in a jail, taking {args?, stdin?}. Kept across restarts. Its name also works as nixpkgs_execute's package.",
        input: {
          package: z.string().describe("Attribute path, e.g. ripgrep"),
          program: z.string().optional().describe("Program to run (default: the package's main program)"),
          description: z.string().max(500).optional().describe("The tool's description"),
          default_args: z.array(z.string()).optional().describe("Arguments put before each call's args"),
          timeout_seconds: z.number().int().min(1).optional().describe("Run time limit of each call"),
        },
        output: { name: z.string(), package: z.string(), already_installed: z.boolean(), note: z.string() },
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        run: (args) =>
          asTool(() => {
            runner.checkAttr(args.package);
            if (args.timeout_seconds && args.timeout_seconds > ctx.config.sandbox.max_timeout_seconds) {
              throw new NixpkgsError(`timeout_seconds is above the limit of ${ctx.config.sandbox.max_timeout_seconds}`);
            }
            const wanted: Omit<InstalledTool, "name"> = {
              attr: args.package,
              ...(args.program ? { program: args.program } : {}),
              ...(args.description ? { description: args.description } : {}),
              ...(args.default_args?.length ? { defaultArgs: args.default_args } : {}),
              ...(args.timeout_seconds ? { timeoutSeconds: args.timeout_seconds } : {}),
            };
            // An everyday tool already runs the package's usual program.
            const same = [...packageTools.values()].find((tool) => sameTool(tool, tool.common && !wanted.program ? { ...wanted, program: tool.program } : wanted));
            const note = "If your client does not refresh its tool list, call nixpkgs_execute with package set to this name.";
            if (same) return { name: same.name, package: same.attr, already_installed: true, note };
            const name = toolNameFor(args.package, new Set(registered.keys()));
            const tool = { name, ...wanted };
            registry.add(tool);
            // Registering a tool on a connected server sends notifications/tools/list_changed.
            registerPackageTool(tool, summaryOf(tool.attr, tool.program));
            return { name, package: tool.attr, already_installed: false, note };
          }),
        render: (result) => `${result.already_installed ? "Already installed" : "Installed"}: ${result.name} runs ${result.package}. ${result.note}`,
      }),
    );

    add(
      defineTool({
        name: "nixpkgs_uninstall_tool",
        title: "Remove an installed nixpkgs tool",
        description: "Remove a tool added by nixpkgs_install_tool.",
        input: { name: z.string().describe("The tool's name, e.g. nixpkgs_ripgrep") },
        output: { removed: z.string() },
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
        run: (args) =>
          asTool(() => {
            const installed = registry.get(args.name);
            if (!installed) {
              const hint = packageTools.get(args.name)?.common
                ? "It is an everyday tool from config nixpkgs.common_tools; change the config to drop it."
                : `Installed: ${registry.all().map((tool) => tool.name).join(", ") || "none"}.`;
              throw new NixpkgsError(`no installed tool '${args.name}'`, hint);
            }
            registry.remove(args.name);
            packageTools.delete(args.name);
            registered.get(args.name)?.remove();
            registered.delete(args.name);
            return { removed: args.name };
          }),
        render: (result) => `Removed ${result.removed}.`,
      }),
    );

    add(
      defineTool({
        name: "nixpkgs_list_installed",
        title: "List installed nixpkgs tools",
        description: "The tools added by nixpkgs_install_tool, and the everyday package tools offered from config.",
        input: {},
        output: {
          installed: z.array(z.object({ name: z.string(), package: z.string(), program: z.string().optional(), default_args: z.array(z.string()).optional() })),
          common: z.array(z.string()),
        },
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        run: async () => ({
          installed: registry.all().map((tool) => ({
            name: tool.name,
            package: tool.attr,
            ...(tool.program ? { program: tool.program } : {}),
            ...(tool.defaultArgs ? { default_args: tool.defaultArgs } : {}),
          })),
          common: [...packageTools.values()].filter((tool) => tool.common).map((tool) => tool.name),
        }),
        render: (result) =>
          [
            result.installed.length
              ? `Installed: ${result.installed.map((tool) => `${tool.name} (${tool.package}${tool.program ? ` ${tool.program}` : ""})`).join(", ")}`
              : "Nothing installed.",
            `Everyday tools: ${result.common.join(", ") || "none"}`,
          ].join("\n"),
      }),
    );

    return { close: async () => provider.close() };
  },
};

