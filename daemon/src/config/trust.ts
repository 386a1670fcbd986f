// The one place that decides what an untrusted project file may set. Every key of the schema is
// classified here (a test walks the schema and fails on a key that is not): a project may narrow
// what nixshed does (smaller limits, less access, tools turned off) but never widen it or choose
// what runs on the host (paths, package sets, nix options, state and cache directories). A value
// that would widen is dropped, not an error: the server starts with the trusted layers' value and
// says which keys it ignored and how to trust the file.
import { resolve } from "node:path";
import { shellWord } from "../shell-word.js";
import { isWithin } from "./paths.js";
import { configSchema, maxJails, type Config } from "./schema.js";
import { childOf, nodeOf } from "./shape.js";
import { valueAt } from "./value-words.js";

interface Context {
  /** The configuration of the trusted layers alone, defaults included. */
  trusted: Config;
  /** The dotted path of the value, record keys included (`nixpkgs.permissions.curl.network`). */
  path: string[];
  projectRoot: string;
}

export interface Rule {
  /** What a project may set, for warnings and docs: "false", "a number ≤ the trusted one", …; undefined: nothing. */
  allows?: string;
  /** Whether the project's value is accepted. Equal to the trusted value is always accepted. */
  accepts(value: unknown, trusted: unknown, context: Context): boolean;
  /** The trusted value to compare with, when it is not the one at the same path. */
  baseline?(context: Context): unknown;
}

const deepEqual = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Widens or redirects: only trusted layers may set it. */
const trustedOnly: Rule = { accepts: () => false };

/** Data for the Nix build the user runs (lib.fromToml), not read as authority by the daemon. */
const data: Rule = { allows: "any value", accepts: () => true };

/** A boolean whose one value is the restrictive one (enabled = false, read_only = true). */
const only = (restrictive: boolean): Rule => ({ allows: String(restrictive), accepts: (value) => value === restrictive });

/** A limit: a smaller number is more restrictive. */
const atMost: Rule = {
  allows: "a number ≤ the trusted value",
  accepts: (value, trusted) => typeof value === "number" && typeof trusted === "number" && value <= trusted,
};

/** A value of an ordered choice, least first: a project may pick one no further along than the trusted one. */
const notAbove = (order: string[], what: string): Rule => ({
  allows: `${what} (${order.join(" < ")})`,
  accepts: (value, trusted) =>
    typeof value === "string" && typeof trusted === "string" && order.includes(value) && order.indexOf(value) <= order.indexOf(trusted),
});

/** sandbox.max_jails: 0 means the CPU-based default, so a project may set 1 up to what the trusted value means. */
const fewerJails: Rule = {
  allows: "a number from 1 to the trusted value",
  accepts: (value, trusted) => typeof value === "number" && typeof trusted === "number" && value >= 1 && value <= maxJails(trusted),
};

const lessAccess = notAbove(["none", "ro", "rw"], "less access than the trusted value");
/** Verbosity may go up, not down: a project cannot silence the warnings the user relies on. */
const noQuieter = notAbove(["debug", "info", "warn", "error"], "a log level at least as verbose as the trusted one");

const isSubset = (value: unknown, trusted: unknown) =>
  Array.isArray(value) && Array.isArray(trusted) && value.every((item) => trusted.some((each) => deepEqual(each, item)));

/** A list that only drops entries of the trusted list. */
const subset: Rule = { allows: "a subset of the trusted list", accepts: isSubset };

/** A list that may only add entries to the trusted list (more paths protected). */
const superset: Rule = { allows: "the trusted list plus more entries", accepts: (value, trusted) => isSubset(trusted, value) };

/** Network: false < a list of destinations < true; a list may only drop destinations of a trusted list. */
const networkRank = (value: unknown) => (value === false ? 0 : Array.isArray(value) ? 1 : value === true ? 2 : -1);
const lessNetwork: Rule = {
  allows: "less network than the trusted value (false, or fewer listed destinations)",
  accepts: (value, trusted) => {
    const [mine, theirs] = [networkRank(value), networkRank(trusted)];
    if (mine < 0 || theirs < 0 || mine > theirs) return false;
    return mine === 1 && theirs === 1 ? isSubset(value, trusted) : true;
  },
};

/**
 * Paths the project names for its own files: each must lie inside the project root. Lexical: the
 * capability confines what it finally opens; this refuses naming the host outside.
 */
const insideProject: Rule = {
  allows: "paths inside the project",
  accepts: (value, _trusted, { projectRoot }) =>
    Array.isArray(value) && value.every((item) => typeof item === "string" && isWithin(resolve(projectRoot, item), projectRoot)),
};

/** A per-package permission falls back to the package-wide setting, so that is what it may not exceed. */
const permission = (key: "network" | "project_access", rule: Rule): Rule => ({
  ...rule,
  baseline: ({ trusted, path }) => trusted.nixpkgs.permissions[path[2]!]?.[key] ?? trusted.nixpkgs[key],
});

/**
 * Every key of the schema, dotted; `*` stands for any entry of a table of entries. A key missing
 * here is treated as trusted-only, and the trust test fails until it is classified.
 */
export const TRUST_RULES: Record<string, Rule> = {
  log_level: noQuieter,
  metadata: trustedOnly,
  state_dir: trustedOnly,
  cache_dir: trustedOnly,
  protected_paths: superset,

  "responses.max_bytes": atMost,
  "responses.keep_files": atMost,
  "responses.keep_seconds": atMost,
  "responses.keep_bytes": atMost,

  "fs.enabled": only(false),
  "fs.read_only": only(true),
  "fs.allow_move": only(false),
  "fs.allow_delete": only(false),
  "fs.extra_roots": subset,
  "fs.use_client_roots": only(false),
  "fs.max_read_bytes": atMost,
  "fs.max_write_bytes": atMost,
  "fs.max_list_entries": atMost,
  "fs.max_search_results": atMost,
  "fs.timeout_seconds": atMost,

  "sandbox.enabled": only(false),
  "sandbox.dirs": subset,
  "sandbox.project_access": lessAccess,
  "sandbox.max_timeout_seconds": atMost,
  "sandbox.max_output_bytes": atMost,
  "sandbox.max_stdin_bytes": atMost,
  "sandbox.max_jails": fewerJails,
  "sandbox.max_queued_jails": atMost,
  "sandbox.sessions.max_sessions": atMost,
  "sandbox.sessions.idle_timeout_seconds": atMost,
  "sandbox.sessions.max_lifetime_seconds": atMost,

  "nixpkgs.enabled": only(false),
  "nixpkgs.index": trustedOnly,
  "nixpkgs.source": trustedOnly,
  "nixpkgs.build_timeout_seconds": atMost,
  "nixpkgs.run_timeout_seconds": atMost,
  "nixpkgs.project_access": lessAccess,
  "nixpkgs.network": lessNetwork,
  "nixpkgs.permissions.*.network": permission("network", lessNetwork),
  "nixpkgs.permissions.*.project_access": permission("project_access", lessAccess),
  "nixpkgs.common_tools": notAbove(["off", "execute", "tools"], "fewer everyday-package tools than the trusted value"),
  "nixpkgs.tools": subset,
  "nixpkgs.extra_mounts": trustedOnly,
  "nixpkgs.nix_options": trustedOnly,

  "pkglocal.enabled": only(false),
  "pkglocal.python_envs": insideProject,
  "pkglocal.node_modules": insideProject,
  "pkglocal.max_tree_entries": atMost,
  "pkglocal.max_read_bytes": atMost,

  "environments.*.preset": data,
  "environments.*.description": data,
  "environments.*.packages": data,
  "environments.*.timeout_seconds": data,
  "environments.*.memory_mb": data,
  "environments.*.max_processes": data,
  "environments.*.workspace_mb": data,
  "environments.*.network": data,
  "environments.*.project_access": data,
};

export interface IgnoredKey {
  key: string;
  value: unknown;
  /** What a project file may set for this key, or that only trusted layers may set it. */
  reason: string;
}

type Schema = Parameters<typeof nodeOf>[0];

const isTable = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);

function reasonFor(rule: Rule | undefined, trusted: unknown): string {
  if (!rule?.allows) return "only trusted configuration may set it";
  const shown = JSON.stringify(trusted) ?? "unset";
  return `an untrusted project may set only ${rule.allows}; trusted: ${shown.length > 60 ? `${shown.slice(0, 57)}...` : shown}`;
}

/**
 * The values of an untrusted project layer that may stay, and the ones dropped with why. Keys the
 * schema does not know stay, so that validation names them as the typos they are.
 */
export function narrowProjectValues(
  values: Record<string, unknown>,
  trusted: Config,
  projectRoot: string,
): { kept: Record<string, unknown>; ignored: IgnoredKey[] } {
  const ignored: IgnoredKey[] = [];
  const walk = (node: Record<string, unknown>, schema: Schema, path: string[], pattern: string[]): Record<string, unknown> => {
    const kept: Record<string, unknown> = {};
    const shape = nodeOf(schema);
    for (const [key, value] of Object.entries(node)) {
      const child = childOf(shape, key);
      const childPath = [...path, key];
      const childPattern = [...pattern, shape.kind === "record" ? "*" : key];
      if (!child) {
        kept[key] = value; // Unknown: validation reports it.
        continue;
      }
      if (nodeOf(child).kind !== "leaf" && isTable(value)) {
        const table = walk(value, child, childPath, childPattern);
        if (Object.keys(table).length > 0) kept[key] = table;
        continue;
      }
      const rule = TRUST_RULES[childPattern.join(".")];
      const context: Context = { trusted, path: childPath, projectRoot };
      const baseline = rule?.baseline ? rule.baseline(context) : valueAt(trusted, childPath);
      if (rule && (deepEqual(value, baseline) || rule.accepts(value, baseline, context))) kept[key] = value;
      else ignored.push({ key: childPath.join("."), value, reason: reasonFor(rule, baseline) });
    }
    return kept;
  };
  return { kept: walk(values, configSchema, [], []), ignored };
}

/** The trust outcome of the project's .nixshed.toml, for serve's warning, `doctor` and `nixshed config`. */
export interface ProjectTrust {
  file: string;
  trusted: boolean;
  /** Values dropped because the file is not trusted. */
  ignored: IgnoredKey[];
  /** The command that trusts the file as it is now. */
  command: string;
  /** Why no trust record can count here, when none can. */
  problem?: string;
  /** The file's errors, when it has any: untrusted, it then counts for nothing. */
  invalid?: string;
}

/** `nixshed trust DIR`, with the state directory when it is not the default one (the store lives there). */
export function trustCommand(projectRoot: string, stateDir: string, defaultStateDir: string): string {
  return `nixshed trust ${shellWord(projectRoot)}${stateDir === defaultStateDir ? "" : ` --state-dir ${shellWord(stateDir)}`}`;
}

/** What was ignored, one key a line: "FILE is not trusted; ignored N settings …". */
export function ignoredSummary(trust: ProjectTrust): string {
  const lines = trust.ignored.map(({ key, value, reason }) => `  ${key} = ${JSON.stringify(value)}: ${reason}`);
  const count = `${trust.ignored.length} setting${trust.ignored.length === 1 ? "" : "s"}`;
  return `${trust.file} is not trusted; ignored ${count} that an untrusted project may not make:\n${lines.join("\n")}`;
}

/** How to trust the file, or why it cannot be. */
export const trustFix = (trust: ProjectTrust): string =>
  trust.problem ? `it cannot be trusted: ${trust.problem}` : `if you have read it and trust it: ${trust.command}`;

/** The one warning serve gives: each ignored key and the command that trusts the file; undefined when nothing was ignored. */
export function trustWarning(trust: ProjectTrust | undefined): string | undefined {
  if (trust?.invalid) return invalidSummary(trust);
  return trust && trust.ignored.length > 0 ? `${ignoredSummary(trust)}\n${trustFix(trust)}` : undefined;
}

/** "FILE is not trusted and has errors, so none of it counts: …" */
const invalidSummary = (trust: ProjectTrust) => `${trust.file} is not trusted and has errors, so none of it counts: ${trust.invalid}`;

/** The trust state in words, for `doctor` and `nixshed config`: ok unless settings were ignored. */
export function trustStatus(trust: ProjectTrust): { ok: boolean; detail: string; fix?: string } {
  if (trust.trusted) return { ok: true, detail: `${trust.file} is trusted (this content)` };
  if (trust.invalid)
    return { ok: false, detail: invalidSummary(trust), fix: "Fix the file (`nixshed config --example` prints every key)." };
  if (trust.ignored.length === 0) return { ok: true, detail: `${trust.file} is not trusted; it sets only what an untrusted project may` };
  return { ok: false, detail: ignoredSummary(trust), fix: trustFix(trust) };
}
