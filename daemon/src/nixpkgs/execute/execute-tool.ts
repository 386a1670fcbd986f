// nixpkgs_execute: a program of any nixpkgs package run once in a jail, without installing it; a
// package tool's name runs that tool's package and program. Its description names the everyday
// packages (everyday-tools.ts), so that the usual ones need no search first.
import { JAIL_SCRATCH } from "../../jail/policy.js";
import { z } from "zod";
import { allowListOf, describeNetwork, reachesOut } from "../../config/network.js";
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

/** What packages may do: those not configured otherwise (`defaults`), and each package nixpkgs.permissions names. */
export interface PackagePermissions {
  defaults: RunPermissions;
  configured: [attr: string, permissions: RunPermissions][];
}

/** At most this many packages configured otherwise are named in the description. */
const NAMED_EXCEPTIONS = 8;

const describeAccess = ({ projectAccess, network }: RunPermissions) =>
  `${projectAccess === "none" ? "not mounted" : projectAccess}, ${describeNetwork(network, 2)}`;

const ACCESS_RANK = { none: 0, ro: 1, rw: 2 } as const;

/** Whether a package may do more than the defaults: write where they read, or reach what they do not. */
function widens(permissions: RunPermissions, defaults: RunPermissions): boolean {
  if (ACCESS_RANK[permissions.projectAccess] > ACCESS_RANK[defaults.projectAccess]) return true;
  if (defaults.network === true || !reachesOut(permissions.network)) return false;
  const allowed = allowListOf(defaults.network) ?? [];
  return permissions.network === true || (allowListOf(permissions.network) ?? []).some((destination) => !allowed.includes(destination));
}

/**
 * The description: what the tool does and what a package gets (the defaults, "/project ro, offline",
 * which a write in place or a download needs to know, then the packages that may do more), then the
 * everyday packages by purpose (describeEveryday). Only a trusted layer widens a package's permissions
 * (SECURITY.md), so no name a project's config invents reaches the description.
 */
export function executeDescription(everyday: string, { defaults, configured }: PackagePermissions): string {
  const others = configured.filter(([, permissions]) => widens(permissions, defaults));
  const named = others.slice(0, NAMED_EXCEPTIONS).map(([attr, permissions]) => `${attr} (${describeAccess(permissions)})`);
  const exceptions = others.length ? ` Allowed more: ${named.join(", ")}${others.length > named.length ? ", …" : ""}.` : "";
  const intro = `Run a nixpkgs package's program once in a jail, in /project (${describeAccess(defaults)}; relative paths are project files; ${JAIL_SCRATCH} is scratch); no shell.${exceptions}`;
  return everyday ? `${intro} No search needed (… = pass program):\n${everyday}` : intro;
}

export function executeTool(
  runner: PackageRunner,
  tools: NixpkgsToolSet,
  maxStdinBytes: number,
  everyday: string,
  permissions: PackagePermissions,
) {
  return defineTool({
    name: EXECUTE,
    title: "Run a nixpkgs package once",
    description: executeDescription(everyday, permissions),
    input: {
      package: z.string().describe("Attribute path (jq, python3Packages.black), program (pdfunite) or installed tool"),
      args: z.array(z.string()).optional(),
      stdin: z.string().optional().describe(`Standard input (at most ${maxStdinBytes} bytes)`),
      program: z.string().optional().describe("Program to run (default: the main one)"),
      timeout_seconds: z.number().int().min(1).optional().describe("Run time limit (not the build's)"),
    },
    output: runOutput,
    annotations: runAnnotations([permissions.defaults, ...permissions.configured.map(([, each]) => each)]),
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
