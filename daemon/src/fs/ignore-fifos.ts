// rg opens every .gitignore, .ignore and .rgignore on its walk, and .git/info/exclude, with a plain
// open(2), which waits on a FIFO until something opens its other end (ripgrep#2761): a repository
// that ships one stalls every listing and search of its tree until the call's time is up. rg has no
// flag to skip them. So when rg has been quiet a while, the tree is looked through once for ignore
// files that are FIFOs, and each is then opened for writing and closed, again and again while rg
// runs: a reader waiting on one wakes to end of file, an empty ignore file, and walks on. Nothing is
// written, and every open goes no-follow through held directories: only FIFOs in the root are touched.
import { closeSync, constants, lstatSync, openSync, readlinkSync, realpathSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { dirname, isAbsolute, join, relative } from "node:path";
import { FD_DIR, openDirectory } from "./confine.js";

/** The ignore files rg reads in every directory it walks and in those above it. */
const IGNORE_FILES = new Set([".gitignore", ".ignore", ".rgignore"]);
/** The one rg reads inside a repository's .git. */
const GIT_EXCLUDE = ".git/info/exclude";
/** How long rg may give nothing before the tree is looked through: a walk that long is a big one, or a stalled one. */
const QUIET_MS = 1000;
/** How often known FIFOs are opened and closed once found: rg reaches nested ones one after another. */
const RELEASE_MS = 20;
/** Most FIFOs released (each holds its directory open while rg runs); past it, rg may still stall until the call's time is up. */
const MAX_FIFOS = 256;
const RELEASE_FLAGS = constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

export interface Release {
  /** rg gave output: it is not stalled. */
  heard(): void;
  stop(): void;
}

/**
 * Watches rg's walk of `root.below` inside the root held at `root.rootFd` and releases its ignore
 * FIFOs should rg go quiet. rg sees the root at `seenAt` (where a jail mounts it), or where the host has it.
 */
export function releaseIgnoreFifos(root: { rootFd: number; below: string }, seenAt: string | undefined, signal: AbortSignal): Release {
  if (!FD_DIR) return { heard() {}, stop() {} };
  const held: { dirFd: number; name: string }[] = [];
  let stopped = false;
  let ticking: NodeJS.Timeout | undefined;
  const releaseAll = () => {
    for (const { dirFd, name } of held) {
      try {
        closeSync(openSync(`${FD_DIR}/${dirFd}/${name}`, RELEASE_FLAGS));
      } catch {
        // ENXIO: nobody is reading it now; ENOENT or ELOOP: it went, or became a symlink.
      }
    }
  };
  const lookThrough = async () => {
    const base = `${FD_DIR}/${root.rootFd}`;
    const fifos = await ignoreFifos(base, root.below, seenAt ?? realpathSync(base), () => !stopped && !signal.aborted);
    if (stopped) return;
    for (const path of fifos) {
      const dirFd = openBelow(root.rootFd, path);
      if (dirFd !== undefined) held.push({ dirFd, name: path.slice(path.lastIndexOf("/") + 1) });
    }
    if (held.length === 0) return;
    releaseAll();
    ticking = setInterval(releaseAll, RELEASE_MS);
  };
  // Once: a fired timer that is refreshed runs again.
  let quiet: NodeJS.Timeout | undefined = setTimeout(() => {
    quiet = undefined;
    // What cannot be looked through (EMFILE, EACCES) leaves rg as it was: stalled until the call's time is up.
    lookThrough().catch(() => {});
  }, QUIET_MS);
  return {
    heard() {
      quiet?.refresh();
    },
    stop() {
      stopped = true;
      clearTimeout(quiet);
      quiet = undefined;
      clearInterval(ticking);
      for (const { dirFd } of held.splice(0)) closeSync(dirFd);
    },
  };
}

/** Symlinks followed from an ignore file to what rg would open, as the kernel's limit. */
const MAX_HOPS = 40;

/**
 * Paths (below the root at `base`) of the FIFOs rg would wait on: ignore files that are FIFOs or
 * symlinks leading to one inside the root (which rg sees at `seenAt`), in the directories down to
 * `below` and everywhere under it, looked for while `going()`.
 */
async function ignoreFifos(base: string, below: string, seenAt: string, going: () => boolean): Promise<string[]> {
  const found = new Set<string>();
  const reach = (path: string) => {
    const fifo = fifoReached(base, path, seenAt);
    if (fifo !== undefined) found.add(fifo);
  };
  const parts = below.split("/").filter(Boolean);
  for (let depth = 0; depth < parts.length; depth++) {
    const dir = parts.slice(0, depth).join("/");
    for (const name of [...IGNORE_FILES, GIT_EXCLUDE]) reach(join(dir, name));
  }
  // Read through path strings: a directory swapped for a symlink meanwhile can only add names, which the no-follow opens of openBelow then refuse.
  const queue = [parts.join("/")];
  while (queue.length > 0 && found.size < MAX_FIFOS && going()) {
    const dir = queue.shift()!;
    const entries = await readdir(join(base, dir), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.name === ".git") reach(join(dir, GIT_EXCLUDE));
      else if (entry.isDirectory()) queue.push(path);
      else if ((entry.isFIFO() || entry.isSymbolicLink()) && IGNORE_FILES.has(entry.name)) reach(path);
    }
  }
  return [...found].slice(0, MAX_FIFOS);
}

/** The FIFO (below the root at `base`) that opening `path` reaches, itself or through symlinks that stay inside the root as rg sees it at `seenAt`; else undefined. */
function fifoReached(base: string, path: string, seenAt: string): string | undefined {
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    try {
      const stats = lstatSync(join(base, path));
      if (stats.isFIFO()) return path;
      if (!stats.isSymbolicLink()) return undefined;
      const target = readlinkSync(join(base, path));
      const next = isAbsolute(target) ? relative(seenAt, target) : join(dirname(path), target);
      if (next === ".." || next.startsWith("../") || isAbsolute(next)) return undefined;
      path = next;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The directory holding `path` (below the root held at `rootFd`), opened no-follow one component at a time; undefined if any is not a directory. */
function openBelow(rootFd: number, path: string): number | undefined {
  let fd = openDirectory(`${FD_DIR}/${rootFd}/.`);
  for (const name of path.split("/").slice(0, -1)) {
    if (typeof fd !== "number") return undefined;
    const next = openDirectory(`${FD_DIR}/${fd}/${name}`);
    closeSync(fd);
    fd = next;
  }
  return typeof fd === "number" ? fd : undefined;
}
