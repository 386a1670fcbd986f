// What discovery found at startup: the environments to serve and what the metadata says about
// nixpkgs. Capabilities read this; only ./discover.ts writes it.
import type { NetworkSetting } from "../common/egress/setting.js";
import type { Mount, ProjectAccess } from "../config/schema.js";

export type Interpreter = "bash" | "python" | "node";

/** The content of an artifact's metadata.json (schema version 1). */
export interface EnvironmentMetadata {
  schemaVersion: 1;
  name: string;
  description: string;
  interpreter: Interpreter;
  packages: { name: string; version: string }[];
  limits: { timeoutSeconds: number; memoryMb: number; maxProcesses: number; workspaceMb: number };
  /** false, true, or the destinations the jail may reach through the egress proxy. */
  network: NetworkSetting;
  projectAccess: ProjectAccess;
}

export interface Environment extends EnvironmentMetadata {
  /** Store path of the artifact (holds bin/run, bin/session-run, metadata.json). */
  artifact: string;
  /** Where it was found: `metadata` or the sandbox directory it came from. */
  origin: string;
}

export interface NixpkgsInfo {
  /** Prebuilt search index, when the metadata carries one. */
  index?: string;
  /** The pinned nixpkgs source tree (a store path), when the metadata carries one. */
  source?: string;
  /** nixshed's own Nix library (a store path), for wrapping packages with mkEnvironment. */
  lib?: string;
  /** Packages of the pinned nixpkgs realised ahead (the modules' `prerealise`), as lib.mkMetadata records them. */
  realised?: RealisedAhead[];
}

export interface RealisedAhead {
  attr: string;
  /** The environment artifact (a store path) and the package's bin directory. */
  artifact: string;
  bin: string;
  mainProgram: string | null;
  pname: string;
  network: NetworkSetting;
  projectAccess: ProjectAccess;
  /** The environment's host mounts (lib.mkEnvironment's `mounts`). */
  mounts: Mount[];
}

export interface Discovery {
  metadataPath?: string;
  environments: Map<string, Environment>;
  nixpkgs: NixpkgsInfo;
  /** One line per skipped or overridden entry, for `doctor`. */
  notes: string[];
}
