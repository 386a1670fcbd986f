// Confinement: every path a filesystem tool touches is resolved here, against the served roots
// (the project root, config extra_roots, the client's MCP roots), at the time it is used.
//
// A path is walked one component at a time from a root's directory descriptor, each directory
// opened no-follow through the one before (`/proc/self/fd/N/name` gives openat semantics from
// Node). A symlink met on the way is read and the walk starts again from its target, which must
// lie inside a root; nothing is ever resolved by a path string that another process could change
// between a check and its use. The caller gets the held directory and acts on the final name
// inside it (`at`): open it no-follow, rename within it, create temp files O_EXCL|O_NOFOLLOW in it.
//
// Two intents:
// - "follow": the path is read through its symlinks (reads, listings, search).
// - "entry": the final component is acted upon itself and never followed (write, create, move,
//   delete, stat).
//
// Without /proc (macOS) the same walk runs over real path strings: each step is still checked
// no-follow, but a swap between steps is not excluded.
import { closeSync, constants, existsSync, lstatSync, mkdirSync, openSync, readlinkSync } from "node:fs";
import { FD_DIR } from "../files/descriptor-path.js";
import { realpath, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, normalize, relative, resolve, sep } from "node:path";
import { isAbsent } from "../files/absence.js";
import { isInside } from "../files/path-inside.js";
import { bareRepositoryMade, protectedEntry, protectedMessage, protectsGit } from "../config/protected-paths.js";
import { errnoOf, FsError } from "./errors.js";

/** Linux PATH_MAX and NAME_MAX, in bytes. */
const PATH_MAX = 4096;
const NAME_MAX = 255;
/** Symlinks followed in one resolution, as the kernel's limit. */
const MAX_HOPS = 40;
/** Where the jail shows the project: accepted as the project by every fs tool. */
const JAIL_PROJECT = "/project";

const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export interface Root {
  /** The path as configured or offered (may run through symlinks). */
  given: string;
  /** Its realpath: what every check compares against. */
  real: string;
}

export type Intent = "follow" | "entry";

export interface HoldOptions {
  /** Create missing directories on the way: the parents of the final component, or all of it. */
  create?: "parents" | "all";
}

/** A path held for use: its directory is open, and `at` reaches the final entry through it. */
export interface Held {
  /** The real path, for showing and for protected-path checks; never used to act. */
  real: string;
  /** Reaches the entry through the held directory: act on this (no-follow), never on `real`. */
  at: string;
  /** The held directory itself, for siblings of the entry (temp files). */
  dirAt: string;
  /** The final component ("" when the path is a root itself: then `at` is the root's "."). */
  name: string;
  exists: boolean;
  /** "entry" only: the final component is itself a symlink. */
  isSymlink: boolean;
  /** `create: "all"` made the final directory. */
  created?: boolean;
}

export async function makeRoot(path: string): Promise<Root> {
  const given = resolve(path);
  let real: string;
  try {
    real = await realpath(given);
  } catch (error) {
    throw new FsError(`root ${path}: ${errnoOf(error) === "ENOENT" ? "does not exist" : (error as Error).message}`);
  }
  if (!(await stat(real)).isDirectory()) throw new FsError(`root ${path}: not a directory`);
  return { given, real };
}

function checkSyntax(input: string): void {
  if (input === "")
    throw new FsError("empty path", `give a file's path relative to the project, e.g. src/main.ts ("." is the project itself)`);
  if (input.includes("\0")) throw new FsError("path contains a NUL byte", "pass the path without control characters");
  if (Buffer.byteLength(input) > PATH_MAX) throw new FsError(`path is longer than ${PATH_MAX} bytes`);
  for (const part of input.split("/")) {
    if (Buffer.byteLength(part) > NAME_MAX) {
      throw new FsError(`path component "${part.slice(0, 40)}…" is longer than ${NAME_MAX} bytes`);
    }
  }
}

/** A directory descriptor and the real path it was reached by. */
interface Step {
  fd: number;
  real: string;
}

/** The path that reaches `name` inside the held directory. */
function through(step: Step, name = ""): string {
  const dir = FD_DIR ? `${FD_DIR}/${step.fd}` : step.real;
  return name ? `${dir}/${name}` : dir;
}

/** Opens a directory no-follow; "symlink" or "not-directory" when the entry is something else, undefined when missing. */
export function openDirectory(path: string): number | "symlink" | "not-directory" | undefined {
  try {
    return openSync(path, DIRECTORY_FLAGS);
  } catch (error) {
    const code = errnoOf(error);
    if (code === "ENOENT") return undefined;
    if (code !== "ENOTDIR" && code !== "ELOOP") throw error;
    return isSymlink(path) ? "symlink" : "not-directory";
  }
}

function isSymlink(path: string): boolean {
  try {
    readlinkSync(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EINVAL" || isAbsent(error)) return false; // EINVAL: not a link
    throw error;
  }
}

/** Runs `use` with a directory opened no-follow at `at` (a held path), closing it after. */
export async function withDirectory<T>(at: string, input: string, use: (dirAt: string, fd: number) => Promise<T>): Promise<T> {
  const fd = openDirectory(at);
  if (typeof fd !== "number") throw new FsError(`${input}: ${fd === undefined ? "does not exist" : "not a directory"}`);
  try {
    return await use(FD_DIR ? `${FD_DIR}/${fd}` : at, fd);
  } finally {
    closeSync(fd);
  }
}

export class Confinement {
  private clientRoots: Root[] = [];

  constructor(
    /** The project root: relative paths resolve against it and results are shown relative to it. */
    readonly primary: Root,
    private readonly extraRoots: Root[] = [],
    /** Project paths no tool changes (config/protected-paths.ts). */
    private readonly protectedPaths: readonly string[] = [],
    /** Served for reading only (the whole texts of answers cut to the response budget). */
    private readonly readOnlyRoots: Root[] = [],
  ) {}

  roots(): Root[] {
    return [this.primary, ...this.extraRoots, ...this.readOnlyRoots, ...this.clientRoots];
  }

  setClientRoots(roots: Root[]): void {
    this.clientRoots = roots;
  }

  /** How a real path is shown to the agent: relative to the project root when inside it. */
  shown(real: string): string {
    return isInside(real, this.primary.real) ? relative(this.primary.real, real) || "." : real;
  }

  /** The root whose real path is exactly `real`, if any (roots themselves are never moved or deleted). */
  isRoot(real: string): boolean {
    return this.roots().some((root) => root.real === real);
  }

  /**
   * Whether a path is a kept result (the whole text of a cut answer): of this server ("here") or of
   * another server run beside it ("elsewhere"), whose directory went when that server exited.
   */
  keptResult(path: string): "here" | "elsewhere" | undefined {
    if (this.readOnlyRoots.some((root) => isInside(path, root.real))) return "here";
    // Inside a sibling of this server's directory: the results directory itself is no kept result.
    const beside = (root: Root) => isInside(path, dirname(root.real)) && path !== dirname(root.real);
    return this.readOnlyRoots.some(beside) ? "elsewhere" : undefined;
  }

  /**
   * Refuses a change to a protected project path or inside a read-only root (`real`, symlinks resolved). `inMade`: its
   * directory was made by this call, under one checked as it was made, and so makes no bare repository.
   */
  refuseProtected(real: string, input: string, inMade = false): void {
    if (this.readOnlyRoots.some((root) => isInside(real, root.real))) {
      throw new FsError(`${input}: is in a read-only root`, "copy what you need into the project instead");
    }
    if (!isInside(real, this.primary.real)) return;
    const below = relative(this.primary.real, real);
    const entry =
      protectedEntry(below, this.protectedPaths) ??
      (protectsGit(this.protectedPaths) && !inMade
        ? bareRepositoryMade(below, (path) => existsSync(join(this.primary.real, path)))
        : undefined);
    if (entry !== undefined) throw new FsError(protectedMessage(input, entry), "ask the user to make this change");
  }

  /** Runs `use` with the served root holding `real` open, and `real`'s path below it: what a child process jailed in that root needs. */
  withRootOf<T>(real: string, input: string, use: (jail: { rootFd: number; below: string }) => Promise<T>): Promise<T> {
    const root = this.rootOf(real);
    if (!root) throw this.outside(input);
    return withDirectory(root.real, input, (_at, rootFd) => use({ rootFd, below: relative(root.real, real) }));
  }

  /** The deepest root holding `path` (a normalised absolute path), if any. */
  private rootOf(path: string): Root | undefined {
    let found: Root | undefined;
    for (const root of this.roots()) if (isInside(path, root.real) && (!found || root.real.length > found.real.length)) found = root;
    return found;
  }

  /** A path under a root's given spelling (e.g. through a symlink) rewritten to its real spelling. */
  private toRealSpelling(path: string): string {
    for (const root of this.roots()) {
      if (root.given !== root.real && isInside(path, root.given)) return join(root.real, relative(root.given, path));
    }
    return path;
  }

  private outside(input: string, why = "is outside every served root"): FsError {
    const roots = this.roots()
      .map((root) => root.real)
      .join(", ");
    return new FsError(`${input}: ${why}`, `use a path relative to the project root, or inside another served root (${roots})`);
  }

  /** The absolute, normalised path an input names, by its spelling alone: relative and `/project/...` paths mean the project. */
  lexical(input: string): string {
    checkSyntax(input);
    let path: string;
    if (!isAbsolute(input)) {
      path = resolve(this.primary.real, input);
      if (!isInside(path, this.primary.real)) throw this.outside(input, "climbs out of the project root (..)");
    } else {
      path = this.toRealSpelling(normalize(input));
      const jailView = path === JAIL_PROJECT || path.startsWith(`${JAIL_PROJECT}/`);
      if (jailView && !this.rootOf(path)) path = join(this.primary.real, relative(JAIL_PROJECT, path));
    }
    return path.length > 1 && path.endsWith(sep) ? path.slice(0, -1) : path;
  }

  /**
   * Resolves `input` at the time of use and runs `use` with it held; the held directory is closed
   * when `use` settles. Everything `use` does must go through `held.at` / `held.dirAt`.
   */
  async hold<T>(input: string, intent: Intent, use: (held: Held) => Promise<T>, options: HoldOptions = {}): Promise<T> {
    const { step, held } = this.walk(input, intent, options);
    try {
      return await use(held);
    } finally {
      closeSync(step.fd);
    }
  }

  private walk(input: string, intent: Intent, options: HoldOptions): { step: Step; held: Held } {
    let path = this.lexical(input);
    for (let hops = 0; ; hops++) {
      if (hops > MAX_HOPS) throw new FsError(`${input}: too many levels of symlinks`);
      const root = this.rootOf(path);
      // The jails' own path for their scratch space, which no fs tool serves (unless the host has one).
      if (!root && isInside(path, "/workspace") && !existsSync("/workspace")) {
        throw new FsError(
          `${input}: /workspace is a jail's scratch space, seen only by run`,
          "read it there (cat, head) or copy it into the project",
        );
      }
      if (!root && this.keptResult(path) === "elsewhere") {
        throw new FsError(`${input}: is a kept result of another server run, gone with it`, "run the call that made it again");
      }
      if (!root) throw this.outside(input, hops ? "lies through a symlink that leads outside every served root" : undefined);
      const found = this.walkFrom(root, relative(root.real, path), input, intent, options, hops > 0);
      if (typeof found === "string") path = found;
      else return found;
    }
  }

  /** One walk from a root; returns the absolute path to walk next when a symlink is met. */
  private walkFrom(
    root: Root,
    rest: string,
    input: string,
    intent: Intent,
    options: HoldOptions,
    viaLink: boolean,
  ): { step: Step; held: Held } | string {
    const parts = rest === "" ? [] : rest.split(sep);
    const rootFd = openDirectory(root.real);
    if (typeof rootFd !== "number") throw new FsError(`${input}: served root ${root.real} is gone`);
    let step: Step = { fd: rootFd, real: root.real };
    let handedOver = false;
    const hand = (held: Held) => {
      handedOver = true;
      return { step, held };
    };
    try {
      if (parts.length === 0) {
        // "." rather than the descriptor's own /proc entry, which is a symlink to no-follow calls.
        return hand({ real: root.real, at: through(step, "."), dirAt: through(step), name: "", exists: true, isSymlink: false });
      }
      // Whether the directory the walk is in was made by it: a bare repository is looked for where it began making, not
      // again at each level below (a path of 1,000 new levels took 40 s).
      let inMade = false;
      for (let index = 0; index < parts.length - 1; index++) {
        const name = parts[index]!;
        const real = join(step.real, name);
        let opened = openDirectory(through(step, name));
        let made = false;
        if (opened === undefined && options.create) {
          this.refuseProtected(real, input, inMade);
          try {
            mkdirSync(through(step, name));
            made = true;
          } catch (error) {
            if (errnoOf(error) !== "EEXIST") throw error;
          }
          opened = openDirectory(through(step, name));
        }
        if (opened === undefined) {
          // Missing on the way: the entry does not exist (and cannot, until its parents do).
          const missing = join(real, ...parts.slice(index + 1));
          return hand({ real: missing, at: through(step, name), dirAt: through(step), name, exists: false, isSymlink: false });
        }
        if (opened === "symlink") return resolve(step.real, readlinkSync(through(step, name)), ...parts.slice(index + 1));
        if (opened === "not-directory") throw new FsError(`${input}: ${this.shown(real)} is not a directory`);
        closeSync(step.fd);
        step = { fd: opened, real };
        inMade = made;
      }
      const name = parts.at(-1)!;
      const at = through(step, name);
      const real = join(step.real, name);
      let entry = lstatSync(at, { throwIfNoEntry: false });
      let created = false;
      if (entry?.isSymbolicLink() && intent === "follow") return resolve(step.real, readlinkSync(at));
      if (!entry && options.create === "all") {
        // The entry itself is looked at whole, whoever made the directory it is in.
        this.refuseProtected(real, input);
        try {
          mkdirSync(at);
          created = true;
        } catch (error) {
          if (errnoOf(error) !== "EEXIST") throw error;
        }
        entry = lstatSync(at, { throwIfNoEntry: false });
      }
      if (!entry && viaLink && intent === "follow") throw new FsError(`${input}: dangling symlink (its target does not exist)`);
      return hand({
        real,
        at,
        dirAt: through(step),
        name,
        exists: entry !== undefined,
        isSymlink: entry?.isSymbolicLink() ?? false,
        created,
      });
    } finally {
      if (!handedOver) closeSync(step.fd);
    }
  }
}
