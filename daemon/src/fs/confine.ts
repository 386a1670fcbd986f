// Confinement: every path a filesystem tool touches is resolved here, against the served roots
// (the project root, config extra_roots, the client's MCP roots). A path is accepted only when its
// real location, symlinks resolved, lies inside a root by whole path components.
//
// Two intents:
// - "follow": the path is read through its symlinks (reads, listings, search); the resolved target
//   must be inside a root.
// - "entry": the final component is acted upon itself and never followed (write, create, move,
//   delete); its parent directory, symlinks resolved, must be inside a root.
import { lstat, realpath, stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, normalize, relative, resolve, sep } from "node:path";
import { isInside } from "../common/path-inside.js";
import { errnoOf, FsError } from "./errors.js";

/** Linux PATH_MAX and NAME_MAX, in bytes. */
const PATH_MAX = 4096;
const NAME_MAX = 255;

export interface Root {
  /** The path as configured or offered (may run through symlinks). */
  given: string;
  /** Its realpath: what every check compares against. */
  real: string;
}

export type Intent = "follow" | "entry";

export interface Resolved {
  /** The real path to act on (for "entry", the real parent joined with the final name). */
  real: string;
  exists: boolean;
  /** "entry" only: the final component is itself a symlink. */
  isSymlink: boolean;
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
  if (input.includes("\0")) throw new FsError("path contains a NUL byte", "pass the path without control characters");
  if (Buffer.byteLength(input) > PATH_MAX) throw new FsError(`path is longer than ${PATH_MAX} bytes`);
  for (const part of input.split("/")) {
    if (Buffer.byteLength(part) > NAME_MAX) {
      throw new FsError(`path component "${part.slice(0, 40)}…" is longer than ${NAME_MAX} bytes`);
    }
  }
}

export class Confinement {
  private clientRoots: Root[] = [];

  constructor(
    /** The project root: relative paths resolve against it and results are shown relative to it. */
    readonly primary: Root,
    private readonly extraRoots: Root[] = [],
  ) {}

  roots(): Root[] {
    return [this.primary, ...this.extraRoots, ...this.clientRoots];
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

  private insideSomeRoot(real: string): boolean {
    return this.roots().some((root) => isInside(real, root.real));
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
    return new FsError(`${input}: ${why}`, `use a path inside the project root or another served root (${roots})`);
  }

  async resolve(input: string, intent: Intent): Promise<Resolved> {
    checkSyntax(input);
    const relativeInput = !isAbsolute(input);
    const lexical = relativeInput ? resolve(this.primary.real, input) : normalize(input);
    if (relativeInput && !isInside(lexical, this.primary.real)) throw this.outside(input, "climbs out of the project root with ..");
    const path = this.toRealSpelling(lexical.length > 1 && lexical.endsWith(sep) ? lexical.slice(0, -1) : lexical);
    if (!this.insideSomeRoot(path)) throw this.outside(input);

    const entry = await lstat(path).catch((error: unknown) => {
      if (errnoOf(error) === "ENOENT" || errnoOf(error) === "ENOTDIR") return undefined;
      throw new FsError(`${input}: ${(error as Error).message}`);
    });
    if (!entry) return { real: await this.resolveMissing(input, path), exists: false, isSymlink: false };
    if (intent === "entry" && entry.isSymbolicLink()) {
      // The link itself is acted upon, so only its directory must be inside a root.
      const realParent = await realpath(dirname(path));
      if (!this.insideSomeRoot(realParent)) throw this.outside(input, "lies through a symlink that leads outside every served root");
      return { real: join(realParent, basename(path)), exists: true, isSymlink: true };
    }
    const real = await realpath(path).catch((error: unknown) => {
      if (errnoOf(error) === "ENOENT") throw new FsError(`${input}: dangling symlink (its target does not exist)`);
      throw new FsError(`${input}: ${(error as Error).message}`);
    });
    if (!this.insideSomeRoot(real)) {
      throw this.outside(input, entry.isSymbolicLink() ? "is a symlink that leads outside every served root" : "lies through a symlink that leads outside every served root");
    }
    return { real, exists: true, isSymlink: false };
  }

  /** A path that does not exist yet: its nearest existing ancestor, symlinks resolved, must be inside a root. */
  private async resolveMissing(input: string, path: string): Promise<string> {
    let ancestor = dirname(path);
    const rest = [basename(path)];
    for (;;) {
      const found = await lstat(ancestor).catch(() => undefined);
      if (found) {
        const real = await realpath(ancestor).catch(() => {
          throw new FsError(`${input}: ${this.shown(ancestor)} is a dangling symlink`);
        });
        if (!this.insideSomeRoot(real)) throw this.outside(input, "lies through a symlink that leads outside every served root");
        if (!(await stat(real)).isDirectory()) throw new FsError(`${input}: ${this.shown(real)} is not a directory`);
        return join(real, ...rest.reverse());
      }
      rest.push(basename(ancestor));
      ancestor = dirname(ancestor);
    }
  }
}
