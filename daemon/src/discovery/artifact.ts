// Reads and checks one environment artifact: it must resolve inside the Nix store (the host runs
// its bin/run), its metadata.json must match the schema the Nix side writes
// (nix/lib/mkEnvironment.nix) and its bin/run must be executable. Anything else is a reason to skip
// it, said in one line.
import { accessSync, constants, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { networkSchema } from "../common/egress/setting.js";
import { NotInStore, requireStorePath, storeDir } from "../common/store.js";
import type { EnvironmentMetadata } from "./types.js";

const positive = z.number().int().positive();

const metadataSchema = z.object({
  schemaVersion: z.literal(1),
  name: z.string().regex(/^[a-z][a-z0-9_-]*$/),
  description: z.string(),
  interpreter: z.enum(["bash", "python", "node"]),
  packages: z.array(z.object({ name: z.string(), version: z.string() })),
  limits: z.object({ timeoutSeconds: positive, memoryMb: positive, maxProcesses: positive, workspaceMb: positive }),
  network: networkSchema,
  projectAccess: z.enum(["none", "ro", "rw"]),
});

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
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(artifact, "metadata.json"), "utf8"));
  } catch (error) {
    throw new InvalidArtifact(`${path}: no readable metadata.json (${(error as Error).message}); is it built by nixshed's lib.mkEnvironment?`);
  }
  const parsed = metadataSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InvalidArtifact(`${path}: metadata.json: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  try {
    accessSync(join(artifact, "bin", "run"), constants.X_OK);
  } catch {
    throw new InvalidArtifact(`${path}: bin/run is missing or not executable`);
  }
  // The artifact is immutable, but a link inside it may still lead out of the store.
  storePathOf(join(artifact, "bin", "run"), "bin/run", store);
  return { artifact, metadata: parsed.data };
}
