// The whole text of every answer that was cut to the response budget (response-budget.ts), kept
// where the agent can page it with read_content: one private directory per server process under the
// cache dir (outside the project, so nothing lands in the repository and no jail sees it), which the
// fs tools serve read-only. The newest `files` are kept for `seconds`; the directory goes when the
// process exits, and those of processes that died without cleaning up go by age.
import { mkdirSync, rmSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Kept } from "./response-budget.js";

export interface ResultStoreLimits {
  files: number;
  seconds: number;
}

export class ResultStore {
  private count = 0;

  private constructor(
    readonly dir: string,
    private readonly limits: ResultStoreLimits,
  ) {}

  /** A fresh directory under `cacheDir`/results; stale siblings are removed on the way. */
  static async open(cacheDir: string, limits: ResultStoreLimits): Promise<ResultStore> {
    const parent = join(cacheDir, "results");
    await mkdir(parent, { recursive: true, mode: 0o700 });
    await removeOlder(parent, Date.now() - limits.seconds * 1000, true);
    const dir = await mkdtemp(join(parent, `${process.pid}-`));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    return new ResultStore(dir, limits);
  }

  /** Writes `text` as a new file named after the tool; says where, or why it could not. */
  async keep(tool: string, text: string): Promise<Kept> {
    const path = join(this.dir, `${String(++this.count).padStart(4, "0")}-${tool}.txt`);
    try {
      // Recreated if the age limit of another process's cleanup took it while this one idled.
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      await writeFile(path, text, { flag: "wx", mode: 0o600 });
      await this.prune();
      return { path };
    } catch (error) {
      return { error: (error as Error).message };
    }
  }

  /** Beyond the newest `files`, and anything older than `seconds`, is removed. */
  private async prune(): Promise<void> {
    const names = (await readdir(this.dir)).sort();
    await Promise.all(
      names.slice(0, Math.max(0, names.length - this.limits.files)).map((name) => rm(join(this.dir, name), { force: true })),
    );
    await removeOlder(this.dir, Date.now() - this.limits.seconds * 1000, false);
  }
}

/** Removes the entries of `dir` last changed before `before` (directories only when `directories`). */
async function removeOlder(dir: string, before: number, directories: boolean): Promise<void> {
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    // Gone meanwhile (another server pruning) is fine; anything else is reported.
    const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    if (info && info.isDirectory() === directories && info.mtimeMs < before) await rm(path, { recursive: true, force: true });
  }
}
