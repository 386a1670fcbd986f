// nixpkgs_execute: a program of any nixpkgs package run once in a jail, without installing it; a
// package tool's name runs that tool's package and program. Its description names the everyday
// packages (everyday-tools.ts), so that the usual ones need no search first.
import { z } from "zod";
import { describeNetwork } from "../../config/network.js";
import { programFacts, programResultOutput, programResultShape, renderStreams } from "../../mcp/program-result.js";
import { defineTool } from "../../mcp/tool.js";
import type { Execution, PackageRunner } from "./execute.js";
import { packageRun } from "../tools/package-tool.js";
import { decodeAttr, TOOL_PREFIX } from "../tools/tool-names.js";
import type { NixpkgsToolSet } from "../tools/tool-set.js";
import { progressOf, runAnnotations, TIMED_OUT, type RunPermissions } from "../tools/tool-support.js";

const runOutput = {
  package: z.string(),
  program: z.string(),
  ...programResultShape,
};
type RunOutput = z.infer<z.ZodObject<typeof runOutput>>;

function toOutput(execution: Execution): RunOutput {
  return { package: execution.attr, program: execution.program, ...programResultOutput(execution) };
}

function renderRun(output: RunOutput): string[] {
  const facts = [
    `${output.package}: ${output.program} exited ${output.exit_code ?? "by signal"}`,
    `${output.duration_ms} ms`,
    ...programFacts(output, TIMED_OUT),
  ];
  return renderStreams([facts.join(" · ")], output);
}

export const EXECUTE = "nixpkgs_execute";

/**
 * The description: what the tool does and what a package not configured otherwise gets (`defaults`:
 * "/project ro, offline", which a write in place or a download needs to know), then the everyday
 * packages by purpose (describeEveryday).
 */
export function executeDescription(everyday: string, defaults: RunPermissions): string {
  const access = defaults.projectAccess === "none" ? "not mounted" : defaults.projectAccess;
  const intro = `Run a nixpkgs package's program once in a jail, in /project (${access}, ${describeNetwork(defaults.network, 2)}; relative paths are project files); args: an array, no shell.`;
  return everyday ? `${intro} Everyday packages need no search (… = pass program):\n${everyday}` : intro;
}

/** `permissions`: those of every package it may run (the defaults first, then each configured one), for its annotations. */
export function executeTool(
  runner: PackageRunner,
  tools: NixpkgsToolSet,
  maxStdinBytes: number,
  everyday: string,
  permissions: RunPermissions[],
) {
  return defineTool({
    name: EXECUTE,
    title: "Run a nixpkgs package once",
    description: executeDescription(everyday, permissions[0]!),
    input: {
      package: z.string().describe("Attribute path (jq, python3Packages.black), program (pdfunite) or installed tool"),
      args: z.array(z.string()).optional().describe("Arguments"),
      stdin: z.string().optional().describe(`Standard input (at most ${maxStdinBytes} bytes)`),
      program: z.string().optional().describe("Program to run (default: the main one)"),
      timeout_seconds: z.number().int().min(1).optional().describe("Run time limit (not the build's)"),
    },
    output: runOutput,
    annotations: runAnnotations(permissions),
    run: async (args, call) => {
      // An installed tool's name runs that tool; another nixpkgs_ name decodes to its attribute.
      const installed = tools.packageTool(args.package);
      const attr = args.package.startsWith(TOOL_PREFIX) ? decodeAttr(args.package.slice(TOOL_PREFIX.length)) : args.package;
      const execution = await runner.execute(
        installed
          ? {
              ...packageRun(installed, args.args, args.program),
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
