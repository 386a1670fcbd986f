// nixpkgs_install_tool, nixpkgs_uninstall_tool and nixpkgs_list_installed: the package tools the
// agent adds at run time, kept in the state dir (installed.ts) and restored at startup. One model:
// the package tools on the server, installed or everyday (config common_tools = "tools"); install
// finds a tool among them, and list shows each of them, so the two always agree. Only what runs is
// installed: the package is realised and its program found first, so a library, a broken package or
// a program the package lacks is refused now, not at the tool's first call.
import { z } from "zod";
import type { Logger } from "../../log.js";
import { defineTool } from "../../mcp/tool.js";
import { shellWord } from "../../shell-word.js";
import { NixpkgsError } from "../errors.js";
import type { PackageRunner } from "../execute/execute.js";
import { withoutInstallable } from "../index/package-sets.js";
import { COMMON_TOOLS } from "./common-tools.js";
import { type InstalledRegistry, type InstalledTool, refuseLongDefaultArgs } from "./installed.js";
import { TOOL_PREFIX } from "./tool-names.js";
import type { NixpkgsToolSet } from "./tool-set.js";
import { progressOf } from "./tool-support.js";

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

/** Registers the installed tools, after the built-in and everyday ones so that those keep their names. */
export function restoreInstalledTools(tools: NixpkgsToolSet, registry: InstalledRegistry, log: Logger): void {
  for (const tool of registry.all()) {
    if (tools.has(tool.name)) {
      log.warn(`nixpkgs: installed tool ${tool.name} clashes with a built-in tool; skipped (uninstall and reinstall it)`);
      continue;
    }
    tools.addPackage(tool);
  }
}

export function installTool(tools: NixpkgsToolSet, registry: InstalledRegistry, runner: PackageRunner) {
  return defineTool({
    name: "nixpkgs_install_tool",
    title: "Install a nixpkgs package as a tool",
    description: "Make a package a tool of its own, nixpkgs_<name> (args, stdin), kept across restarts.",
    input: {
      package: z.string().describe("Attribute path, e.g. ripgrep"),
      program: z.string().optional().describe("Program to run (default: the main one)"),
      description: z.string().max(500).optional().describe("Its description"),
      default_args: z.array(z.string()).optional().describe("Arguments before each call's"),
      timeout_seconds: z.number().int().min(1).optional().describe("Run time limit per call"),
    },
    output: { name: z.string(), package: z.string(), program: z.string().optional(), already_installed: z.boolean(), note: z.string() },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (args, call) => {
      // A package tool's name ("nixpkgs_jq") is its package.
      const asked = tools.packageTool(args.package);
      const { attr, program } = runner.resolve(asked?.attr ?? args.package, args.program ?? asked?.program);
      if (args.timeout_seconds) runner.checkTimeout(args.timeout_seconds);
      refuseLongDefaultArgs(args.default_args ?? []);
      const wanted: Omit<InstalledTool, "name"> = {
        attr,
        ...(program ? { program } : {}),
        ...(args.description ? { description: args.description } : {}),
        ...(args.default_args?.length ? { defaultArgs: args.default_args } : {}),
        ...(args.timeout_seconds ? { timeoutSeconds: args.timeout_seconds } : {}),
      };
      // An everyday tool already runs the package's usual program.
      const same = tools
        .packageTools()
        .find((tool) => sameTool(tool, tool.common && !wanted.program ? { ...wanted, program: tool.program } : wanted));
      const note = "If your client does not refresh its tool list, call nixpkgs_execute with package set to this name.";
      if (same)
        return { name: same.name, package: same.attr, ...(same.program ? { program: same.program } : {}), already_installed: true, note };
      // A tool of such a package without a program would refuse every call; the same words as that refusal, now.
      const several = program ? undefined : COMMON_TOOLS.find((tool) => tool.attr === attr && tool.several);
      if (several) throw new NixpkgsError(`${attr} has several programs and no main one`, `Pass program, e.g. ${several.program}.`);
      await runner.prepare(attr, program, { signal: call.signal, progress: progressOf(call) });
      // Named for the program asked for (coreutils' wc is nixpkgs_wc), else the package as asked ("nixpkgs#tree" is tree).
      const tool = { name: tools.freeName(args.program ?? asked?.attr ?? withoutInstallable(args.package)), ...wanted };
      registry.add(tool);
      // Registering a tool on a connected server sends notifications/tools/list_changed.
      tools.addPackage(tool);
      return { name: tool.name, package: tool.attr, ...(program ? { program } : {}), already_installed: false, note };
    },
    render: (result) =>
      `${result.already_installed ? "Already installed" : "Installed"}: ${result.name} runs ${result.program && result.program !== result.package ? `${result.program} of ${result.package}` : result.package}. ${result.note}`,
  });
}

export function uninstallTool(tools: NixpkgsToolSet, registry: InstalledRegistry) {
  return defineTool({
    name: "nixpkgs_uninstall_tool",
    title: "Remove an installed nixpkgs tool",
    description: "Remove a tool added by nixpkgs_install_tool.",
    input: { name: z.string().describe("The tool's name, e.g. nixpkgs_ripgrep") },
    output: { removed: z.string() },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: async (args) => {
      // Named as its package or program too ("ripgrep" for nixpkgs_ripgrep).
      const prefixed = `${TOOL_PREFIX}${args.name}`;
      const name = !registry.get(args.name) && registry.get(prefixed) ? prefixed : args.name;
      if (!registry.get(name)) {
        const hint = tools.packageTool(name)?.common
          ? "It is an everyday tool from config nixpkgs.common_tools; change the config to drop it."
          : `Installed: ${
              registry
                .all()
                .map((tool) => tool.name)
                .join(", ") || "none"
            }.`;
        throw new NixpkgsError(`no installed tool '${name}'`, hint);
      }
      registry.remove(name);
      tools.removePackage(name);
      return { removed: name };
    },
    render: (result) => `Removed ${result.removed}.`,
  });
}

export function listInstalledTool(tools: NixpkgsToolSet) {
  return defineTool({
    name: "nixpkgs_list_installed",
    title: "List installed nixpkgs tools",
    description: "The package tools: installed, and everyday ones from config.",
    input: {},
    output: {
      installed: z.array(
        z.object({
          name: z.string(),
          package: z.string(),
          program: z.string().optional(),
          default_args: z.array(z.string()).optional(),
          everyday: z.boolean().optional(),
        }),
      ),
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async () => ({
      installed: tools.packageTools().map((tool) => ({
        name: tool.name,
        package: tool.attr,
        ...(tool.program ? { program: tool.program } : {}),
        ...(tool.defaultArgs ? { default_args: tool.defaultArgs } : {}),
        ...(tool.common ? { everyday: true } : {}),
      })),
    }),
    render: (result) =>
      result.installed.length
        ? `Installed: ${result.installed.map((tool) => `${tool.name} (${[tool.package, tool.program, ...(tool.default_args ?? []).map(shellWord), tool.everyday ? "everyday" : ""].filter(Boolean).join(" ")})`).join(", ")}`
        : "Nothing installed; nixpkgs_execute runs any package without it.",
  });
}
