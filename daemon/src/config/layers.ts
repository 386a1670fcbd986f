// The configuration layers, read but not yet validated: built-in defaults < /etc < XDG user file <
// the project's .nixshed.toml < --config FILE < NIXSHED_* variables < flags. Every value remembers
// the layer it came from; relative paths are made absolute per layer (./paths.ts). The project file
// is untrusted unless `nixshed trust` recorded its content in the trust store (./trust-store.ts);
// ./load.ts then keeps only its narrowing values (./trust.ts). Free of zod on purpose: `serve`
// reads the layers before the schema library has loaded (see ../mcp/initialize-cache.ts).
import { existsSync, realpathSync, statSync } from "node:fs";
import { readSmallText, type SmallFileOptions, UnreadableFile } from "../files/small-file.js";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parse as parseToml, type TomlError } from "smol-toml";
import { isWithin, resolveLayerPaths } from "./paths.js";
import { isTrusted, sha256, trustStoreDir } from "./trust-store.js";

export class ConfigError extends Error {}

export interface Layer {
  /** Where the values came from: a file path, `env NAME`, `flag --name`. */
  source: string;
  values: Record<string, unknown>;
  /** Set on the layer read from the project's .nixshed.toml. */
  project?: true;
  /** A file layer's text, to find the line of a key for errors. */
  text?: string;
  /** Why the project's file could not be read as TOML (its values are then empty): fatal only once it is trusted. */
  unreadable?: string;
}

/** The project's .nixshed.toml and whether the user trusted this exact content. */
export interface ProjectFile {
  path: string;
  sha256: string;
  trusted: boolean;
  /** The trust store consulted (and the one `nixshed trust` writes). */
  trustStore: string;
  /** Why no trust record can count, when none can (the store lies inside the project). */
  problem?: string;
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
  return value?.startsWith("/") ? value : join(homedir(), fallback);
}

/** nixshed's state or cache directory: the configured one (already absolute, see ./paths.ts) or the XDG one. */
export function nixshedDir(kind: "state" | "cache", configured: unknown, env: NodeJS.ProcessEnv): string {
  if (typeof configured === "string" && configured !== "") return configured;
  const fallback = kind === "state" ? xdg(env, "XDG_STATE_HOME", ".local/state") : xdg(env, "XDG_CACHE_HOME", ".cache");
  return join(fallback, "nixshed");
}

function readTomlLayer(path: string): Layer & { text: string } {
  return parseLayer(path, readLayerText(path));
}

/** A config file's text; a FIFO, a device or a sparse file of gigabytes (a project can plant each, or a link to one) is refused, not read. */
function readLayerText(path: string, options: SmallFileOptions = {}): string {
  let text: string | undefined;
  try {
    text = readSmallText(path, options);
  } catch (error) {
    throw new ConfigError(`${path}: cannot read: ${error instanceof UnreadableFile ? error.reason : (error as Error).message}`);
  }
  if (text === undefined) throw new ConfigError(`${path}: cannot read: no such file`);
  return text;
}

function parseLayer(path: string, text: string): Layer & { text: string } {
  try {
    return { source: path, values: resolveLayerPaths(parseToml(text) as Record<string, unknown>, dirname(path)), text };
  } catch (error) {
    // smol-toml says where: "Invalid TOML document: <what>\n\n<the lines around it>".
    const { line, column, message } = error as TomlError;
    const where = line ? `${path}:${line}:${column}` : path;
    throw new ConfigError(`${where}: invalid TOML: ${message.replace(/^Invalid TOML document: /, "")}`.trimEnd());
  }
}

/**
 * The project's file: one that cannot be read or is no TOML is a layer of no values that says why (load.ts decides what
 * that means). One that is a link out of the project is not read: an error would quote a host file's lines (a link to
 * ~/.aws/credentials printed its keys in the warning).
 */
function readProjectLayer(path: string, projectRoot: string): Layer & { text: string } {
  const project = realpathSync(projectRoot);
  let text = "";
  try {
    text = readLayerText(path, { within: (real) => isWithin(real, project) });
    return parseLayer(path, text);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // Unreadable, it has no text, so no trust record can match it.
    return { source: path, values: {}, text, unreadable: error.message };
  }
}

/** A value from the environment or a flag, read as a TOML value when it is one ("true", "5", '["a"]'). */
export function parseScalar(raw: string): unknown {
  try {
    return (parseToml(`v = ${raw}`) as { v: unknown }).v;
  } catch {
    return raw; // Not a TOML value (a bare word, a path): it is the string itself, and the schema checks it.
  }
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    if (!isTable(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]!] = value;
}

function envLayers(env: NodeJS.ProcessEnv, cwd: string): Layer[] {
  return Object.entries(env)
    .filter(([name, value]) => name.startsWith(ENV_PREFIX) && !NON_CONFIG_ENV.test(name) && value !== undefined)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => {
      const path = name.slice(ENV_PREFIX.length).toLowerCase().split("__");
      const values = {};
      setPath(values, path, parseScalar(value!));
      return { source: `env ${name}`, values: resolveLayerPaths(values, cwd) };
    });
}

function flagLayers(flags: FlagValue[], cwd: string): Layer[] {
  return flags.map(({ key, value, flag }) => {
    const values = {};
    setPath(values, key.split("."), value);
    return { source: `flag ${flag}`, values: resolveLayerPaths(values, cwd) };
  });
}

export const isTable = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);

function mergeInto(
  target: Record<string, unknown>,
  layer: Layer,
  provenance: Map<string, string>,
  prefix = "",
  values = layer.values,
): void {
  for (const [key, value] of Object.entries(values)) {
    const dotted = prefix ? `${prefix}.${key}` : key;
    if (isTable(value)) {
      if (!isTable(target[key])) target[key] = {};
      provenance.set(dotted, layer.source);
      mergeInto(target[key] as Record<string, unknown>, layer, provenance, dotted, value);
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

/** Layers merged in order, later wins, unvalidated, with the layer that set each dotted key (leaf or table). */
export function mergeLayers(layers: Layer[]): { merged: Record<string, unknown>; provenance: Map<string, string> } {
  const merged: Record<string, unknown> = {};
  const provenance = new Map<string, string>();
  for (const layer of layers) mergeInto(merged, layer, provenance);
  return { merged, provenance };
}

export interface Layers {
  projectRoot: string;
  files: ConfigFile[];
  /** In order of precedence, lowest first; the project's is marked. */
  layers: Layer[];
  project?: ProjectFile;
  /** Where trust records live: in the state directory the trusted layers choose. */
  trustStore: string;
  env: NodeJS.ProcessEnv;
}

/** The layers that count before trust is decided: all but an untrusted project file. */
export const trustedLayers = ({ layers, project }: Layers): Layer[] => layers.filter((layer) => !layer.project || project?.trusted);

/**
 * The project file's trust: the store is in the state directory the trusted layers choose (the
 * project cannot name it), and a store inside the project tree counts for nothing, since anything
 * in the tree may have been written by the project or its jails.
 */
function projectTrust(path: string, text: string, projectRoot: string, trustStore: string): ProjectFile {
  const digest = sha256(text);
  let real = trustStore;
  for (let dir = trustStore; ; dir = dirname(dir)) {
    if (existsSync(dir)) {
      real = join(realpathSync(dir), trustStore.slice(dir.length));
      break;
    }
    if (dirname(dir) === dir) break;
  }
  if (isWithin(real, projectRoot)) {
    return {
      path,
      sha256: digest,
      trusted: false,
      trustStore,
      problem: `the trust store ${trustStore} lies inside the project, which may have written it`,
    };
  }
  return { path, sha256: digest, trusted: isTrusted(trustStore, path, digest), trustStore };
}

export function collectLayers(options: LoadOptions = {}): Layers {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const projectRoot = findProjectRoot(cwd, options.project);
  const projectPath = join(projectRoot, ".nixshed.toml");
  const candidates = [
    options.systemConfig ?? "/etc/nixshed/config.toml",
    join(xdg(env, "XDG_CONFIG_HOME", ".config"), "nixshed", "config.toml"),
    projectPath,
  ];
  const files: ConfigFile[] = candidates.map((path) => ({ path, found: existsSync(path) }));
  if (options.configFile) {
    const path = resolve(cwd, options.configFile);
    if (!existsSync(path)) throw new ConfigError(`--config ${options.configFile}: no such file`);
    files.push({ path, found: true });
  }
  const read = files
    .filter((file) => file.found)
    .map((file) => (file.path === projectPath ? readProjectLayer(file.path, projectRoot) : readTomlLayer(file.path)));
  const projectLayer = read.find((layer) => layer.source === projectPath);
  if (projectLayer) projectLayer.project = true;
  const layers: Layer[] = [...read, ...envLayers(env, cwd), ...flagLayers(options.flags ?? [], cwd)];
  const trustStore = trustStoreDir(nixshedDir("state", mergeLayers(layers.filter((layer) => !layer.project)).merged.state_dir, env));
  const project = projectLayer && projectTrust(projectPath, projectLayer.text, projectRoot, trustStore);
  return { projectRoot, files, layers, ...(project ? { project } : {}), trustStore, env };
}
