// Reads and checks one environment artifact: it must resolve inside the Nix store (the host runs
// its bin/run), its metadata.json must match the schema the Nix side writes
// (nix/lib/mkEnvironment.nix) and its bin/run must be executable. Anything else is a reason to skip
// it, said in one line.
import { accessSync, constants } from "node:fs";
import { join } from "node:path";
import { isAbsent } from "../files/absence.js";
import { InvalidJson, readJsonFile } from "../files/json-file.js";
import { NotInStore, requireStorePath, storeDir } from "../files/store.js";
import { metadataSchema } from "./schemas.js";
import type { EnvironmentMetadata } from "./types.js";

export class InvalidArtifact extends Error {}

/** The path's realpath inside the store, or InvalidArtifact saying why not. */
export function storePathOf(path: string, what: string, store: string): string {
  try {
    return requireStorePath(path, what, store);
  } catch (error) {
    if (error instanceof NotInStore) throw new InvalidArtifact(error.message);
    throw error;
  }
}

/** The artifact's resolved store path and its metadata; throws InvalidArtifact saying why not. */
export function readArtifact(path: string, store: string = storeDir()): { artifact: string; metadata: EnvironmentMetadata } {
  const artifact = storePathOf(path, "artifact", store);
  const file = join(artifact, "metadata.json");
  let metadata: EnvironmentMetadata | undefined;
  try {
    metadata = readJsonFile(file, metadataSchema);
  } catch (error) {
    // Unreadable or not the schema: this artifact is skipped, and the reason logged (see discover.ts).
    const why = error instanceof InvalidJson ? error.message : `${file}: unreadable (${(error as Error).message})`;
    throw new InvalidArtifact(`${path}: ${why}; is it built by nixshed's lib.mkEnvironment?`);
  }
  if (!metadata)
    throw new InvalidArtifact(`${path}: no readable metadata.json (none in ${artifact}); is it built by nixshed's lib.mkEnvironment?`);
  try {
    accessSync(join(artifact, "bin", "run"), constants.X_OK);
  } catch (error) {
    if (isAbsent(error) || (error as NodeJS.ErrnoException).code === "EACCES")
      throw new InvalidArtifact(`${path}: bin/run is missing or not executable`);
    throw error;
  }
  // The artifact is immutable, but a link inside it may still lead out of the store.
  storePathOf(join(artifact, "bin", "run"), "bin/run", store);
  return { artifact, metadata };
}
