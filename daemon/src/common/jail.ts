// The one way the daemon starts an environment artifact's jail (bin/run, bin/session-run): the run
// tool, sessions and nixpkgs execution all go through here, so the jail always gets the same
// per-call decisions (NIXSHED_JAIL_* variables), the same process-tree kill and the same bounded
// output capture.
//
// bin/run puts its jail in a fresh cgroup (or rlimits) and removes that cgroup when it exits or
// receives SIGTERM; bwrap's --die-with-parent and the jail's own pid namespace take every process of
// the jail down with it. So stopping a jail is: SIGTERM to bin/run's process group, SIGKILL after a
// grace period.
import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import type { Writable } from "node:stream";
import type { ProjectAccess } from "../config/schema.js";
import { openCapture } from "./output.js";
import { requireStorePath } from "./store.js";

export type LimitHit = "memory" | "processes";

export interface JailAccess {
  /** Host directory mounted at /project inside the jail. */
  projectDir?: string;
  /** Access asked for; bin/run caps it at the artifact's own projectAccess. */
  projectAccess?: ProjectAccess;
}

export interface JailCall extends JailAccess {
  /** Store path of the environment artifact. */
  artifact: string;
  /** Code for the environment's interpreter (passed on a descriptor of its own, never in argv). */
  code?: string;
  /** A program of the environment and its arguments, run instead of code. */
  argv?: string[];
  /** The program's standard input. */
  stdin?: string | Buffer;
  timeoutMs: number;
  /** Cap per output stream; head and tail are kept. */
  maxOutputBytes: number;
  signal?: AbortSignal;
}

export interface JailResult {
  stdout: string;
  stderr: string;
  /** bin/run's exit code: the program's, or 128+N when the program died of signal N. */
  exitCode: number | null;
  /** Set when bin/run itself was killed (timeout or cancellation). */
  signal?: NodeJS.Signals;
  durationMs: number;
  timedOut: boolean;
  cancelled: boolean;
  /** Bytes dropped from the middle of each stream. */
  truncated: { stdout: number; stderr: number };
  /** A limit of the jail that the program ran into. */
  limitHit?: LimitHit;
}

/** How long a jail gets to clean up after SIGTERM before SIGKILL. */
const STOP_GRACE_MS = 1000;
/** How long output may still arrive after bin/run (or bin/session-run) exited (the jail's processes die with it). */
export const DRAIN_MS = 2000;
/** The descriptor bin/run reads code from when NIXSHED_JAIL_CODE_FD names it. */
const CODE_FD = 3;
/** Host variables bin/run may need outside the jail (systemd-run --user); the jail itself starts from an empty environment. */
const PASSED_THROUGH = ["PATH", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS"];
/** What bin/run writes on stderr when a limit stopped the program (see nix/backends/bubblewrap.nix). */
const LIMIT_LINE = /^nixshed jail: (memory|process) limit reached/m;

/** The jail limit a program ran into, from what bin/run (or bin/session-run) said on stderr. */
export function limitHitIn(stderr: string): LimitHit | undefined {
  const limit = LIMIT_LINE.exec(stderr)?.[1];
  return limit === undefined ? undefined : limit === "memory" ? "memory" : "processes";
}

const runPath = (artifact: string) => `${artifact}/bin/run`;
export const sessionRunPath = (artifact: string) => `${artifact}/bin/session-run`;

/** The environment for bin/run or bin/session-run: the per-call decisions as NIXSHED_JAIL_* variables. */
export function jailEnv(access: JailAccess, host: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of PASSED_THROUGH) {
    const value = host[name];
    if (value) env[name] = value;
  }
  if (access.projectDir && access.projectAccess && access.projectAccess !== "none") {
    env.NIXSHED_JAIL_PROJECT_DIR = access.projectDir;
    env.NIXSHED_JAIL_PROJECT_ACCESS = access.projectAccess;
  }
  return env;
}

/**
 * Starts a jail program in a process group of its own, so that stopJail reaches all of it. The
 * host runs only what Nix built: the program must resolve inside the store (NotInStore otherwise),
 * and what was checked is what starts.
 */
export function spawnJail(program: string, args: string[], env: Record<string, string>, stdio: StdioOptions): ChildProcess {
  return spawn(requireStorePath(program, "jail program"), args, { env, stdio, detached: true });
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** SIGTERM to the jail's process group (bin/run then removes its cgroup), SIGKILL after the grace period. */
export function stopJail(child: ChildProcess, graceMs = STOP_GRACE_MS): Promise<void> {
  if (exited(child) || child.pid === undefined) return Promise.resolve();
  const pid = child.pid;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // Already gone.
    }
  };
  return new Promise((resolve) => {
    const force = setTimeout(() => signalGroup("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    signalGroup("SIGTERM");
  });
}

/** bin/session-run: interrupts the code running in the session (SIGINT to every process of the jail); the session lives on. */
export function interruptJail(child: ChildProcess): void {
  if (!exited(child)) child.kill("SIGINT");
}

function feed(stream: Writable | null | undefined, data: string | Buffer | undefined): void {
  if (!stream) return;
  // The program may exit without reading everything; that is not an error of ours.
  stream.on("error", () => {});
  stream.end(data ?? "");
}

/** Runs code (or argv) once in the artifact's jail and returns its bounded output. */
export async function runInJail(call: JailCall): Promise<JailResult> {
  if ((call.code === undefined) === (call.argv === undefined)) {
    throw new Error("runInJail: give exactly one of code and argv");
  }
  const program = requireStorePath(runPath(call.artifact), "jail program");
  const [stdout, stderr] = await Promise.all([openCapture(call.maxOutputBytes), openCapture(call.maxOutputBytes)]);
  const env = jailEnv(call);
  const stdio: StdioOptions = ["pipe", stdout.writer, stderr.writer];
  if (call.code !== undefined) {
    env.NIXSHED_JAIL_CODE_FD = String(CODE_FD);
    stdio.push("pipe");
  }
  const started = performance.now();
  const child = spawnJail(program, call.argv ? ["--", ...call.argv] : [], env, stdio);
  // The child has its own copies; ours would keep the streams open.
  stdout.writer.destroy();
  stderr.writer.destroy();
  feed(child.stdin, call.stdin);
  if (call.code !== undefined) feed(child.stdio[CODE_FD] as Writable, call.code);

  let timedOut = false;
  let cancelled = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void stopJail(child);
  }, call.timeoutMs);
  const onAbort = () => {
    cancelled = true;
    void stopJail(child);
  };
  call.signal?.addEventListener("abort", onAbort, { once: true });
  if (call.signal?.aborted) onAbort();

  try {
    const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      child.once("error", (error) => reject(new Error(`cannot start ${runPath(call.artifact)}: ${error.message}`)));
      child.once("exit", (code, signal) => resolve([code, signal]));
    });
    const drained = new Promise((resolve) => setTimeout(resolve, DRAIN_MS).unref());
    await Promise.race([Promise.all([stdout.finished, stderr.finished]), drained]);
    const stderrText = stderr.output.text();
    const limit = limitHitIn(stderrText);
    return {
      stdout: stdout.output.text(),
      stderr: stderrText,
      exitCode,
      ...(signal ? { signal } : {}),
      durationMs: Math.round(performance.now() - started),
      timedOut,
      cancelled,
      truncated: { stdout: stdout.output.droppedBytes, stderr: stderr.output.droppedBytes },
      ...(limit ? { limitHit: limit } : {}),
    };
  } finally {
    clearTimeout(timer);
    call.signal?.removeEventListener("abort", onAbort);
    stdout.close();
    stderr.close();
  }
}
