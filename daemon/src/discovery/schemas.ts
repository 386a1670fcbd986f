// The files the Nix side writes and discovery reads, as zod schemas: an artifact's metadata.json
// (nix/lib/mkEnvironment.nix) and the metadata's environments.json, nixpkgs.json and
// nixpkgs-realised.json (lib.mkMetadata). The types in ./types.ts are inferred from these.
import { z } from "zod";
import { networkSchema } from "../config/network.js";

const positive = z.number().int().positive();

/** An artifact's metadata.json (schema version 1), as nix/lib/mkEnvironment.nix writes it. */
export const metadataSchema = z.object({
  schemaVersion: z.literal(1),
  name: z.string().regex(/^[a-z][a-z0-9_-]*$/),
  description: z.string(),
  interpreter: z.enum(["bash", "python", "node"]),
  packages: z.array(z.object({ name: z.string(), version: z.string() })),
  limits: z.object({ timeoutSeconds: positive, memoryMb: positive, maxProcesses: positive, workspaceMb: positive }),
  network: networkSchema,
  projectAccess: z.enum(["none", "ro", "rw"]),
});

/** environments.json and nixpkgs.json as lib.mkMetadata writes them. */
export const environmentsSchema = z.object({ environments: z.record(z.string(), z.object({ artifact: z.string() })).default({}) });
export const pinnedSchema = z.object({ source: z.string().nullish() });
export const realisedSchema = z.object({
  packages: z.array(
    z.object({
      attr: z.string(),
      artifact: z.string(),
      bin: z.string(),
      mainProgram: z.string().nullable(),
      pname: z.string(),
      network: networkSchema,
      projectAccess: z.enum(["none", "ro", "rw"]),
      mounts: z
        .array(
          z.union([
            z.string(),
            z.object({
              source: z.string(),
              target: z.string().optional(),
              writable: z.boolean().optional(),
              optional: z.boolean().optional(),
            }),
          ]),
        )
        .default([]),
    }),
  ),
});
