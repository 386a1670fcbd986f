// Which names of one directory .gitignore excludes, as git judges them: a listing of one level needs
// this for its directories, which rg cannot give (it lists files, never the directories it skips).
// git needs a repository to judge, and reads a repository's configuration, which a project's own
// `.git/config` would be (its core.excludesFile may name a FIFO, or a file of gigabytes). So git is
// always given nixshed's own: an empty bare repository made once in a private temporary directory,
// with the served root as its work tree. It reads the root's .gitignore files and the user's own
// configuration, as rg, which walks the root alone, does.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { lstat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";

/** Most bytes of a .gitignore given to git, which reads a whole one into memory with no limit of its own. */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

/**
 * The names in `dir` (a held directory) that git ignores; `root` is the served root holding it (held),
 * the work tree, and `below` the way from it to `dir`. Empty without git, and where a .gitignore on
 * that way is no plain file of a sane size: a FIFO would stall git, a sparse file of gigabytes fill
 * the host's memory outside any jail. The listing then shows what they would hide.
 */
export async function gitIgnored(
  dir: string,
  root: { path: string; below: string },
  names: string[],
  signal: AbortSignal,
): Promise<Set<string>> {
  if (names.length === 0 || !(await plainIgnoreFiles(root.path, root.below))) return new Set();
  const own = await ownRepository();
  return own ? checkIgnore(dir, names, { GIT_DIR: own, GIT_WORK_TREE: root.path }, signal) : new Set();
}

/** Whether each .gitignore from `root` down to `below` is absent or a regular file of at most MAX_IGNORE_FILE_BYTES. */
async function plainIgnoreFiles(root: string, below: string): Promise<boolean> {
  const parts = below === "" ? [] : below.split(sep);
  for (let depth = 0; depth <= parts.length; depth++) {
    const stats = await lstat(join(root, ...parts.slice(0, depth), ".gitignore")).catch(() => undefined);
    if (stats && (!stats.isFile() || stats.size > MAX_IGNORE_FILE_BYTES)) return false;
  }
  return true;
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

let own: Promise<string | undefined> | undefined;

/** nixshed's own empty bare repository, made once; undefined where it cannot be made now (tried again next time). */
function ownRepository(): Promise<string | undefined> {
  own ??= makeRepository().then((made) => {
    if (!made) own = undefined;
    return made;
  });
  return own;
}

/** An empty bare repository in a fresh private directory, removed when the process exits; nothing is left of a failed one. */
async function makeRepository(): Promise<string | undefined> {
  let dir: string;
  try {
    dir = mkdtempSync(join(tmpdir(), "nixshed-git-"));
  } catch {
    return undefined;
  }
  const made = await new Promise<boolean>((resolve) => execFile("git", ["init", "--bare", "--quiet", dir], (error) => resolve(!error)));
  if (!made) {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
