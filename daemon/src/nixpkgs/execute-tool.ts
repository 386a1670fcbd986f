// nixpkgs_execute: a program of any nixpkgs package run once in a jail, without installing it; a
// package tool's name runs that tool's package and program.
import { z } from "zod";
import { programFacts, programResultOutput, programResultShape, renderStreams } from "../mcp/program-result.js";
import { defineTool } from "../mcp/tool.js";
import type { Execution, PackageRunner } from "./execute.js";
import { packageRun } from "./package-tool.js";
import { decodeAttr, TOOL_PREFIX } from "./tool-names.js";
import type { NixpkgsToolSet } from "./tool-set.js";
import { progressOf, runAnnotations, TIMED_OUT } from "./tool-support.js";

const runOutput = {
  package: z.string(),
  program: z.string(),
  ...programResultShape,
};
type RunOutput = z.infer<z.ZodObject<typeof runOutput>>;

function toOutput(execution: Execution): RunOutput {
  return { package: execution.attr, program: execution.program, ...programResultOutput(execution) };
}

function renderRun(output: RunOutput): string {
  const facts = [`${output.package}: ${output.program} exited ${output.exit_code ?? "by signal"}`, `${output.duration_ms} ms`, ...programFacts(output, TIMED_OUT)];
  return renderStreams([facts.join(" · ")], output);
}

export function executeTool(runner: PackageRunner, tools: NixpkgsToolSet, maxStdinBytes: number) {
  return defineTool({
    name: "nixpkgs_execute",
    title: "Run a nixpkgs package once",
    description:
      "Run a program of any nixpkgs package once in a jail, without installing it (built on first use; may take minutes). Args are an array, never a shell string. The project is at /project; network is off unless configured.",
    input: {
      package: z.string().describe("Attribute path, e.g. ripgrep or python3Packages.black (or an installed tool's name)"),
      args: z.array(z.string()).optional().describe("Arguments (an array, no shell)"),
      stdin: z.string().optional().describe(`Standard input (at most ${maxStdinBytes} bytes)`),
      program: z.string().optional().describe("Program to run (default: the package's main program)"),
      timeout_seconds: z.number().int().min(1).optional().describe("Run time limit (the build has its own)"),
    },
    output: runOutput,
    annotations: runAnnotations,
    run: async (args, call) => {
      // An installed tool's name runs that tool; another nixpkgs_ name decodes to its attribute.
      const installed = tools.packageTool(args.package);
      const attr = args.package.startsWith(TOOL_PREFIX) ? decodeAttr(args.package.slice(TOOL_PREFIX.length)) : args.package;
      const execution = await runner.execute(
        installed
          ? {
              ...packageRun(installed, args.args),
              ...(args.program ? { program: args.program } : {}),
              stdin: args.stdin,
              timeoutSeconds: args.timeout_seconds ?? installed.timeoutSeconds,
            }
          : { attr, args: args.args, stdin: args.stdin, program: args.program, timeoutSeconds: args.timeout_seconds },
        { signal: call.signal, progress: progressOf(call) },
      );
      return toOutput(execution);
    },
    render: renderRun,
  });
}
