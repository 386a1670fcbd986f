// Tiny real store paths for tests: a directory made by hand, added to the Nix store as it is
// (`nix-store --add`), so the code under test meets the same store checks as in production.
import { execFileSync } from "node:child_process";

/** Adds `path` (a file or a directory) to the Nix store and returns its store path. */
export function addToStore(path: string): string {
  return execFileSync("nix-store", ["--add", path], { encoding: "utf8" }).trim();
}
