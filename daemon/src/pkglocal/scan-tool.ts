// scan_packages: the project's installed packages with exact versions, filtered and capped, and the
// environments they were found in.
import { z } from "zod";
import { LANGUAGE_ALIASES } from "../language-names.js";
import { defineTool, ToolError } from "../mcp/tool.js";
import type { PackageIndex } from "./package-index.js";
import { packageLocation } from "./package-read.js";
import { matchesWildcard } from "./wildcard.js";
import { shownPath } from "./project-path.js";
import { missingMessage, noEnvironment } from "./tool-support.js";
import type { FoundEnvironment, Language, PackageRecord } from "./types.js";

const DEFAULT_LIMIT = 500;

export const entryShape = z
  .object({
    main: z.string().optional(),
    module: z.string().optional(),
    types: z.string().optional(),
    exports: z.array(z.string()).optional(),
  })
  .optional();

const packageShape = z.object({
  name: z.string(),
  version: z.string(),
  language: z.enum(["python", "node"]),
  manager: z.string(),
  location: z.string(),
  import_names: z.array(z.string()).optional(),
  entry: entryShape,
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

function matches(pkg: PackageRecord, filter: string | undefined): boolean {
  if (!filter) return true;
  const needle = filter.toLowerCase();
  if (needle.includes("*")) {
    return [pkg.name, ...(pkg.importNames ?? [])].some((name) => matchesWildcard(needle, name.toLowerCase()));
  }
  return pkg.name.toLowerCase().includes(needle) || (pkg.importNames ?? []).some((name) => name.toLowerCase().includes(needle));
}

function environmentOut(environment: FoundEnvironment, packages: number, projectRoot: string) {
  return {
    language: environment.language,
    kind: environment.kind,
    manager: environment.manager,
    path: shownPath(environment.path, projectRoot),
    packages_dir: shownPath(environment.packagesDir, projectRoot),
    python_version: environment.pythonVersion,
    packages,
  };
}

function packageOut(pkg: PackageRecord, projectRoot: string) {
  return {
    name: pkg.name,
    version: pkg.version,
    language: pkg.language,
    manager: pkg.manager,
    location: packageLocation(pkg, projectRoot),
    import_names: pkg.importNames,
    entry: pkg.entry,
    editable: pkg.editable,
  };
}

function packageLine(pkg: { name: string; version: string; import_names?: string[]; editable?: string }, location: string): string {
  const where = location === pkg.name ? "" : `  ${location}`;
  const imports = pkg.import_names?.length ? `  import ${pkg.import_names.join(", ")}` : "";
  return `${pkg.name} ${pkg.version}${where}${imports}${pkg.editable ? "  (editable)" : ""}`;
}

/** A language as agents name it, lower-cased, and the one it is here: its packages' manager names it too. */
const LANGUAGE_NAMES: Record<string, string> = {
  python: "python",
  node: "node",
  all: "all",
  ...LANGUAGE_ALIASES,
  typescript: "node",
  ts: "node",
  npm: "node",
  python3: "python",
  pip: "python",
};

export function scanPackagesTool(index: PackageIndex, projectRoot: string) {
  return defineTool({
    name: "scan_packages",
    title: "List installed packages",
    description: "The project's installed Python and Node packages (venvs, Nix envs, node_modules): versions, import names.",
    input: {
      // A string, not an enum: a client that checks arguments itself would refuse "js" before otherForms maps it.
      language: z.string().optional().describe("python, node or all (default)"),
      filter: z.string().optional().describe("Package or import name: a substring or * glob"),
      limit: z.number().int().min(1).max(5000).optional().describe(`Packages listed at most (default ${DEFAULT_LIMIT})`),
    },
    // "js" and "npm" are node's, "py" and "pip" python's, in any case.
    otherForms: (args) => {
      const meant = typeof args.language === "string" ? LANGUAGE_NAMES[args.language.toLowerCase()] : undefined;
      return meant ? { ...args, language: meant } : args;
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
      if (!(language === "all" || language === "python" || language === "node")) {
        throw new ToolError(`unknown language '${language}'`, "Pass python, node or all (the default).");
      }
      const found = await index.scan();
      const languages: Language[] = language === "all" ? ["python", "node"] : [language];
      const present = languages.filter((each) => found.environments.some((environment) => environment.language === each));
      if (present.length === 0) {
        throw noEnvironment(languages, found);
      }
      const matching = found.packages.filter((pkg) => languages.includes(pkg.language) && matches(pkg, filter));
      return {
        packages: matching.slice(0, limit).map((pkg) => packageOut(pkg, projectRoot)),
        total: matching.length,
        environments: found.environments
          .filter((environment) => languages.includes(environment.language))
          .map((environment) => environmentOut(environment, found.counts.get(environment.packagesDir) ?? 0, projectRoot)),
        missing: languages.filter((each) => !present.includes(each)).map((each) => missingMessage(each, found)),
        cached: found.cached,
      };
    },
    render(result) {
      const lines = [`${result.total} package(s)${result.packages.length < result.total ? `, first ${result.packages.length} shown` : ""}`];
      // Packages under the environment they were found in, located relative to its directory: a
      // hoisted package's location is then its name, and is left out.
      const rest = new Set(result.packages);
      for (const environment of result.environments) {
        const version = environment.python_version ? ` ${environment.python_version}` : "";
        const prefix = `${environment.packages_dir}/`;
        const inIt = result.packages.filter((pkg) => rest.has(pkg) && pkg.location.startsWith(prefix));
        // What a filter found is listed under its environments only: an empty one says nothing.
        if (result.total > 0 && inIt.length === 0) continue;
        lines.push(`${environment.language} ${environment.kind} (${environment.manager}${version}): ${environment.packages_dir}`);
        for (const pkg of inIt) {
          rest.delete(pkg);
          lines.push(`  ${packageLine(pkg, pkg.location.slice(prefix.length))}`);
        }
      }
      if (rest.size > 0) lines.push("elsewhere (editable installs, links):");
      for (const pkg of rest) lines.push(`  ${packageLine(pkg, pkg.location)}`);
      lines.push(...result.missing);
      return lines.join("\n");
    },
  });
}
