// The configuration layers, read and merged but not yet validated: built-in defaults < /etc <
// XDG user file < the project's .nixshed.toml < --config FILE < NIXSHED_* variables < flags.
// Every value remembers the layer it came from. Free of zod on purpose: `serve` reads the layers
// before the schema library has loaded (see ../mcp/initialize-cache.ts); ./load.ts validates.
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parse as parseToml } from "smol-toml";

export class ConfigError extends Error {}

export interface Layer {
  /** Where the values came from: a file path, `env NAME`, `flag --name`. */
  source: string;
  values: Record<string, unknown>;
}

export interface ConfigFile {
  path: string;
  found: boolean;
}


export interface FlagValue {
  /** Dotted config key, e.g. `fs.read_only`. */
  key: string;
  value: unknown;
  /** As typed, e.g. `--log-level` or `--set fs.read_only`. */
  flag: string;
}

export interface LoadOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  project?: string;
  configFile?: string;
  /** Flag values, already typed, each with the flag that set it (for error messages). */
  flags?: FlagValue[];
  systemConfig?: string;
}

const ENV_PREFIX = "NIXSHED_";
/** Variables the daemon hands to the jail; they are not configuration. */
const NON_CONFIG_ENV = /^NIXSHED_JAIL_/;

export function findProjectRoot(cwd: string, explicit?: string): string {
  if (explicit) {
    const dir = resolve(cwd, explicit);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new ConfigError(`--project ${explicit}: not a directory`);
    }
    return realpathSync(dir);
  }
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return realpathSync(dir);
    if (dirname(dir) === dir) return realpathSync(cwd);
  }
}

export function xdg(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const value = env[name];
  return value && value.startsWith("/") ? value : join(homedir(), fallback);
}

/** nixshed's state or cache directory: the configured one (relative to the project root) or the XDG one. */
export function nixshedDir(kind: "state" | "cache", configured: string, projectRoot: string, env: NodeJS.ProcessEnv): string {
  const fallback = kind === "state" ? xdg(env, "XDG_STATE_HOME", ".local/state") : xdg(env, "XDG_CACHE_HOME", ".cache");
  return resolve(projectRoot, configured || join(fallback, "nixshed"));
}

function readTomlLayer(path: string): Layer {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ConfigError(`${path}: cannot read: ${(error as Error).message}`);
  }
  try {
    return { source: path, values: parseToml(text) as Record<string, unknown> };
  } catch (error) {
    throw new ConfigError(`${path}: invalid TOML: ${(error as Error).message}`);
  }
}

/** A value from the environment or a flag, read as a TOML value when it is one ("true", "5", '["a"]'). */
export function parseScalar(raw: string): unknown {
  try {
    return (parseToml(`v = ${raw}`) as { v: unknown }).v;
  } catch {
    return raw;
  }
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    node = (next && typeof next === "object" && !Array.isArray(next) ? next : (node[key] = {})) as Record<string, unknown>;
  }
  node[path[path.length - 1]!] = value;
}

function envLayers(env: NodeJS.ProcessEnv): Layer[] {
  return Object.entries(env)
    .filter(([name, value]) => name.startsWith(ENV_PREFIX) && !NON_CONFIG_ENV.test(name) && value !== undefined)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => {
      const path = name.slice(ENV_PREFIX.length).toLowerCase().split("__");
      const values = {};
      setPath(values, path, parseScalar(value!));
      return { source: `env ${name}`, values };
    });
}

function flagLayers(flags: FlagValue[]): Layer[] {
  return flags.map(({ key, value, flag }) => {
    const values = {};
    setPath(values, key.split("."), value);
    return { source: `flag ${flag}`, values };
  });
}

export const isTable = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);

function mergeInto(target: Record<string, unknown>, layer: Layer, provenance: Map<string, string>, prefix = "", values = layer.values): void {
  for (const [key, value] of Object.entries(values)) {
    const dotted = prefix ? `${prefix}.${key}` : key;
    if (isTable(value)) {
      const child = isTable(target[key]) ? target[key] : (target[key] = {});
      provenance.set(dotted, layer.source);
      mergeInto(child as Record<string, unknown>, layer, provenance, dotted, value);
    } else {
      target[key] = value;
      provenance.set(dotted, layer.source);
    }
  }
}

/** The layer that set `dotted` or its nearest ancestor. */
export function sourceOf(dotted: string, provenance: Map<string, string>): string {
  for (let key = dotted; key; key = key.includes(".") ? key.slice(0, key.lastIndexOf(".")) : "") {
    const source = provenance.get(key);
    if (source) return source;
  }
  return "default";
}

export interface Layers {
  projectRoot: string;
  files: ConfigFile[];
  /** All layers merged, later wins, unvalidated. */
  merged: Record<string, unknown>;
  /** Dotted key (leaf or table) → the last layer that set it. */
  provenance: Map<string, string>;
  env: NodeJS.ProcessEnv;
}

export function collectLayers(options: LoadOptions = {}): Layers {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const projectRoot = findProjectRoot(cwd, options.project);
  const candidates = [
    options.systemConfig ?? "/etc/nixshed/config.toml",
    join(xdg(env, "XDG_CONFIG_HOME", ".config"), "nixshed", "config.toml"),
    join(projectRoot, ".nixshed.toml"),
  ];
  const files: ConfigFile[] = candidates.map((path) => ({ path, found: existsSync(path) }));
  if (options.configFile) {
    const path = resolve(cwd, options.configFile);
    if (!existsSync(path)) throw new ConfigError(`--config ${options.configFile}: no such file`);
    files.push({ path, found: true });
  }
  const layers = [
    ...files.filter((file) => file.found).map((file) => readTomlLayer(file.path)),
    ...envLayers(env),
    ...flagLayers(options.flags ?? []),
  ];
  const merged: Record<string, unknown> = {};
  const provenance = new Map<string, string>();
  for (const layer of layers) mergeInto(merged, layer, provenance);
  return { projectRoot, files, merged, provenance, env };
}
