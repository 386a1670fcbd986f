// The shape of a subcommand and the flags every subcommand shares. Light on purpose (no schema
// library): main.ts and `serve` start from here; ./command.ts adds config loading.
import type { ParseArgsConfig } from "node:util";
import { collectLayers, parseScalar, type FlagValue, type Layers } from "../config/layers.js";

export type Options = NonNullable<ParseArgsConfig["options"]>;
export type Values = Record<string, string | boolean | string[] | undefined>;

export interface Command {
  name: string;
  summary: string;
  /** Usage line and the command's own flags, for --help. */
  help: string;
  options: Options;
  /** Whether the command takes positional arguments. */
  positionals?: boolean;
  run(values: Values, positionals: string[]): Promise<number>;
}

/** Exit codes: 0 ok, 1 failure, 2 usage. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

export class UsageError extends Error {}

export const commonOptions: Options = {
  project: { type: "string" },
  config: { type: "string" },
  "state-dir": { type: "string" },
  "cache-dir": { type: "string" },
  "log-level": { type: "string" },
  metadata: { type: "string" },
  set: { type: "string", multiple: true },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "V" },
};

export const commonHelp = `Common flags:
  --project DIR       project root (default: nearest ancestor with .git, else the cwd)
  --config FILE       extra config file, above the project's .nixshed.toml
  --state-dir DIR     persistent state (default: $XDG_STATE_HOME/nixshed)
  --cache-dir DIR     caches (default: $XDG_CACHE_HOME/nixshed)
  --log-level LEVEL   error | warn | info | debug (logs go to stderr)
  --metadata PATH     metadata store path made by lib.mkMetadata
  --set KEY=VALUE     any config key, e.g. --set fs.read_only=true (repeatable)
  -h, --help          this help
  -V, --version       print the version`;

/** Flags that name config keys, as the dotted-key layer loadConfig expects. */
export function flagLayer(values: Values, extra: Record<string, string> = {}): FlagValue[] {
  const named: Record<string, string> = {
    "state-dir": "state_dir",
    "cache-dir": "cache_dir",
    "log-level": "log_level",
    metadata: "metadata",
    ...extra,
  };
  const flags: FlagValue[] = [];
  for (const [flag, key] of Object.entries(named)) {
    const value = values[flag];
    if (typeof value === "string") flags.push({ key, value, flag: `--${flag}` });
  }
  for (const assignment of (values.set as string[] | undefined) ?? []) {
    const eq = assignment.indexOf("=");
    if (eq <= 0) throw new UsageError(`--set ${assignment}: expected KEY=VALUE`);
    const key = assignment.slice(0, eq);
    flags.push({ key, value: parseScalar(assignment.slice(eq + 1)), flag: `--set ${key}` });
  }
  return flags;
}

/** The configuration layers the common flags select, not yet validated. */
export function layersFromFlags(values: Values, extraFlagKeys: Record<string, string> = {}): Layers {
  return collectLayers({
    project: values.project as string | undefined,
    configFile: values.config as string | undefined,
    flags: flagLayer(values, extraFlagKeys),
  });
}
