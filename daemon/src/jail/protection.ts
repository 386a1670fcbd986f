// How a read-write jail keeps its hands off the protected paths (./protected-paths.ts, the config's
// protected_paths): each one is
// bound read-only over itself inside /project, and every directory on the way to it is bound over
// itself too, so that neither the entry nor a parent (`.git`) can be renamed away, removed or
// replaced (a mount point cannot be: EBUSY). Objects, refs and the index stay writable.
//
// A mount needs something to mount on, and bwrap would create a missing mount point in the host's
// project itself. So a missing entry gets a placeholder made here: an empty directory, or an empty
// file for entries that are files, bound read-only; the jail cannot create the real thing in its
// place, the host sees an empty entry while the jail lives. Placeholders are shared by the jails of
// this process and removed when the last one using them has ended, if they are still untouched.
//
// An entry (or a directory on the way) that is a symlink cannot be covered this way: bwrap would
// follow it on both sides. Such a project is given to the jail read-only, and the jail is told why.
import { lstatSync, mkdirSync, readFileSync, rmdirSync, unlinkSync, writeFileSync, type Stats } from "node:fs";
import { join } from "node:path";
import { GIT_REDIRECTS, protectsGit } from "../config/protected-paths.js";

/**
 * The root's own HEAD, kept with `.git`: git takes a directory holding a valid HEAD, objects/ and refs/ for a bare
 * repository when no valid `.git` comes first, and obeys its config. A jail that garbled `.git/HEAD` (or worked in a
 * project without `.git`) made the root one, and its core.fsmonitor ran at the host's next `git status`. An empty
 * HEAD is never valid. (The fs tools refuse such a write anywhere: bareRepositoryMade.)
 */
const ROOT_HEAD = "HEAD";

/** What a missing entry's placeholder holds, for those that are files (the rest are directories). */
const FILE_PLACEHOLDERS: Record<string, string> = {
  [ROOT_HEAD]: "",
  ".git/config": "",
  ".git/config.worktree": "",
  // "." is what an absent commondir means: git's common directory is the git directory itself.
  ".git/commondir": ".\n",
  ".envrc": "",
  ".mcp.json": "{}\n",
  "opencode.json": "{}\n",
  "opencode.jsonc": "{}\n",
  ".aider.conf.yml": "",
  ".crush.json": "{}\n",
  "crush.json": "{}\n",
  "kilo.json": "{}\n",
  "kilo.jsonc": "{}\n",
  ".nixshed.toml": "",
};

/** A bind inside /project: `ro` for a protected entry, `pin` (read-write over itself) for a directory on the way to one. */
export interface ProtectedMount {
  mode: "ro" | "pin";
  path: string;
}

export type ProjectGuard =
  | { readOnly: false; mounts: ProtectedMount[]; release(): void }
  /** The protections cannot hold (a symlink among them): the jail gets the project read-only. */
  | { readOnly: true; reason: string; release(): void };

/**
 * The entries a read-write jail protects for a protected_paths list (the list plus git's
 * redirects and the root's HEAD), parents first. Entries are project-relative: one reaching out (`..`) or that bin/run
 * could not read back (a line break) is no protected path of this project and is dropped, never
 * followed out of it.
 */
export function jailProtectedEntries(list: readonly string[]): string[] {
  const entries = list
    .map((entry) => entry.split("/").filter((part) => part !== "" && part !== "."))
    .filter((parts) => parts.length > 0 && !parts.includes("..") && !parts.some((part) => /[\n\r]/.test(part)))
    .map((parts) => parts.join("/"));
  if (protectsGit(entries)) entries.push(...GIT_REDIRECTS, ROOT_HEAD);
  return [...new Set(entries)].sort((a, b) => a.split("/").length - b.split("/").length || a.localeCompare(b));
}

interface Placeholder {
  users: number;
  ino: number;
  content?: string;
}

/** Placeholders this process made, by absolute path. */
const placeholders = new Map<string, Placeholder>();

function lstatOrMissing(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Makes the placeholder at `path`, or shares the one this process made; undefined when something else appeared there meanwhile. */
function usePlaceholder(path: string, content: string | undefined): string | undefined {
  const known = placeholders.get(path);
  if (known) {
    known.users++;
    return path;
  }
  try {
    if (content === undefined) mkdirSync(path, { mode: 0o755 });
    else writeFileSync(path, content, { flag: "wx", mode: 0o644 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return undefined;
    throw error;
  }
  placeholders.set(path, { users: 1, ino: lstatSync(path).ino, content });
  return path;
}

/** Removes a placeholder once its last jail is gone, unless the host has put something in it meanwhile. */
function releasePlaceholder(path: string): void {
  const placeholder = placeholders.get(path);
  if (!placeholder || --placeholder.users > 0) return;
  placeholders.delete(path);
  const now = lstatOrMissing(path);
  if (!now || now.ino !== placeholder.ino) return;
  try {
    if (placeholder.content === undefined) rmdirSync(path);
    else if (now.isFile() && readFileSync(path, "utf8") === placeholder.content) unlinkSync(path);
  } catch (error) {
    // ENOTEMPTY: the host user filled it; it is theirs now.
    if (!["ENOTEMPTY", "ENOENT"].includes((error as NodeJS.ErrnoException).code ?? "")) throw error;
  }
}

/**
 * The binds that keep `entries` (from jailProtectedEntries) read-only in a read-write jail of the
 * project at `root`, making placeholders for missing ones; call release() once the jail has ended.
 */
export function guardProject(root: string, entries: readonly string[]): ProjectGuard {
  const mounts = new Map<string, ProtectedMount["mode"]>();
  const made: string[] = [];
  const release = () => made.splice(0).forEach(releasePlaceholder);
  const covered = (path: string) =>
    [...mounts].some(([mounted, mode]) => mode === "ro" && (path === mounted || path.startsWith(`${mounted}/`)));
  try {
    for (const entry of entries) {
      const parts = entry.split("/");
      for (let depth = 1; depth <= parts.length; depth++) {
        const path = parts.slice(0, depth).join("/");
        if (covered(path)) break;
        const last = depth === parts.length;
        const stats = placeholders.has(join(root, path)) ? undefined : lstatOrMissing(join(root, path));
        if (!stats) {
          const placeholder = usePlaceholder(join(root, path), last ? FILE_PLACEHOLDERS[entry] : undefined);
          if (placeholder === undefined) {
            release();
            return guardProject(root, entries);
          }
          made.push(placeholder);
          mounts.set(path, "ro");
          break;
        }
        if (stats.isSymbolicLink() || !(stats.isDirectory() || stats.isFile())) {
          release();
          return {
            readOnly: true,
            reason: `${path} is ${stats.isSymbolicLink() ? "a symlink" : "not a file or directory"} where a protected path is`,
            release() {},
          };
        }
        // A file on the way (`.git` as a gitfile naming the git directory) is protected whole.
        if (last || stats.isFile()) {
          mounts.set(path, "ro");
          break;
        }
        if (!mounts.has(path)) mounts.set(path, "pin");
      }
    }
  } catch (error) {
    release();
    throw error;
  }
  return { readOnly: false, mounts: [...mounts].map(([path, mode]) => ({ mode, path })), release };
}
