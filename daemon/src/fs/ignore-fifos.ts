// rg opens every .gitignore, .ignore and .rgignore on its walk, and .git/info/exclude, with a plain
// open(2), which waits on a FIFO until something opens its other end (ripgrep#2761): a repository
// that ships one stalls every listing and search of its tree until the call's time is up. rg has no
// flag to skip them. So when rg has been quiet a while, the tree is looked through once for ignore
// files that are FIFOs (or symlinks to one in the root), and each found is opened for writing and
// closed, again and again while rg runs: a reader waiting on one wakes to end of file, an empty
// ignore file, and walks on. Nothing is written. Every directory is opened no-follow through the one
// before it, and each FIFO is held by an O_PATH descriptor checked to be a FIFO: what is opened for
// writing is that FIFO, whatever takes its name later, and never anything outside the root.
import { closeSync, constants, fstatSync, openSync, readlinkSync, lstatSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { isAbsolute, join, relative } from "node:path";
import { FD_DIR } from "../files/descriptor-path.js";
import { openDirectory } from "./confine.js";

/** The ignore files rg reads in every directory it walks and in those above it. */
const IGNORE_FILES = new Set([".gitignore", ".ignore", ".rgignore"]);
/** The one rg reads inside a repository's .git. */
const GIT_EXCLUDE = ".git/info/exclude";
/** How long rg may give nothing before the tree is looked through: a walk that long is a big one, or a stalled one. */
const QUIET_MS = 1000;
/** How often the FIFOs found are opened and closed: rg reaches nested ones one after another. */
const RELEASE_MS = 20;
/** Most FIFOs held (a descriptor each, while rg runs); past them, rg may still stall until the call's time is up. */
const MAX_FIFOS = 256;
/** Most directories looked through, and deepest (each level holds a descriptor while under it): a tree past either is looked through in part. */
const MAX_DIRECTORIES = 100_000;
const MAX_DEPTH = 64;
/** Symlinks followed from an ignore file to what rg would open, as the kernel's limit. */
const MAX_HOPS = 40;
/** Linux's O_PATH (the same on x86_64 and aarch64), which Node's constants lack: a handle on the inode that opens nothing. */
const O_PATH = 0o10000000;
const RELEASE_FLAGS = constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

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
  const held = new Map<string, number>();
  let stopped = false;
  let ticking: NodeJS.Timeout | undefined;
  const releaseAll = () => {
    for (const fifo of held.values()) {
      try {
        closeSync(openSync(`${FD_DIR}/${fifo}`, RELEASE_FLAGS));
      } catch {
        // ENXIO: nobody is reading it now.
      }
    }
  };
  const hold = (path: string) => {
    if (stopped || held.has(path) || held.size >= MAX_FIFOS) return;
    const fifo = openFifo(root.rootFd, path);
    if (fifo === undefined) return;
    held.set(path, fifo);
    releaseAll();
    ticking ??= setInterval(releaseAll, RELEASE_MS);
  };
  const look = new Look(`${FD_DIR}/${root.rootFd}`, seenAt, hold, () => !stopped && !signal.aborted && held.size < MAX_FIFOS);
  // Once: a fired timer that is refreshed runs again.
  let quiet: NodeJS.Timeout | undefined = setTimeout(() => {
    quiet = undefined;
    // What cannot be looked through (EMFILE, EACCES) leaves rg as it was: stalled until the call's time is up.
    look.through(root.rootFd, root.below).catch(() => {});
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
      for (const fifo of held.values()) closeSync(fifo);
      held.clear();
    },
  };
}

/** One look through a tree for the FIFOs rg would wait on, each handed to `found` (a path below the root) as soon as it is seen. */
class Look {
  private directories = 0;
  private hostRootPath: string | undefined;

  constructor(
    /** The root, as the daemon reaches it. */
    private readonly base: string,
    /** The root as rg sees it, or undefined for where the host has it. */
    private readonly seenAt: string | undefined,
    private readonly found: (path: string) => void,
    private readonly going: () => boolean,
  ) {}

  /** The directories from the root down to `below` (their ignore files only), then the whole tree under it. */
  async through(rootFd: number, below: string): Promise<void> {
    const parts = below.split("/").filter(Boolean);
    for (let depth = 0; depth < parts.length; depth++) {
      for (const name of [...IGNORE_FILES, GIT_EXCLUDE]) this.reach(join(...parts.slice(0, depth), name));
    }
    const start = openBelow(rootFd, [...parts, "."].join("/"));
    if (start === undefined) return;
    try {
      await this.walk(start, parts.join("/"), 0);
    } finally {
      closeSync(start);
    }
  }

  /** `dir` (held at `dirFd`) and every directory under it, each opened no-follow through its parent. */
  private async walk(dirFd: number, dir: string, depth: number): Promise<void> {
    if (++this.directories > MAX_DIRECTORIES || depth > MAX_DEPTH || !this.going()) return;
    const entries = await readdir(`${FD_DIR}/${dirFd}`, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!this.going()) return;
      const path = join(dir, entry.name);
      if (entry.name === ".git") this.reach(join(dir, GIT_EXCLUDE));
      else if ((entry.isFIFO() || entry.isSymbolicLink()) && IGNORE_FILES.has(entry.name)) this.reach(path);
      else if (entry.isDirectory()) {
        const child = openDirectory(`${FD_DIR}/${dirFd}/${entry.name}`);
        if (typeof child !== "number") continue;
        try {
          await this.walk(child, path, depth + 1);
        } finally {
          closeSync(child);
        }
      }
    }
  }

  /** Hands on the FIFO that opening `path` reaches, if any. */
  private reach(path: string): void {
    const fifo = this.resolve(path);
    if (fifo !== undefined) this.found(fifo);
  }

  /**
   * `path` with every symlink on the way resolved inside the root, as rg would open it, when it ends
   * at a FIFO; undefined when it ends elsewhere or leaves the root.
   */
  private resolve(path: string): string | undefined {
    const seenAt = this.seenAt ?? this.hostRoot();
    const done: string[] = [];
    const left = path.split("/").filter(Boolean);
    for (let hops = 0; left.length > 0; ) {
      const name = left.shift()!;
      if (name === ".") continue;
      if (name === "..") {
        if (done.pop() === undefined) return undefined;
        continue;
      }
      const at = join(this.base, ...done, name);
      try {
        const stats = lstatSync(at);
        if (stats.isSymbolicLink()) {
          if (++hops > MAX_HOPS) return undefined;
          const target = readlinkSync(at);
          if (isAbsolute(target)) {
            const inside = relative(seenAt, target);
            if (inside === ".." || inside.startsWith("../") || isAbsolute(inside)) return undefined;
            done.length = 0;
            left.unshift(...inside.split("/"));
          } else left.unshift(...target.split("/"));
          continue;
        }
        if (left.length === 0) return stats.isFIFO() ? join(...done, name) : undefined;
        if (!stats.isDirectory()) return undefined;
        done.push(name);
      } catch {
        return undefined;
      }
    }
    return undefined;
  }

  /** Where the host has the root, for absolute symlinks in a walk rg makes unjailed. */
  private hostRoot(): string {
    this.hostRootPath ??= readlinkSync(this.base);
    return this.hostRootPath;
  }
}

/** The FIFO at `path` (below the root held at `rootFd`, no symlinks on the way), held by an O_PATH descriptor; undefined if it is none. */
function openFifo(rootFd: number, path: string): number | undefined {
  const slash = path.lastIndexOf("/");
  const dirFd = openBelow(rootFd, slash < 0 ? "." : path.slice(0, slash));
  if (dirFd === undefined) return undefined;
  try {
    const fifo = openSync(`${FD_DIR}/${dirFd}/${path.slice(slash + 1)}`, O_PATH | constants.O_NOFOLLOW);
    if (fstatSync(fifo).isFIFO()) return fifo;
    closeSync(fifo);
  } catch {
    // Gone, or turned into something else: not rg's to wait on.
  } finally {
    closeSync(dirFd);
  }
  return undefined;
}

/** The directory at `path` (below the root held at `rootFd`), opened no-follow one component at a time; undefined if any is not a directory or cannot be opened. */
function openBelow(rootFd: number, path: string): number | undefined {
  let fd: number | undefined;
  try {
    let next = openDirectory(`${FD_DIR}/${rootFd}/.`);
    for (const name of path.split("/").filter((part) => part !== "" && part !== ".")) {
      if (typeof next !== "number") return undefined;
      fd = next;
      next = openDirectory(`${FD_DIR}/${fd}/${name}`);
      closeSync(fd);
      fd = undefined;
    }
    return typeof next === "number" ? next : undefined;
  } catch {
    if (fd !== undefined) closeSync(fd);
    return undefined;
  }
}
