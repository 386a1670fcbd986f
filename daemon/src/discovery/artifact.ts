// Reads and checks one environment artifact: its metadata.json must match the schema the Nix side
// writes (nix/lib/mkEnvironment.nix) and its bin/run must be executable. Anything else is a reason
// to skip it, said in one line.
import { accessSync, constants, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { EnvironmentMetadata } from "./types.js";

const positive = z.number().int().positive();

const metadataSchema = z.object({
  schemaVersion: z.literal(1),
  name: z.string().regex(/^[a-z][a-z0-9_-]*$/),
  description: z.string(),
  interpreter: z.enum(["bash", "python", "node"]),
  packages: z.array(z.object({ name: z.string(), version: z.string() })),
  limits: z.object({ timeoutSeconds: positive, memoryMb: positive, maxProcesses: positive, workspaceMb: positive }),
  network: z.boolean(),
  projectAccess: z.enum(["none", "ro", "rw"]),
});

export class InvalidArtifact extends Error {}

/** The artifact's resolved store path and its metadata; throws InvalidArtifact saying why not. */
export function readArtifact(path: string): { artifact: string; metadata: EnvironmentMetadata } {
  let artifact: string;
  try {
    artifact = realpathSync(path);
  } catch {
    throw new InvalidArtifact(`${path}: does not exist (a dangling link? rebuild it or remove it)`);
  }
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
  return { artifact, metadata: parsed.data };
}
