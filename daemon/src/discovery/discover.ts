// Discovery reads the metadata store path and the sandbox directories once at startup.
//
// Order, later overriding earlier by name: the metadata's environments (the presets), then the
// sandbox directories /etc/nixshed/sandboxes, $XDG_CONFIG_HOME/nixshed/sandboxes and config
// `sandbox.dirs`, each entry a link to an artifact. Everything read must resolve inside the Nix
// store: the metadata path, every artifact, the pinned nixpkgs, the library and the index it names
// (see ../files/store.ts). An invalid entry is skipped; overrides and skips are logged and kept as
// notes for `doctor`.
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { z } from "zod";
import { unlessAbsent } from "../files/absence.js";
import { InvalidJson, readJsonFile } from "../files/json-file.js";
import type { Logger } from "../log.js";
import { storeDir } from "../files/store.js";
import type { LoadedConfig } from "../config/load.js";
import { InvalidArtifact, readArtifact, storePathOf } from "./artifact.js";
import { environmentsSchema, pinnedSchema, realisedSchema } from "./schemas.js";
import type { Discovery, Environment, NixpkgsInfo } from "./types.js";

export interface DiscoverOptions {
  env?: NodeJS.ProcessEnv;
  /** The system-wide sandbox directory (tests point it elsewhere). */
  systemDir?: string;
  /** The Nix store directory (default: NIX_STORE_DIR of `env`, else /nix/store). */
  storeDir?: string;
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

function readMetadata(
  given: string,
  store: string,
  found: Map<string, Environment>,
  nixpkgs: NixpkgsInfo,
  note: (line: string) => void,
): void {
  let path: string;
  let listed: z.infer<typeof environmentsSchema> | undefined;
  try {
    path = storePathOf(given, "metadata", store);
    listed = readJsonFile(join(path, "environments.json"), environmentsSchema);
  } catch (error) {
    const reason =
      error instanceof InvalidArtifact ? error.message : `metadata ${given}: cannot read environments.json (${(error as Error).message})`;
    note(`${reason}; is it built by lib.mkMetadata?`);
    return;
  }
  if (!listed) {
    note(`metadata ${given}: cannot read environments.json (there is none); is it built by lib.mkMetadata?`);
    return;
  }
  for (const [name, entry] of Object.entries(listed.environments)) {
    try {
      const { artifact, metadata } = readArtifact(entry.artifact, store);
      found.set(metadata.name, { ...metadata, artifact, origin: "metadata" });
    } catch (error) {
      if (!(error instanceof InvalidArtifact)) throw error;
      note(`metadata environment ${name} skipped: ${error.message}`);
    }
  }
  // What else the metadata carries, each only as a store path.
  const carried = (what: string, entryPath: string, keep: (real: string) => void) => {
    try {
      keep(storePathOf(entryPath, what, store));
    } catch (error) {
      if (!(error instanceof InvalidArtifact)) throw error;
      note(`metadata ${what} skipped: ${error.message}`);
    }
  };
  // An InvalidJson names its file already.
  const skipped = (file: string, error: unknown) =>
    note(`metadata ${error instanceof InvalidJson ? "file" : file} skipped: ${(error as Error).message}`);
  const pinnedFile = join(path, "nixpkgs.json");
  try {
    const source = readJsonFile(pinnedFile, pinnedSchema)?.source;
    if (source) carried("pinned nixpkgs", source, (real) => (nixpkgs.source = real));
  } catch (error) {
    skipped(pinnedFile, error);
  }
  if (existsSync(join(path, "nixpkgs-index"))) carried("nixpkgs index", join(path, "nixpkgs-index"), (real) => (nixpkgs.index = real));
  if (existsSync(join(path, "lib"))) carried("library", join(path, "lib"), (real) => (nixpkgs.lib = real));
  const realisedFile = join(path, "nixpkgs-realised.json");
  try {
    const realised = readJsonFile(realisedFile, realisedSchema);
    if (realised) nixpkgs.realised = [];
    for (const entry of realised?.packages ?? []) {
      carried(`realised ${entry.attr}`, entry.artifact, (artifact) =>
        carried(`realised ${entry.attr} programs`, entry.bin, (bin) => nixpkgs.realised!.push({ ...entry, artifact, bin })),
      );
    }
  } catch (error) {
    nixpkgs.realised = []; // There, but not usable: doctor shows none realised ahead, and the note says why.
    skipped(realisedFile, error);
  }
}

function readSandboxDir(
  dir: string,
  store: string,
  found: Map<string, Environment>,
  log: Logger,
  notes: string[],
  note: (line: string) => void,
): void {
  // An absent directory is the normal case; an unreadable one is logged, and the others still read.
  let entries: string[];
  try {
    entries = unlessAbsent(() => readdirSync(dir).sort(), []);
  } catch (error) {
    note(`sandbox directory ${dir} skipped: ${(error as Error).message}`);
    return;
  }
  for (const entry of entries) {
    try {
      const { artifact, metadata } = readArtifact(join(dir, entry), store);
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

/**
 * The environments the trusted layers declare. An untrusted project's own are not the user's to build,
 * and a repository could declare thousands to flood the log at every start.
 */
function declaredByTrusted(loaded: LoadedConfig): string[] {
  const untrusted = loaded.trust && !loaded.trust.trusted ? loaded.trust.file : undefined;
  const sources = [...loaded.provenance];
  return Object.keys(loaded.config.environments).filter((name) =>
    sources.some(([key, source]) => key.startsWith(`environments.${name}.`) && source !== untrusted),
  );
}

export async function discover(loaded: LoadedConfig, log: Logger, options: DiscoverOptions = {}): Promise<Discovery> {
  const environments = new Map<string, Environment>();
  const nixpkgs: NixpkgsInfo = {};
  const notes: string[] = [];
  const note = (line: string) => {
    log.warn(line);
    notes.push(line);
  };
  const store = options.storeDir ?? storeDir(options.env);
  const metadataPath = loaded.config.metadata || undefined;
  if (metadataPath) readMetadata(metadataPath, store, environments, nixpkgs, note);
  for (const dir of sandboxDirs(loaded, options)) readSandboxDir(dir, store, environments, log, notes, note);
  for (const name of declaredByTrusted(loaded).filter((name) => !environments.has(name))) {
    note(
      `[environments.${name}] is declared in the configuration but not built, so it is not served: build it with nixshed.lib.fromToml pkgs ./config.toml and link it into ~/.config/nixshed/sandboxes`,
    );
  }
  log.debug(`environments: ${[...environments.keys()].join(", ") || "none"}`);
  return { ...(metadataPath ? { metadataPath } : {}), environments, nixpkgs, notes };
}
