// Which names of one directory .gitignore excludes, as git judges them: a listing of one level needs
// this for its directories, which rg cannot give (it lists files, never the directories it skips).
// git needs a repository to judge, and reads a repository's configuration, which a project's own
// `.git/config` would be (its core.excludesFile may name a FIFO, or a file of gigabytes). So git is
// always given nixshed's own: an empty bare repository made once in a private temporary directory.
// Nor does git open a project's file: a .gitignore checked to be a plain file can be a FIFO by the
// time git opens it (a jail writing the project can swap one in), and git would wait on it until the
// call's time is up. The daemon reads each .gitignore from the root down to the directory itself,
// without waiting and no larger than MAX_IGNORE_FILE_BYTES, and git judges a private copy of them: a
// tree of those files alone, directories named with a trailing slash. git also reads the user's own
// configuration, as rg, which walks the root alone, does.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readlinkSync, rmSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";
import { isInside } from "../files/path-inside.js";
import { readPlantedText } from "../files/small-file.js";

/** Most bytes of a .gitignore given to git, which reads a whole one into memory with no limit of its own... */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;
/**
 * ...and of all those from the root down, which git holds at once, at some twenty times their size: two hundred
 * nested directories of 1 MiB files (a 2 MB checkout, hard-linked) grew one git to 3.9 GB. Those past it count as empty.
 */
const MAX_IGNORE_CHAIN_BYTES = 2 * 1024 * 1024;

/** A name in the directory listed, and whether it is a directory (which patterns ending in a slash match alone). */
export interface ListedName {
  name: string;
  directory: boolean;
}

/**
 * The names in a directory that git ignores; `root` is the served root holding it (held, reached at
 * `path`), and `below` the way from it to the directory. Empty without git. A .gitignore that is no
 * plain file of a sane size counts as empty: a FIFO would stall git, a sparse file of gigabytes fill
 * the host's memory outside any jail; the listing then shows what it would hide.
 */
export async function gitIgnored(root: { path: string; below: string }, names: ListedName[], signal: AbortSignal): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const own = await ownDirectory();
  if (!own) return new Set();
  // Gone (a cleaner of the temporary directory took it): made again next time, and this listing is unfiltered.
  const copy = await mkdtemp(join(own, "tree-")).catch(() => {
    ownDir = undefined;
    return undefined;
  });
  if (!copy) return new Set();
  try {
    const parts = root.below === "" ? [] : root.below.split(sep);
    const real = readlinkSync(root.path);
    await mkdir(join(copy, ...parts), { recursive: true });
    let left = MAX_IGNORE_CHAIN_BYTES;
    for (let depth = 0; depth <= parts.length && left > 0; depth++) {
      const text = ignoreFileText(join(root.path, ...parts.slice(0, depth), ".gitignore"), real, Math.min(MAX_IGNORE_FILE_BYTES, left));
      if (!text) continue;
      left -= Buffer.byteLength(text);
      await writeFile(join(copy, ...parts.slice(0, depth), ".gitignore"), text);
    }
    const asGiven = ({ name, directory }: ListedName) => (directory ? `${name}/` : name);
    const ignored = await checkIgnore(
      join(copy, ...parts),
      names.map(asGiven),
      { GIT_DIR: join(own, "repository"), GIT_WORK_TREE: copy },
      signal,
    );
    return new Set(names.filter((named) => ignored.has(asGiven(named))).map(({ name }) => name));
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}

/** A .gitignore's text as git would read it (a symlink is none), if it is a plain file of at most `maxBytes` really in the root. */
function ignoreFileText(path: string, root: string, maxBytes: number): string | undefined {
  try {
    return readPlantedText(path, { maxBytes, noFollow: true, within: (opened) => isInside(opened, root) });
  } catch {
    // Unreadable (permission denied): git could not have read it either.
    return undefined;
  }
}

/** `git check-ignore` of the names, git given `env`: those ignored. */
function checkIgnore(dir: string, names: string[], env: Record<string, string>, signal: AbortSignal): Promise<Set<string>> {
  return new Promise((resolve) => {
    const child = spawn("git", ["check-ignore", "--no-index", "-z", "--stdin"], {
      cwd: dir,
      env: { ...process.env, ...env },
      stdio: ["pipe", "pipe", "ignore"],
      signal,
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.once("error", () => resolve(new Set()));
    child.once("close", () => resolve(new Set(out.split("\0").filter(Boolean))));
    child.stdin.on("error", () => {});
    child.stdin.end(names.map((name) => `${name}\0`).join(""));
  });
}

let ownDir: Promise<string | undefined> | undefined;

/** nixshed's own private directory holding its empty bare repository, made once; undefined where it cannot be made now (tried again next time). */
function ownDirectory(): Promise<string | undefined> {
  ownDir ??= makeOwnDirectory().then((made) => {
    if (!made) ownDir = undefined;
    return made;
  });
  return ownDir;
}

/** A fresh private directory with an empty bare repository in it, removed when the process exits; nothing is left of a failed one. */
async function makeOwnDirectory(): Promise<string | undefined> {
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), "nixshed-git-"));
  } catch {
    return undefined;
  }
  const made = await new Promise<boolean>((resolve) =>
    execFile("git", ["init", "--bare", "--quiet", join(dir, "repository")], (error) => resolve(!error)),
  );
  if (!made) {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
