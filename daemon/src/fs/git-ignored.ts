// Which names of one directory .gitignore excludes, as git judges them: a listing of one level needs
// this for its directories, which rg cannot give (it lists files, never the directories it skips).
// Inside a repository git reads the repository's own ignore rules. Outside one, git needs a
// repository all the same: a bare one of nixshed's own, made once in a private temporary directory
// (where no project can plant the config or hooks git reads from it), with the served root as its
// work tree, so that .gitignore files count outside a repository as trees and searches (rg) count them.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { lstat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, sep } from "node:path";

/** git's exit status where it finds no repository. */
const NO_REPOSITORY = 128;

/** Most bytes of a .gitignore given to git, which reads a whole one into memory with no limit of its own. */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

/**
 * The names in `dir` (a held directory) that git ignores; `root` is the served root holding it (held),
 * which is the work tree outside a repository, and `below` the way from it to `dir`. Empty without git,
 * and where a .gitignore on that way is no plain file of a sane size: a FIFO would stall git, a sparse
 * file of gigabytes fill the host's memory outside any jail. The listing then shows what they would hide.
 */
export async function gitIgnored(
  dir: string,
  root: { path: string; below: string },
  names: string[],
  signal: AbortSignal,
): Promise<Set<string>> {
  if (names.length === 0 || !(await plainIgnoreFiles(root.path, root.below))) return new Set();
  const inRepository = await checkIgnore(dir, names, {}, signal);
  if (inRepository !== NO_REPOSITORY) return inRepository;
  const own = await ownRepository();
  if (!own) return new Set();
  const outside = await checkIgnore(dir, names, { GIT_DIR: own, GIT_WORK_TREE: root.path }, signal);
  return outside === NO_REPOSITORY ? new Set() : outside;
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

/** `git check-ignore` of the names: those ignored, or NO_REPOSITORY. */
function checkIgnore(
  dir: string,
  names: string[],
  env: Record<string, string>,
  signal: AbortSignal,
): Promise<Set<string> | typeof NO_REPOSITORY> {
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
    child.once("close", (code) => resolve(code === NO_REPOSITORY ? NO_REPOSITORY : new Set(out.split("\0").filter(Boolean))));
    child.stdin.on("error", () => {});
    child.stdin.end(names.map((name) => `${name}\0`).join(""));
  });
}

let own: Promise<string | undefined> | undefined;

/** nixshed's own empty bare repository, removed when the process exits; undefined where git cannot make one now (tried again next time). */
function ownRepository(): Promise<string | undefined> {
  own ??= new Promise<string | undefined>((resolve) => {
    const dir = mkdtempSync(join(tmpdir(), "nixshed-git-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    execFile("git", ["init", "--bare", "--quiet", dir], (error) => resolve(error ? undefined : dir));
  })
    .catch(() => undefined)
    .then((made) => {
      if (!made) own = undefined;
      return made;
    });
  return own;
}
