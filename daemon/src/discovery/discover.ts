// Discovery reads the metadata store path and the sandbox directories once at startup.
//
// Order, later overriding earlier by name: the metadata's environments (the presets), then the
// sandbox directories /etc/nixshed/sandboxes, $XDG_CONFIG_HOME/nixshed/sandboxes and config
// `sandbox.dirs`, each entry a link to an artifact. An invalid entry is skipped; overrides and
// skips are logged and kept as notes for `doctor`.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { Logger } from "../common/log.js";
import type { LoadedConfig } from "../config/load.js";
import { InvalidArtifact, readArtifact } from "./artifact.js";
import type { Discovery, Environment, NixpkgsInfo } from "./types.js";

export interface DiscoverOptions {
  env?: NodeJS.ProcessEnv;
  /** The system-wide sandbox directory (tests point it elsewhere). */
  systemDir?: string;
}

/** The sandbox directories in the order they are read (later ones override earlier ones). */
function sandboxDirs(loaded: LoadedConfig, options: DiscoverOptions = {}): string[] {
  const env = options.env ?? process.env;
  const configHome = env.XDG_CONFIG_HOME?.startsWith("/") ? env.XDG_CONFIG_HOME : join(homedir(), ".config");
  return [
    options.systemDir ?? "/etc/nixshed/sandboxes",
    join(configHome, "nixshed", "sandboxes"),
    ...loaded.config.sandbox.dirs.map((dir) => resolve(loaded.projectRoot, dir)),
  ];
}

function readMetadata(path: string, found: Map<string, Environment>, nixpkgs: NixpkgsInfo, note: (line: string) => void): void {
  let listed: { environments?: Record<string, { artifact?: string }> };
  try {
    listed = JSON.parse(readFileSync(join(path, "environments.json"), "utf8"));
  } catch (error) {
    note(`metadata ${path}: cannot read environments.json (${(error as Error).message}); is it built by lib.mkMetadata?`);
    return;
  }
  for (const [name, entry] of Object.entries(listed.environments ?? {})) {
    try {
      const { artifact, metadata } = readArtifact(entry.artifact ?? "");
      found.set(metadata.name, { ...metadata, artifact, origin: "metadata" });
    } catch (error) {
      if (!(error instanceof InvalidArtifact)) throw error;
      note(`metadata environment ${name} skipped: ${error.message}`);
    }
  }
  try {
    const pinned = JSON.parse(readFileSync(join(path, "nixpkgs.json"), "utf8")) as { source?: string | null };
    if (pinned.source) nixpkgs.source = pinned.source;
  } catch {
    // Optional: the metadata carries no pinned nixpkgs.
  }
  if (existsSync(join(path, "nixpkgs-index"))) nixpkgs.index = join(path, "nixpkgs-index");
  if (existsSync(join(path, "lib"))) nixpkgs.lib = join(path, "lib");
}

function readSandboxDir(dir: string, found: Map<string, Environment>, log: Logger, notes: string[], note: (line: string) => void): void {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return; // An absent directory is the normal case.
  }
  for (const entry of entries) {
    try {
      const { artifact, metadata } = readArtifact(join(dir, entry));
      const previous = found.get(metadata.name);
      if (previous) {
        const line = `sandbox ${metadata.name} from ${dir} overrides the one from ${previous.origin}`;
        log.info(line);
        notes.push(line);
      }
      found.set(metadata.name, { ...metadata, artifact, origin: dir });
    } catch (error) {
      if (!(error instanceof InvalidArtifact)) throw error;
      note(`sandbox skipped: ${error.message}`);
    }
  }
}

export async function discover(loaded: LoadedConfig, log: Logger, options: DiscoverOptions = {}): Promise<Discovery> {
  const environments = new Map<string, Environment>();
  const nixpkgs: NixpkgsInfo = {};
  const notes: string[] = [];
  const note = (line: string) => {
    log.warn(line);
    notes.push(line);
  };
  const metadataPath = loaded.config.metadata || undefined;
  if (metadataPath) readMetadata(metadataPath, environments, nixpkgs, note);
  for (const dir of sandboxDirs(loaded, options)) readSandboxDir(dir, environments, log, notes, note);
  log.debug(`environments: ${[...environments.keys()].join(", ") || "none"}`);
  return { ...(metadataPath ? { metadataPath } : {}), environments, nixpkgs, notes };
}
