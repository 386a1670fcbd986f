// Runs ripgrep and yields its output records as they arrive, so callers can stop early. Stopping
// (breaking out of the loop) or aborting the signal kills rg at once.
//
// rg never follows symlinks, but it opens what it walks by path: a directory below the search
// root swapped for a symlink between its listing and its open would be read through. Where
// bubblewrap can make a mount namespace, rg runs in one that holds only the system's programs and
// the served root (bound from its descriptor, at /search, so .gitignore files above the searched
// directory still count): a symlink leads nowhere else there.
import { spawn, type ChildProcessByStdio, type SpawnOptions } from "node:child_process";
import { closeSync, constants, openSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { onPath } from "../files/on-path.js";
import { errnoOf, FsError } from "./errors.js";
import { releaseIgnoreFifos } from "./ignore-fifos.js";
import { RgJsonRecord } from "./rg-json-record.js";

/** What rg may need to start: system and store programs and libraries, never a project. */
const SYSTEM = ["/usr", "/bin", "/lib", "/lib64", "/nix/store", "/etc/ld.so.cache"];
/** How long the one probe of bwrap may take before rg runs unjailed. */
const PROBE_MS = 3000;
/** Most bytes of what a call gives rg to match (pattern, glob): well under what one program argument may be (128 KiB, else spawn fails with E2BIG); none needs more. */
export const MAX_RG_PATTERN_BYTES = 64 * 1024;

/** The bytes of what a call gives rg to match, when over MAX_RG_PATTERN_BYTES; else undefined. */
export function patternBytesOver(...texts: (string | undefined)[]): number | undefined {
  const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text ?? ""), 0);
  return bytes > MAX_RG_PATTERN_BYTES ? bytes : undefined;
}
/** Where the jail shows the searched root. */
const SEARCH_ROOT = "/search";
/** The root's descriptor number in the child. */
const HELD_FD = 3;
/**
 * Most KiB rg may allocate (RLIMIT_DATA, set by the shell that starts it; without one, rg does not run).
 * rg reads each .gitignore whole: a project's sparse one of 3 GB, which costs nothing on disk, grew it
 * to 24 GB outside any jail. No walk or search of a sane tree needs 1 GiB; over it rg aborts, and the
 * call fails in one line.
 */
const MAX_DATA_KIB = 1024 * 1024;
/** The shell that limits rg: the first sh on PATH (the Nix package puts its own bash first), found once. */
let limitingShell: string | undefined;
const findShell = () => (limitingShell ??= onPath("sh"));
/** The limiting shell, or the one-line error of a call that cannot run rg without it. */
function shell(): string {
  const sh = findShell();
  if (!sh) throw new FsError("no sh on PATH, which limits ripgrep's memory", "put a POSIX shell on PATH");
  return sh;
}
/** rg's command line, program first: a shell that limits it, then runs it as $0 with its arguments as "$@". */
const limitedRg = (rg: string, args: string[]) => [shell(), "-c", `ulimit -d ${MAX_DATA_KIB} && exec "$0" "$@"`, rg, ...args];
const spawnArgv = ([program, ...args]: string[], options: SpawnOptions) => spawn(program!, args, options);

let jail: Promise<{ bwrap: string[]; rg: string } | undefined> | undefined;

/** How to start rg jailed in one root: bwrap's arguments up to the command; undefined where it cannot (no bwrap, no namespaces). Probed once, on the first call. */
export function jailed(): Promise<{ bwrap: string[]; rg: string } | undefined> {
  jail ??= new Promise((resolve) => {
    // Without rg or its shell there is nothing to jail: each call says which is missing.
    const [rg, sh] = [onPath("rg"), findShell()];
    if (!rg || !sh) return resolve(undefined);
    const binds = [...SYSTEM, rg, sh].flatMap((path) => ["--ro-bind-try", path, path]);
    const bwrap = ["--unshare-all", "--die-with-parent", "--new-session", ...binds, "--ro-bind", `/proc/self/fd/${HELD_FD}`, SEARCH_ROOT];
    // Probed with / standing in for a root (rg --version reads nothing).
    const stand = openSync("/", constants.O_RDONLY | constants.O_DIRECTORY);
    // As every call runs it: the limiting shell must start in there too.
    const probe = spawn("bwrap", [...bwrap, ...limitedRg(rg, ["--version"])], {
      stdio: ["ignore", "ignore", "ignore", stand],
      timeout: PROBE_MS,
      killSignal: "SIGKILL",
    });
    // A spawn that fails (no bwrap) emits "error" and then "close": only the first settles.
    let settled = false;
    const settle = (usable: boolean) => {
      if (settled) return;
      settled = true;
      closeSync(stand);
      resolve(usable ? { bwrap, rg } : undefined);
    };
    probe.once("error", () => settle(false));
    probe.once("close", (code) => settle(code === 0));
  });
  return jail;
}

export interface RipgrepOptions {
  /** A held directory (confine.ts): rg starts there and, never following symlinks, walks below it. */
  cwd: string;
  /** The served root's descriptor and the searched directory's path below it: given, rg runs jailed in that root where bwrap can. */
  jail?: { rootFd: number; below: string };
  /** A file descriptor rg reads as its input (with the path "-"), instead of walking. */
  stdin?: number;
  signal: AbortSignal;
  /** Record separator of the output: "\n" for --json, "\0" for --files --null. */
  separator: "\n" | "\0";
}

/** A path rg lists, held whole: no path is long. */
class PathRecord {
  private pieces: string[] = [];
  add(piece: string): void {
    this.pieces.push(piece);
  }
  take(): string {
    const whole = this.pieces.join("");
    this.pieces = [];
    return whole;
  }
}

/** Yields rg's output records. Exit 1 (nothing found) is not an error; exit 2 is, unless output came. */
export async function* ripgrep(args: string[], options: RipgrepOptions): AsyncGenerator<string> {
  options.signal.throwIfAborted();
  const jail = options.jail && (await jailed());
  options.signal.throwIfAborted();
  const child = (
    jail && options.jail
      ? spawn("bwrap", [...jail.bwrap, "--chdir", join(SEARCH_ROOT, options.jail.below), ...limitedRg(jail.rg, args)], {
          stdio: ["ignore", "pipe", "pipe", options.jail.rootFd],
        })
      : spawnArgv(limitedRg("rg", args), { cwd: options.cwd, stdio: [options.stdin ?? "ignore", "pipe", "pipe"] })
  ) as ChildProcessByStdio<null, Readable, Readable>;
  const kill = () => child.kill("SIGKILL");
  options.signal.addEventListener("abort", kill, { once: true });
  // A walk (not one file on stdin) may meet an ignore file that is a FIFO.
  const release =
    options.jail && options.stdin === undefined
      ? releaseIgnoreFifos(options.jail, jail ? SEARCH_ROOT : undefined, options.signal)
      : undefined;
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    if (stderr.length < 4096) stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    // An allocation over the limit aborts rg: SIGABRT, which bwrap passes on as 128 + 6.
    child.once("close", (code, signal) => (signal === "SIGABRT" || code === 134 ? reject(new Error("out of memory")) : resolve(code)));
  });
  exited.catch(() => {}); // observed below; avoid an unhandled rejection while iterating
  let produced = false;
  try {
    // The unfinished record: held in pieces, joined once it ends (splitting what came so far again at every chunk
    // made a record of one long line quadratic); a JSON one within a bound (rg-json-record.ts), a path whole.
    const record = options.separator === "\n" ? new RgJsonRecord() : new PathRecord();
    for await (const chunk of child.stdout.setEncoding("utf8") as AsyncIterable<string>) {
      release?.heard();
      let from = 0;
      for (let end = chunk.indexOf(options.separator); end !== -1; end = chunk.indexOf(options.separator, from)) {
        record.add(chunk.slice(from, end));
        from = end + 1;
        produced = true;
        yield record.take();
      }
      if (from < chunk.length) record.add(chunk.slice(from));
    }
    // Killed, rg leaves a record unfinished: only a whole last one (no separator after it) is yielded.
    options.signal.throwIfAborted();
    const last = record.take();
    if (last !== "") {
      produced = true;
      yield last;
    }
    const code = await exited.catch((error: unknown) => {
      if (errnoOf(error) === "ENOENT") throw notInstalled();
      if ((error as Error).message === "out of memory") {
        throw new FsError(
          `ripgrep needed more than ${MAX_DATA_KIB / 1024 / 1024} GiB (a file it reads whole, such as a .gitignore, is that large)`,
          "list or search a narrower path",
        );
      }
      throw error;
    });
    options.signal.throwIfAborted();
    // The limiting shell's word for a program it cannot find.
    if (code === 127 && !produced) throw notInstalled();
    if (code === 2 && !produced) throw new FsError(`ripgrep failed: ${stderr.trim() || "exit status 2"}`);
  } finally {
    release?.stop();
    options.signal.removeEventListener("abort", kill);
    if (child.exitCode === null && child.signalCode === null) kill();
  }
}

const notInstalled = () => new FsError("ripgrep (rg) is not installed", "install ripgrep (Debian: apt install ripgrep; Nix: pkgs.ripgrep)");
