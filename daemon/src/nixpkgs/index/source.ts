// Builds an index from what the user has: a metadata file or a nixpkgs tree (evaluated first).
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CatalogError, readCatalogFile } from "./catalog.js";
import { NixpkgsError } from "../errors.js";
import { evaluateNixpkgs } from "./evaluate.js";
import { buildIndex, writeIndex } from "./build.js";

export type IndexInput = { file: string } | { nixpkgs: string };

/** `signal` stops an evaluation under way (nix-env with it); the evaluation's scratch file goes either way. */
export async function buildIndexFrom(
  input: IndexInput,
  out: string,
  progress: (message: string) => void = () => {},
  signal?: AbortSignal,
): Promise<{ packages: number; bytes: number }> {
  let file = "file" in input ? input.file : "";
  let scratch: string | undefined;
  try {
    if ("nixpkgs" in input) {
      if (!statSync(input.nixpkgs, { throwIfNoEntry: false })) throw new NixpkgsError(`${input.nixpkgs}: no such nixpkgs`);
      scratch = mkdtempSync(join(tmpdir(), "nixshed-index-"));
      file = join(scratch, "packages.json");
      progress(`evaluating ${input.nixpkgs} with nix-env`);
      await evaluateNixpkgs(input.nixpkgs, file, { progress, signal });
    }
    progress(`reading ${file}`);
    const entries = readCatalogFile(file);
    // A channel's packages.json carries no licences: unfree packages cannot be told apart, and include_unfree does nothing.
    if (!entries.some((entry) => entry.license !== "" || entry.unfree))
      progress(`warning: ${file} has no licence data (a channel's packages.json has none): unfree packages will be shown as free`);
    progress(`indexing ${entries.length} packages`);
    const bytes = buildIndex(entries, "nixpkgs" in input ? input.nixpkgs : input.file);
    writeIndex(out, bytes);
    return { packages: entries.length, bytes: bytes.length };
  } catch (error) {
    if (error instanceof CatalogError)
      throw new NixpkgsError(error.message, "Expected packages.json[.br] or `nix-env -qaP --json --meta` output.");
    throw error;
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}
