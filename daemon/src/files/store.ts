// The Nix store is where everything the host executes comes from: environment artifacts, the
// metadata, the program a jail starts. A path is accepted only if its realpath lies strictly inside
// the store directory, so a symlink planted in a project, a cache or a state file cannot lead the
// daemon to a file someone could still write. The store directory itself comes from the trusted
// environment (NIX_STORE_DIR, as Nix reads it), never from configuration a project could set.
import { realpathSync } from "node:fs";
import { isAbsent, unlessAbsent } from "./absence.js";
import { ExpectedError } from "../expected-error.js";
import { isInside } from "./path-inside.js";

export const DEFAULT_STORE_DIR = "/nix/store";

/** A path that does not resolve inside the Nix store, named in the message. */
export class NotInStore extends ExpectedError {}

/** The store directory, resolved (a store reached through a symlinked /nix stays itself). */
export function storeDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.NIX_STORE_DIR?.startsWith("/") ? env.NIX_STORE_DIR : DEFAULT_STORE_DIR;
  // No store on this machine: nothing will resolve inside it.
  return unlessAbsent(() => realpathSync.native(dir), dir);
}

/** The realpath of `path` when it lies strictly inside the store, else undefined (missing paths included). */
export function inStore(path: string, store: string = storeDir()): string | undefined {
  let real: string;
  try {
    real = realpathSync.native(path);
  } catch {
    // A path that does not resolve (absent, a link loop, no permission) is not a store path, which is
    // the answer asked for: callers refuse it or realise it again, and requireStorePath says why.
    return undefined;
  }
  return real !== store && isInside(real, store) ? real : undefined;
}

/** The realpath of `path`, or a NotInStore error naming `what`, the path and where it leads instead. */
export function requireStorePath(path: string, what: string, store: string = storeDir()): string {
  const real = inStore(path, store);
  if (real !== undefined) return real;
  let target: string;
  try {
    target = realpathSync.native(path);
  } catch (error) {
    if (isAbsent(error)) throw new NotInStore(`${what} ${path} does not exist (a dangling link? rebuild it or remove it)`);
    throw new NotInStore(`${what} ${path} cannot be resolved (${(error as Error).message}); refused`, STORE_HINT);
  }
  const leads = target === path ? "" : ` (it resolves to ${target})`;
  throw new NotInStore(`${what} ${path} is not in the Nix store ${store}${leads}; refused`, STORE_HINT);
}

const STORE_HINT = "Only what Nix built (a store path) is used; build it with Nix and point to the result.";
