// What discovery found at startup: the environments to serve and what the metadata says about
// nixpkgs. Capabilities read this; only ./discover.ts writes it.
import type { z } from "zod";
import type { metadataSchema, realisedSchema } from "./schemas.js";

/** The content of an artifact's metadata.json (schema version 1). */
export type EnvironmentMetadata = z.infer<typeof metadataSchema>;
export type Interpreter = EnvironmentMetadata["interpreter"];

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

/** A package realised ahead (the modules' `prerealise`), as lib.mkMetadata records it. */
export type RealisedAhead = z.infer<typeof realisedSchema>["packages"][number];

export interface Discovery {
  metadataPath?: string;
  environments: Map<string, Environment>;
  nixpkgs: NixpkgsInfo;
  /** One line per skipped or overridden entry, for `doctor`. */
  notes: string[];
}
