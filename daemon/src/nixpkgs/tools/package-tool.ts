// The tool of one package (everyday or installed): {args?, stdin?, program?} in, the package's
// program run in a jail with the tool's own program (or the one asked for), leading arguments and
// time limit.
import { z } from "zod";
import { JAIL_SCRATCH } from "../../jail/policy.js";
import { programFacts, programResultOutput, renderStreams } from "../../mcp/program-result.js";
import { defineTool } from "../../mcp/tool.js";
import { shellWord } from "../../shell-word.js";
import type { Execution, PackageRunner } from "../execute/execute.js";
import type { NixpkgsIndex } from "../index/index.js";
import type { InstalledTool } from "./installed.js";
import { progressOf, runAnnotations, TIMED_OUT, type RunPermissions } from "./tool-support.js";

/**
 * A package tool; `common` marks the everyday ones, offered from config rather than installed;
 * `several` an everyday package of several programs and no main one (coreutils), whose call names one.
 */
export type PackageToolSpec = InstalledTool & { common?: boolean; several?: boolean };

/** What a package tool returns: kept small, since each of these schemas goes into tools/list. */
const briefOutput = {
  stdout: z.string(),
  stderr: z.string(),
  exit_code: z.number().nullable(),
  note: z.string().optional(),
};
type BriefOutput = z.infer<z.ZodObject<typeof briefOutput>>;

/** An installed tool says where it runs, as nixpkgs_execute does; the everyday ones (common_tools = "tools", a hundred) leave it to nixpkgs_execute's description. */
const toolArgs = (program: string | undefined, common: boolean) => ({
  args: z
    .array(z.string())
    .optional()
    .describe(common ? "Arguments" : `Arguments; it runs in /project (relative paths are project files), ${JAIL_SCRATCH} is scratch`),
  stdin: z.string().optional().describe("Standard input"),
  program: z
    .string()
    .optional()
    .describe(`Another program of the package (default ${program ?? "its main one"})`),
});

function toBrief(execution: Execution): BriefOutput {
  const note = programFacts(programResultOutput(execution), TIMED_OUT).join("; ");
  return { stdout: execution.stdout, stderr: execution.stderr, exit_code: execution.exitCode, ...(note ? { note } : {}) };
}

function renderBrief(output: BriefOutput): string[] {
  return renderStreams([`exit ${output.exit_code ?? "by signal"}${output.note ? ` · ${output.note}` : ""}`], output);
}

/**
 * What running a package tool with these args (and perhaps another of its programs) means. Its
 * default arguments are its own program's: another program of the package runs without them.
 */
export function packageRun(tool: InstalledTool, args: string[] = [], program?: string) {
  const own = program === undefined || program === tool.program;
  return { attr: tool.attr, program: program ?? tool.program, args: [...(own ? (tool.defaultArgs ?? []) : []), ...args] };
}

/**
 * The description of a tool not given one: the package's, shortened, and the program it runs with the arguments it
 * puts first ("runs wc -l"). The index's program of a package of several (coreutils: ls) is what search finds it by,
 * not one it runs.
 */
function packageSummary(index: NixpkgsIndex | undefined, tool: PackageToolSpec): string {
  const id = index ? index.lookup(tool.attr) : -1;
  const record = id >= 0 ? index!.record(id) : undefined;
  const description = record?.description ?? "";
  const runs = tool.program ?? (tool.several ? undefined : record?.mainProgram);
  // Each shown in part: the description goes out on every turn.
  const clipped = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);
  const short = clipped(description, 64);
  const first = clipped(tool.defaultArgs?.length ? ` ${tool.defaultArgs.map(shellWord).join(" ")}` : "", 80);
  const what = runs ? ` (runs ${runs}${first})` : tool.several ? " (name the program to run)" : first ? ` (args go after${first})` : "";
  return `${short || `nixpkgs ${tool.attr}`}${what}`;
}

/** `index` describes the package when it is at hand; the tool works without it. */
export function packageTool(tool: PackageToolSpec, runner: PackageRunner, permissions: RunPermissions, index: NixpkgsIndex | undefined) {
  return defineTool({
    name: tool.name,
    title: tool.attr,
    description: tool.description ?? packageSummary(index, tool),
    input: toolArgs(tool.program, tool.common === true),
    output: briefOutput,
    annotations: runAnnotations([permissions]),
    run: async (args, call) =>
      toBrief(
        await runner.execute(
          { ...packageRun(tool, args.args, args.program), stdin: args.stdin, timeoutSeconds: tool.timeoutSeconds },
          { signal: call.signal, progress: progressOf(call) },
        ),
      ),
    render: renderBrief,
  });
}
