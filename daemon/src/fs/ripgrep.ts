// Runs ripgrep and yields its output records as they arrive, so callers can stop early. Stopping
// (breaking out of the loop) or aborting the signal kills rg at once.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";
import { errnoOf, FsError } from "./errors.js";

export interface RipgrepOptions {
  /** A held directory (confine.ts): rg starts there and, never following symlinks, walks below it. */
  cwd: string;
  /** A file descriptor rg reads as its input (with the path "-"), instead of walking. */
  stdin?: number;
  signal: AbortSignal;
  /** Record separator of the output: "\n" for --json, "\0" for --files --null. */
  separator: "\n" | "\0";
}

/** Yields rg's output records. Exit 1 (nothing found) is not an error; exit 2 is, unless output came. */
export async function* ripgrep(args: string[], options: RipgrepOptions): AsyncGenerator<string> {
  options.signal.throwIfAborted();
  const child = spawn("rg", args, { cwd: options.cwd, stdio: [options.stdin ?? "ignore", "pipe", "pipe"] }) as ChildProcessByStdio<null, Readable, Readable>;
  const kill = () => child.kill("SIGKILL");
  options.signal.addEventListener("abort", kill, { once: true });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    if (stderr.length < 4096) stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve(code));
  });
  exited.catch(() => {}); // observed below; avoid an unhandled rejection while iterating
  let produced = false;
  try {
    let rest = "";
    for await (const chunk of child.stdout.setEncoding("utf8") as AsyncIterable<string>) {
      const records = (rest + chunk).split(options.separator);
      rest = records.pop()!;
      for (const record of records) {
        produced = true;
        yield record;
      }
    }
    if (rest) {
      produced = true;
      yield rest;
    }
    const code = await exited.catch((error: unknown) => {
      if (errnoOf(error) === "ENOENT") {
        throw new FsError("ripgrep (rg) is not installed", "install ripgrep (Debian: apt install ripgrep; Nix: pkgs.ripgrep)");
      }
      throw error;
    });
    options.signal.throwIfAborted();
    if (code === 2 && !produced) throw new FsError(`ripgrep failed: ${stderr.trim() || "exit status 2"}`);
  } finally {
    options.signal.removeEventListener("abort", kill);
    if (child.exitCode === null && child.signalCode === null) kill();
  }
}
