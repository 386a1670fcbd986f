// Registers scan_packages and read_package: the exact installed source of the project's Python and
// Node dependencies, read where the installers put it.
import { z } from "zod";
import type { Capability } from "../capability.js";
import { defineTool, registerTool, ToolError } from "../mcp/tool.js";
import { PkgLocalError } from "./errors.js";
import { findPackage } from "./lookup.js";
import { PackageIndex, type ProjectPackages } from "./package-index.js";
import { describePackage, packageLocation, readPackageFile } from "./package-read.js";
import { shownPath } from "./project-path.js";
import type { FoundEnvironment, Language, PackageRecord } from "./types.js";

const DEFAULT_LIMIT = 500;

const packageShape = z.object({
  name: z.string(),
  version: z.string(),
  language: z.enum(["python", "node"]),
  manager: z.string(),
  location: z.string(),
  import_names: z.array(z.string()).optional(),
  entry: z
    .object({ main: z.string().optional(), module: z.string().optional(), types: z.string().optional(), exports: z.array(z.string()).optional() })
    .optional(),
  editable: z.string().optional(),
});

const environmentShape = z.object({
  language: z.enum(["python", "node"]),
  kind: z.string(),
  manager: z.string(),
  path: z.string(),
  packages_dir: z.string(),
  python_version: z.string().optional(),
  packages: z.number(),
});

const excerptShape = z.object({ path: z.string(), text: z.string(), more: z.boolean() });

const HOW_TO_CREATE: Record<Language, string> = {
  python: "Create one in the project: `python3 -m venv .venv && .venv/bin/pip install -r requirements.txt` (or `uv sync`, `poetry install`, `pipenv install`), or name it in [pkglocal] python_envs.",
  node: "Install the dependencies in the project: `npm install` (or `pnpm install`, `yarn install`, `bun install`), or name the directory in [pkglocal] node_modules.",
};

function missingMessage(language: Language, found: ProjectPackages): string {
  return `no ${language} environment found; looked for: ${found.lookedFor[language].join(", ")}`;
}

function matches(pkg: PackageRecord, filter: string | undefined): boolean {
  if (!filter) return true;
  const needle = filter.toLowerCase();
  if (needle.includes("*")) {
    const regex = new RegExp(`^${needle.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
    return regex.test(pkg.name.toLowerCase()) || (pkg.importNames ?? []).some((name) => regex.test(name.toLowerCase()));
  }
  return pkg.name.toLowerCase().includes(needle) || (pkg.importNames ?? []).some((name) => name.toLowerCase().includes(needle));
}

function environmentOut(environment: FoundEnvironment, packages: number, projectRoot: string) {
  const shown = (path: string) => shownPath(path, projectRoot);
  return {
    language: environment.language,
    kind: environment.kind,
    manager: environment.manager,
    path: shown(environment.path),
    packages_dir: shown(environment.packagesDir),
    python_version: environment.pythonVersion,
    packages,
  };
}

export const pkglocalCapability: Capability = {
  name: "pkglocal",
  instructions:
    "Before using a dependency's API, read the installed version: scan_packages lists the project's Python and Node packages, read_package shows one's files and source.",
  async register(ctx) {
    const settings = ctx.config.pkglocal;
    const index = new PackageIndex({
      projectRoot: ctx.projectRoot,
      cacheDir: ctx.cacheDir,
      env: process.env,
      pythonEnvs: settings.python_envs,
      nodeModules: settings.node_modules,
    });
    const packageOut = (pkg: PackageRecord) => ({
      name: pkg.name,
      version: pkg.version,
      language: pkg.language,
      manager: pkg.manager,
      location: packageLocation(pkg, ctx.projectRoot),
      import_names: pkg.importNames,
      entry: pkg.entry,
      editable: pkg.editable,
    });
    const core = async <T>(run: () => T | Promise<T>): Promise<T> => {
      try {
        return await run();
      } catch (error) {
        if (error instanceof PkgLocalError) throw new ToolError(error.message, error.hint);
        throw error;
      }
    };

    registerTool(
      ctx.mcp,
      defineTool({
        name: "scan_packages",
        title: "List installed packages",
        description:
          "The project's installed Python and Node packages with exact versions, import names (python) and entry points (node), from .venv/venv, $VIRTUAL_ENV, uv/poetry/pipenv/hatch and Nix Python environments and node_modules (npm, pnpm, yarn, bun, workspaces). Cached until a lockfile or package directory changes.",
        input: {
          language: z.enum(["python", "node", "all"]).optional().describe("Default: all"),
          filter: z.string().optional().describe("Substring (or * glob) of the package or import name"),
          limit: z.number().int().min(1).max(5000).optional().describe(`Packages listed at most (default ${DEFAULT_LIMIT})`),
        },
        output: {
          packages: z.array(packageShape),
          total: z.number().describe("Packages matching, listed or not"),
          environments: z.array(environmentShape),
          missing: z.array(z.string()).describe("Languages without an environment, and where they were looked for"),
          cached: z.boolean(),
        },
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        async run({ language = "all", filter, limit = DEFAULT_LIMIT }) {
          const found = await core(() => index.scan());
          const languages: Language[] = language === "all" ? ["python", "node"] : [language];
          const present = languages.filter((each) => found.environments.some((environment) => environment.language === each));
          if (present.length === 0) {
            throw new ToolError(languages.map((each) => missingMessage(each, found)).join("\n"), languages.map((each) => HOW_TO_CREATE[each]).join("\n"));
          }
          const matching = found.packages.filter((pkg) => languages.includes(pkg.language) && matches(pkg, filter));
          return {
            packages: matching.slice(0, limit).map(packageOut),
            total: matching.length,
            environments: found.environments
              .filter((environment) => languages.includes(environment.language))
              .map((environment) => environmentOut(environment, found.counts.get(environment.packagesDir) ?? 0, ctx.projectRoot)),
            missing: languages.filter((each) => !present.includes(each)).map((each) => missingMessage(each, found)),
            cached: found.cached,
          };
        },
        render(result) {
          const lines = result.environments.map(
            (environment) => `${environment.language} ${environment.kind} (${environment.manager}${environment.python_version ? ` ${environment.python_version}` : ""}): ${environment.packages_dir}`,
          );
          lines.push(...result.missing);
          lines.push(`${result.total} package(s)${result.packages.length < result.total ? `, first ${result.packages.length} shown` : ""}:`);
          for (const pkg of result.packages) {
            const extra = pkg.import_names?.length ? `  import ${pkg.import_names.join(", ")}` : "";
            lines.push(`${pkg.name} ${pkg.version}  ${pkg.location}${extra}${pkg.editable ? "  (editable)" : ""}`);
          }
          return lines.join("\n");
        },
      }),
      ctx.log,
    );

    registerTool(
      ctx.mcp,
      defineTool({
        name: "read_package",
        title: "Read an installed package",
        description:
          "Without path: a package's exact version, README and entry-file heads and its source file tree. With path (relative to the package, as the tree shows it): that file, paged by start_line/end_line within a byte budget. Only files inside the package are readable. `package` is a name, an import name (PIL) or name@version.",
        input: {
          package: z.string().min(1).describe("Package name, import name, or name@version"),
          path: z.string().optional().describe("A file of the package, as listed by read_package without path"),
          start_line: z.number().int().min(1).optional(),
          end_line: z.number().int().min(1).optional(),
        },
        output: {
          name: z.string(),
          version: z.string(),
          language: z.enum(["python", "node"]),
          location: z.string(),
          summary: z.string().optional(),
          import_names: z.array(z.string()).optional(),
          entry: packageShape.shape.entry,
          editable: z.string().optional(),
          other_versions: z.array(z.string()).optional(),
          readme: excerptShape.optional(),
          entry_file: excerptShape.optional(),
          tree: z
            .object({
              files: z.array(z.object({ path: z.string(), bytes: z.number() })),
              counts: z.record(z.string(), z.number()),
              total: z.number(),
              other: z.number(),
              incomplete: z.boolean(),
            })
            .optional(),
          path: z.string().optional(),
          content: z.string().optional(),
          start_line: z.number().optional(),
          end_line: z.number().optional(),
          total_lines: z.number().optional(),
          next_start_line: z.number().optional(),
          line_cut: z.boolean().optional(),
          binary: z.object({ size: z.number() }).optional(),
        },
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        async run(args, call) {
          const found = await core(() => index.scan());
          if (found.environments.length === 0) {
            throw new ToolError(`${missingMessage("python", found)}\n${missingMessage("node", found)}`, `${HOW_TO_CREATE.python}\n${HOW_TO_CREATE.node}`);
          }
          const lookup = findPackage(found.packages, args.package);
          const pkg = lookup.found;
          if (!pkg) {
            throw new ToolError(
              `${args.package}: not installed in this project`,
              lookup.closest.length > 0 ? `closest: ${lookup.closest.join(", ")}` : "scan_packages lists what is installed",
            );
          }
          const base = {
            name: pkg.name,
            version: pkg.version,
            language: pkg.language,
            location: packageLocation(pkg, ctx.projectRoot),
          };
          if (args.path === undefined) {
            const overview = await describePackage(pkg, settings.max_tree_entries);
            return {
              ...base,
              summary: pkg.summary,
              import_names: pkg.importNames,
              entry: pkg.entry,
              editable: pkg.editable,
              other_versions: lookup.others.length > 0 ? lookup.others.map((other) => `${other.name}@${other.version}`) : undefined,
              readme: overview.readme,
              entry_file: overview.entryFile,
              tree: overview.tree,
            };
          }
          const path = args.path;
          const page = await core(() =>
            readPackageFile(pkg, { path, startLine: args.start_line, endLine: args.end_line, maxBytes: settings.max_read_bytes, signal: call.signal }),
          );
          if (page.binary) return { ...base, path, binary: { size: page.size } };
          return {
            ...base,
            path,
            content: page.text,
            start_line: page.startLine,
            end_line: page.endLine,
            total_lines: page.totalLines,
            next_start_line: page.nextStartLine,
            line_cut: page.lineCut,
          };
        },
        render(result) {
          const head = `${result.name} ${result.version} (${result.language}) ${result.location}`;
          if (result.path !== undefined) {
            if (result.binary) return `${head}\n${result.path}: binary file, ${result.binary.size} bytes`;
            const range = `${result.path} lines ${result.start_line}-${result.end_line}${result.total_lines !== undefined ? ` of ${result.total_lines}` : ""}`;
            const more = result.next_start_line ? `\n[more: start_line ${result.next_start_line}]` : "";
            return `${head}\n${range}${result.line_cut ? " (line cut)" : ""}\n${result.content ?? ""}${more}`;
          }
          const parts = [head];
          if (result.summary) parts.push(result.summary);
          if (result.import_names?.length) parts.push(`import: ${result.import_names.join(", ")}`);
          if (result.editable) parts.push(`editable install from ${result.editable}`);
          if (result.other_versions) parts.push(`also installed: ${result.other_versions.join(", ")}`);
          for (const [label, excerpt] of [["README", result.readme], ["entry", result.entry_file]] as const) {
            if (excerpt) parts.push(`--- ${label}: ${excerpt.path}${excerpt.more ? " (head)" : ""}\n${excerpt.text}`);
          }
          const tree = result.tree;
          if (tree) {
            const counts = Object.entries(tree.counts).map(([kind, count]) => `${kind} ${count}`).join(", ");
            const shown = tree.files.length < tree.total ? `, ${tree.files.length} listed` : "";
            parts.push(`--- files: ${tree.total}${tree.incomplete ? "+" : ""} (${counts}${shown}; ${tree.other} other)`);
            parts.push(tree.files.map((file) => `${file.path}  ${file.bytes}`).join("\n"));
          }
          return parts.join("\n");
        },
      }),
      ctx.log,
    );
  },
};
