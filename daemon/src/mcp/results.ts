// The whole text of every answer that was cut to the response budget (response-budget.ts), kept
// where the agent can page it with read_content: one private directory per server process under the
// cache dir (outside the project, so nothing lands in the repository and no jail sees it), which the
// fs tools serve read-only. Beside them, the whole output streams of jailed programs that outgrew
// what a call keeps in memory (spools, written as the bytes arrive). The newest `files` are kept for
// `seconds`, all of them within `bytes`; the directory goes when the process exits, and those of
// processes that died without cleaning up go by age.
import { closeSync, constants, existsSync, mkdirSync, openSync, readdirSync, rmSync, statSync, writeSync } from "node:fs";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { unlessAbsent } from "../files/absence.js";
import type { OpenSpool, SpoolFile } from "../jail/output.js";
import { type Kept, textRoom } from "./response-budget.js";

export interface ResultStoreLimits {
  files: number;
  seconds: number;
  /** What the directory may hold in all; one spool stops at it. */
  bytes: number;
  /** The largest answer (responses.max_bytes): what a spooled stream's answer shows of it is cut to fit there. */
  answerBytes: number;
}

/**
 * Of the text an answer holds, the share each end of a spooled stream shows: a fifth, so that both streams' starts and
 * ends and the facts above them fit one answer, which then is not cut again (with a second file to point to).
 */
const SHOWN_SHARE = 1 / 5;

/**
 * A file written this recently is not removed to make room: the answer of the call that wrote it may name it (a
 * spool just closed, then its own call's cut answer kept). New output finds the directory full instead, and says so.
 */
const NAMED_RECENTLY_MS = 60_000;

export class ResultStore {
  private count = 0;
  /** Bytes in the files this store holds, as last counted and since written. */
  private used = 0;
  /** Spools still being written: never pruned, and their bytes counted as they come. */
  private readonly writing = new Set<string>();

  private constructor(
    readonly dir: string,
    private readonly limits: ResultStoreLimits,
  ) {}

  /** A fresh directory under `cacheDir`/results; stale siblings are removed on the way. */
  static async open(cacheDir: string, limits: ResultStoreLimits): Promise<ResultStore> {
    const parent = join(cacheDir, "results");
    await mkdir(parent, { recursive: true, mode: 0o700 });
    removeOlderDirectories(parent, Date.now() - limits.seconds * 1000);
    const dir = await mkdtemp(join(parent, `${process.pid}-`));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    return new ResultStore(dir, limits);
  }

  /** Writes `text` as a new file named after the tool; says where, or why it could not (over a quarter of the store's bytes, as a spool stops). */
  async keep(tool: string, text: string): Promise<Kept> {
    const bytes = Buffer.byteLength(text);
    if (bytes > this.fileBytes) return { error: `${bytes} bytes, over a quarter of responses.keep_bytes` };
    if (this.reserve(bytes) < bytes) return { error: FULL };
    try {
      const path = this.nextPath(`${tool}.txt`);
      await writeFile(path, text, { flag: "wx", mode: 0o600 });
      this.prune(path);
      return { path };
    } catch (error) {
      return { error: (error as Error).message };
    }
  }

  /** Spools for the output streams of one call of `tool` (see SpoolFile). */
  spooler(tool: string): OpenSpool {
    return (stream) => {
      try {
        const path = this.nextPath(`${tool}-${stream}.txt`);
        // O_EXCL and O_NOFOLLOW: a new file of our own in our private directory, never a link's target.
        const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
        this.writing.add(path);
        return new Spool(path, fd, this.fileBytes, this.showBytes, {
          reserve: (bytes) => this.reserve(bytes),
          closed: () => {
            this.writing.delete(path);
            this.prune(path);
          },
        });
      } catch {
        // Without a file the answer says only how much was dropped, as it would with no store at all.
        return undefined;
      }
    };
  }

  /** What an answer shows of each end of a spooled stream. */
  private get showBytes(): number {
    return Math.floor(textRoom(this.limits.answerBytes) * SHOWN_SHARE);
  }

  /** What one file may hold, a quarter of the whole: a call's two streams and its cut answer never push each other out. */
  private get fileBytes(): number {
    return Math.floor(this.limits.bytes / 4);
  }

  /** A fresh name in the directory (recreated if another process's age limit took it while this one idled). */
  private nextPath(name: string): string {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    return join(this.dir, `${String(++this.count).padStart(4, "0")}-${name}`);
  }

  /**
   * How many of `bytes` more the store may hold, at most all of them, counted as held: the open spools of
   * calls running at once share `bytes` with the files kept (before, each spool had its quarter, and eight of
   * them held twice the whole). Past the bytes, the oldest finished files go first.
   */
  private reserve(bytes: number): number {
    if (this.used + bytes > this.limits.bytes) this.prune(undefined, bytes);
    const granted = Math.max(0, Math.min(bytes, this.limits.bytes - this.used));
    this.used += granted;
    return granted;
  }

  /**
   * Beyond the newest `files`, anything older than `seconds`, and the oldest beyond `bytes` in all (less
   * `room`, kept free for what comes) but for those written in the last minute, are removed; never `newest`,
   * the file just written, nor a spool still being written, whose answer will name it. Synchronous: the directory holds at most `files` entries, and a
   * call's answer should not wait on, or race with, another's pruning.
   */
  private prune(newest: string | undefined, room = 0): void {
    const tooOld = Date.now() - this.limits.seconds * 1000;
    const recent = Date.now() - NAMED_RECENTLY_MS;
    let kept = 0;
    let total = room;
    let left = 0;
    // Gone meanwhile (another server's age limit) is nothing to prune; nextPath makes it again.
    const names = existsSync(this.dir) ? readdirSync(this.dir) : [];
    for (const name of names.sort().reverse()) {
      const path = join(this.dir, name);
      const info = unlessAbsent(() => statSync(path), undefined);
      if (!info) continue;
      total += info.size;
      const doomed = ++kept > this.limits.files || info.mtimeMs < tooOld || (total > this.limits.bytes && info.mtimeMs < recent);
      if (doomed && path !== newest && !this.writing.has(path)) rmSync(path, { force: true });
      else left += info.size;
    }
    this.used = left;
  }
}

/** Why a stream or a text is not kept whole when the store is full of what it may not remove yet. */
const FULL = "the results directory is full (responses.keep_bytes) with the output of calls running now or just ended";

/** A stream written whole as it arrives, up to `cap` bytes and what the store grants it. */
class Spool implements SpoolFile {
  written = 0;
  stopped?: string;

  constructor(
    readonly path: string,
    private fd: number | undefined,
    private readonly cap: number,
    readonly showBytes: number,
    private readonly store: { reserve(bytes: number): number; closed(): void },
  ) {}

  write(bytes: Uint8Array): void {
    if (this.fd === undefined || this.stopped) return;
    const wanted = Math.min(bytes.length, Math.max(0, this.cap - this.written));
    const piece = bytes.subarray(0, this.store.reserve(wanted));
    try {
      for (let done = 0; done < piece.length; ) done += writeSync(this.fd, piece, done);
      this.written += piece.length;
    } catch (error) {
      this.stopped = `not kept beyond: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
      return;
    }
    if (piece.length < wanted) this.stopped = FULL;
    else if (piece.length < bytes.length) this.stopped = `a stream keeps at most ${this.cap} bytes, a quarter of responses.keep_bytes`;
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    this.store.closed();
  }
}

/** Removes the directories in `dir` last changed before `before` (those of servers that died without cleaning up). */
function removeOlderDirectories(dir: string, before: number): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const info = unlessAbsent(() => statSync(path), undefined);
    if (info?.isDirectory() && info.mtimeMs < before) rmSync(path, { recursive: true, force: true });
  }
}
