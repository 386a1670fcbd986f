// The one way the daemon starts an environment artifact's jail (bin/run, bin/session-run): the run
// tool, sessions and nixpkgs execution all go through here with a decision of ./jail-policy.ts, so
// the jail always gets it the same way (NIXSHED_JAIL_* variables, the project's protections), the
// same process-tree kill, the same bounded output capture and the same global budget.
//
// bin/run puts its jail in a fresh cgroup (or rlimits) and removes that cgroup when it exits or
// receives SIGTERM; bwrap's --die-with-parent and the jail's own pid namespace take every process of
// the jail down with it. So stopping a jail is: SIGTERM to bin/run's process group, SIGKILL after a
// grace period.
import { type ChildProcess, execFile, type StdioOptions, spawn } from "node:child_process";
import type { Writable } from "node:stream";
import { checkArgv } from "./argv.js";
import { holdSlot, type JailBudget } from "./budget.js";
import type { JailPolicy } from "./policy.js";
import { EGRESS_SOCKET_VARIABLE, egressSince, openEgress } from "./egress/jail-egress.js";
import type { EgressProxy } from "./egress/proxy.js";
import type { EgressReport } from "./egress/report.js";
import { guardProject } from "./protection.js";
import type { Logger } from "../log.js";
import { capturedStreams, type OpenSpool, openCapture } from "./output.js";
import { requireStorePath } from "../files/store.js";

export type LimitHit = "memory" | "processes";

export interface JailCall {
  /** Store path of the environment artifact. */
  artifact: string;
  policy: JailPolicy;
  /** Code for the environment's interpreter (passed on a descriptor of its own, never in argv). */
  code?: string;
  /** A program of the environment and its arguments, run instead of code. */
  argv?: string[];
  /** The program's standard input. */
  stdin?: string | Buffer;
  signal?: AbortSignal;
  /** The jails running at once; the call waits for a slot (its wait counts against its time limit). */
  budget?: JailBudget;
  /** Told while the call waits for a slot. */
  onWait?: (ahead: number, running: number) => void;
  /** Where the egress proxy (a network allow-list) logs its decisions. */
  log?: Logger;
  /** Where a stream goes whole once it outgrows the policy's maxOutputBytes. */
  spool?: OpenSpool;
}

export interface JailResult {
  stdout: string;
  stderr: string;
  /** bin/run's exit code: the program's, or 128+N when the program died of signal N. */
  exitCode: number | null;
  /** Set when bin/run itself was killed (timeout or cancellation). */
  signal?: NodeJS.Signals;
  durationMs: number;
  /** How long the call waited for a free jail (sandbox.max_jails), part of its timeout; absent when it did not wait. */
  waitedMs?: number;
  timedOut: boolean;
  cancelled: boolean;
  /** Bytes each stream's text leaves out of its middle. */
  truncated: { stdout: number; stderr: number };
  /** The files holding all of a stream whose text shows only its ends. */
  outputIn?: { stdout?: string; stderr?: string };
  /** A limit of the jail that the program ran into. */
  limitHit?: LimitHit;
  /** Why the program given as argv never started (bwrap's execvp failed: "No such file or directory"). */
  notStarted?: string;
  /** What the egress proxy allowed and blocked (a jail with an allow-list that used the network). */
  network?: EgressReport;
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

/** What execvp's failures read as (ENOENT, EACCES, ENOEXEC, ENOTDIR, ELOOP, ETXTBSY). */
const EXEC_FAILURES = new Set([
  "No such file or directory",
  "Permission denied",
  "Exec format error",
  "Not a directory",
  "Too many levels of symbolic links",
  "Text file busy",
]);

/**
 * Why bwrap could not start the program, when its whole stderr says so: `bwrap: execvp <program>: <failure>`,
 * exit 1, nothing on stdout. A jail with a network allow-list starts the program through its relay, not
 * bwrap, so there such a line can only be the program's own.
 */
export function notStartedIn(
  argv: readonly string[] | undefined,
  policy: JailPolicy,
  result: { exitCode: number | null; stdout: string; stderr: string },
): string | undefined {
  if (!argv || typeof policy.network === "object" || result.exitCode !== 1 || result.stdout !== "") return undefined;
  const said = `bwrap: execvp ${argv[0]}: `;
  const failure = result.stderr.startsWith(said) ? result.stderr.slice(said.length).replace(/\n$/, "") : "";
  return EXEC_FAILURES.has(failure) ? failure : undefined;
}

/** The jail limit a program ran into, from what bin/run (or bin/session-run) said on stderr. */
export function limitHitIn(stderr: string): LimitHit | undefined {
  const limit = LIMIT_LINE.exec(stderr)?.[1];
  return limit === undefined ? undefined : limit === "memory" ? "memory" : "processes";
}

const runPath = (artifact: string) => `${artifact}/bin/run`;
export const sessionRunPath = (artifact: string) => `${artifact}/bin/session-run`;

/** How bin/run enforces memory and process limits: a cgroup (v1, as root), a systemd scope (v2), or rlimits. */
export type LimitMechanism = "cgroup1" | "systemd" | "rlimit";
const MECHANISMS: readonly string[] = ["cgroup1", "systemd", "rlimit"] satisfies LimitMechanism[];

/**
 * The mechanism the artifact's bin/run picks here, with the host variables a jail gets: bin/run
 * decides it (nix/backends/jail.bash), so the daemon asks instead of deciding a second time.
 */
export function jailLimits(artifact: string, host: NodeJS.ProcessEnv = process.env): Promise<LimitMechanism> {
  const env = passedThrough(host);
  return new Promise((resolve, reject) => {
    execFile(requireStorePath(runPath(artifact), "jail program"), ["--limits"], { env, timeout: 10_000 }, (error, stdout, stderr) => {
      const answer = stdout.trim();
      if (!error && MECHANISMS.includes(answer)) resolve(answer as LimitMechanism);
      else reject(new Error(`${runPath(artifact)} --limits: ${(stderr || answer || error?.message || "no answer").trim()}`));
    });
  });
}

/** A jail's per-call environment (bin/run's NIXSHED_JAIL_* variables), held until the jail has ended. */
export interface PreparedJail {
  env: Record<string, string>;
  /** Said to the caller: a decision the jail could not carry out as made (the project given read-only instead). */
  notice?: string;
  /** Frees what the jail held (the protections' placeholders, the egress proxy); call once its processes are gone. */
  release(): void;
  /** The jail's egress proxy, when its network is an allow-list: its decisions are the calls' reports. */
  egress?: EgressProxy;
}

/**
 * Turns a policy into bin/run's (or bin/session-run's) environment: the project (protected for a
 * read-write jail) and, for a network allow-list, the egress proxy the jail reaches it through.
 */
export function prepareJail(
  policy: JailPolicy,
  host: NodeJS.ProcessEnv = process.env,
  egressLog?: { log?: Logger; label?: string },
): PreparedJail {
  const jail = prepareProject(policy, host);
  if (typeof policy.network !== "object") return jail;
  const egress = openEgress(policy.network.allow, egressLog?.log, egressLog?.label);
  if (!egress) return jail;
  jail.env[EGRESS_SOCKET_VARIABLE] = egress.socketPath;
  return {
    ...jail,
    egress,
    release() {
      jail.release();
      void egress.close();
    },
  };
}

/** The artifact's name without its store hash, which says in a log line which jail it is about. */
export const jailLabel = (artifact: string): string => artifact.slice(artifact.lastIndexOf("/") + 34);

/** The host variables bin/run itself may need (PASSED_THROUGH), as the host has them. */
function passedThrough(host: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of PASSED_THROUGH) {
    const value = host[name];
    if (value) env[name] = value;
  }
  return env;
}

function prepareProject(policy: JailPolicy, host: NodeJS.ProcessEnv): PreparedJail {
  const env = passedThrough(host);
  env.NIXSHED_JAIL_CWD = policy.cwd;
  const { project } = policy;
  if (!project) return { env, release() {} };
  env.NIXSHED_JAIL_PROJECT_DIR = project.dir;
  env.NIXSHED_JAIL_PROJECT_ACCESS = project.access;
  if (project.access === "ro") return { env, release() {} };
  const guard = guardProject(project.dir, project.protect);
  if (guard.readOnly) {
    env.NIXSHED_JAIL_PROJECT_ACCESS = "ro";
    return {
      env,
      notice: `the project is read-only in this jail: ${guard.reason}, which a read-write jail could redirect`,
      release: guard.release,
    };
  }
  if (guard.mounts.length > 0) env.NIXSHED_JAIL_PROTECT = guard.mounts.map(({ mode, path }) => `${mode} ${path}`).join("\n");
  return { env, release: guard.release };
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
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error; // ESRCH: already gone
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
  if (call.argv) checkArgv(call.argv);
  const { policy } = call;
  const program = requireStorePath(runPath(call.artifact), "jail program");
  const slot = await holdSlot(call.budget, { signal: call.signal, timeoutMs: policy.timeoutMs, onWait: call.onWait });
  const { timeoutMs } = slot;
  let jail: PreparedJail | undefined;
  try {
    jail = prepareJail(policy, process.env, { log: call.log, label: jailLabel(call.artifact) });
    const { spool } = call;
    const capture = (stream: "stdout" | "stderr") => openCapture(policy.maxOutputBytes, spool && (() => spool(stream)));
    const [stdout, stderr] = await Promise.all([capture("stdout"), capture("stderr")]);
    // No stdin is /dev/null, not an empty pipe: a program that reads a piped stdin instead of its
    // arguments' files (rg, fd, jq without a file) would read nothing.
    const stdio: StdioOptions = [call.stdin === undefined ? "ignore" : "pipe", stdout.writer, stderr.writer];
    if (call.code !== undefined) {
      jail.env.NIXSHED_JAIL_CODE_FD = String(CODE_FD);
      stdio.push("pipe");
    }
    const started = performance.now();
    const child = spawnJail(program, call.argv ? ["--", ...call.argv] : [], jail.env, stdio);
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
    }, timeoutMs);
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
      const streams = capturedStreams(stdout.output, stderr.output);
      const limit = limitHitIn(streams.stderr);
      const notStarted = notStartedIn(call.argv, policy, { exitCode, stdout: streams.stdout, stderr: streams.stderr });
      return {
        ...streams,
        stderr: jail.notice ? `nixshed: ${jail.notice}\n${streams.stderr}` : streams.stderr,
        exitCode,
        ...(signal ? { signal } : {}),
        durationMs: Math.round(performance.now() - started),
        ...slot.waited,
        timedOut,
        cancelled,
        ...(limit ? { limitHit: limit } : {}),
        ...(notStarted ? { notStarted } : {}),
        ...(await egressSince(jail.egress)),
      };
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener("abort", onAbort);
      stdout.close();
      stderr.close();
    }
  } finally {
    jail?.release();
    slot.release();
  }
}
