// One running session kernel: starts it, runs one call at a time in it and tells what became of it.
// A call ends when the kernel's reply and the call's marker on both output streams have arrived.
// On timeout or cancellation the call's code is interrupted (SIGINT); if the kernel does not answer
// within a grace period, it is killed and the session loses its state. A kernel that exits during a
// call (os._exit, `exit`, process.exit) is reported with its exit code.
import { constants } from "node:os";
import type { Writable } from "node:stream";
import { egressMark, egressSince } from "../../jail/egress/jail-egress.js";
import { DRAIN_MS, limitHitIn, type JailResult } from "../../jail/runner.js";
import { CappedOutput, type CapturedStreams, capturedStreams, type OpenSpool, READ_BUFFER_BYTES } from "../../jail/output.js";
import type { Environment } from "../../discovery/types.js";
import { kernelStdio, type KernelLauncher, type LaunchedKernel } from "./launcher.js";
import { MarkedStream } from "./marked-stream.js";
import { encodeRequest, newMarker, REPLY_FD, REQUEST_FD, ReplyParser, type KernelReply } from "./protocol.js";

/** How long interrupted code gets to stop before the kernel is killed. */
const INTERRUPT_GRACE_MS = 2000;
/** How long a kernel may take to start and say it is ready. */
const START_TIMEOUT_MS = 30_000;

export interface KernelCall {
  code: string;
  stdin?: string;
  timeoutMs: number;
  maxOutputBytes: number;
  /** Where a stream goes whole once it outgrows maxOutputBytes. */
  spool?: OpenSpool;
  signal?: AbortSignal;
  /** Told while the call waits for a free jail (see Session). */
  onWait?: (ahead: number, running: number) => void;
}

/** A call's result, shaped as a one-off run's (no signal: the kernel outlives its calls), and what became of the kernel. */
export interface KernelOutcome extends Omit<JailResult, "signal"> {
  /** alive: state kept; interrupted: stopped by SIGINT, state kept; dead: the kernel is gone. */
  kernel: "alive" | "interrupted" | "dead";
  /** Why the kernel is gone, when it is. */
  ended?: string;
  /** Bytes at the start of each stream that arrived before the call began (earlier code still running). */
  earlier: { stdout: number; stderr: number };
}

type Done = Extract<KernelReply, { kind: "done" }>;

const sleep = (ms: number) => new Promise<"timeout">((resolve) => setTimeout(resolve, ms, "timeout").unref());

export class Kernel {
  private nextId = 0;
  private awaiting?: { id: number; resolve: (reply: Done) => void };
  private readonly stdout: MarkedStream;
  private readonly stderr: MarkedStream;
  private readonly requests: Writable;
  /** Stops reading the output streams (once the kernel is gone and they were drained). */
  private readonly closeStreams: () => void;
  /** Resolves with a description of how the kernel process ended. */
  readonly exited: Promise<{ exitCode: number | null; description: string }>;
  /** How the kernel ended, once it has (undefined while it lives). */
  private endedAs?: string;
  /** Why the kernel was stopped, when it sent something that is not a reply. */
  private brokeProtocol?: string;

  private constructor(
    private readonly launched: LaunchedKernel,
    streams: { stdout: MarkedStream; stderr: MarkedStream; close(): void },
    onReady: (pid: number) => void,
  ) {
    const { child } = launched;
    this.stdout = streams.stdout;
    this.stderr = streams.stderr;
    this.closeStreams = streams.close;
    this.requests = child.stdio[REQUEST_FD] as Writable;
    this.requests.on("error", () => {}); // a dead kernel is reported through `exited`
    // One "ready", then at most one "done" per call sent: more (the code can write to fd 4 too) breaks the protocol.
    let replies = 0;
    const parser = new ReplyParser((reply) => {
      if (++replies > 1 + this.nextId || (reply.kind === "ready") !== (replies === 1) || (reply.kind === "done" && reply.id > this.nextId))
        throw new Error(`session kernel sent a reply out of turn: ${reply.kind}`);
      if (reply.kind === "ready") onReady(reply.pid);
      else if (this.awaiting?.id === reply.id) this.awaiting.resolve(reply);
      // A reply to an abandoned call is dropped: never given to a later one.
    });
    const replyStream = child.stdio[REPLY_FD]!;
    replyStream.on("data", (chunk: Buffer) => {
      if (this.brokeProtocol) return;
      try {
        parser.push(chunk);
      } catch (error) {
        // A kernel that breaks the reply protocol gets no more calls: stopped, and that is said as how it ended.
        this.brokeProtocol = `was stopped: ${(error as Error).message}`;
        replyStream.destroy();
        void this.stop();
      }
    });
    replyStream.on("error", () => {});
    this.exited = new Promise((resolve) => {
      child.once("error", (error) => resolve({ exitCode: null, description: `could not start: ${error.message}` }));
      child.once("exit", (code, signal) => {
        const exitCode = code ?? (signal ? 128 + signalNumber(signal) : null);
        resolve({ exitCode, description: this.brokeProtocol ?? (signal ? `was killed by ${signal}` : `exited with code ${code}`) });
      });
    });
    void this.exited.then(({ description }) => (this.endedAs = description));
  }

  /** Starts a kernel and waits until it is ready for calls. */
  static async start(launcher: KernelLauncher, env: Environment, maxOutputBytes: number): Promise<Kernel> {
    let ready!: () => void;
    const isReady = new Promise<"ready">((resolve) => (ready = () => resolve("ready")));
    const [stdout, stderr] = await Promise.all([MarkedStream.open(maxOutputBytes), MarkedStream.open(maxOutputBytes)]);
    let launched: LaunchedKernel;
    try {
      launched = launcher(env, kernelStdio(stdout.writer, stderr.writer));
    } finally {
      // The kernel has its own copies; ours would keep the streams open after it is gone.
      stdout.writer.destroy();
      stderr.writer.destroy();
    }
    const close = () => {
      stdout.close();
      stderr.close();
    };
    const kernel = new Kernel(launched, { stdout: stdout.stream, stderr: stderr.stream, close }, ready);
    const outcome = await Promise.race([isReady, kernel.exited, sleep(START_TIMEOUT_MS)]);
    if (outcome === "ready") return kernel;
    await kernel.stop();
    const why = outcome === "timeout" ? `did not start within ${START_TIMEOUT_MS / 1000} s` : outcome.description;
    const errors = kernel.stderr.unclaimed().trim();
    throw new Error(`the ${env.interpreter} session kernel of '${env.name}' ${why}${errors ? `: ${errors}` : ""}`);
  }

  /** What the kernel's jail could not get as decided (see LaunchedKernel). */
  get notice(): string | undefined {
    return this.launched.notice;
  }

  /** How the kernel process ended, or undefined while it lives. */
  get ended(): string | undefined {
    return this.endedAs;
  }

  async call(call: KernelCall): Promise<KernelOutcome> {
    const started = performance.now();
    const egressFrom = egressMark(this.launched.egress);
    const id = ++this.nextId;
    const marker = newMarker();
    const stdout = new CappedOutput(call.maxOutputBytes, READ_BUFFER_BYTES, call.spool && (() => call.spool?.("stdout")));
    const stderr = new CappedOutput(call.maxOutputBytes, READ_BUFFER_BYTES, call.spool && (() => call.spool?.("stderr")));
    let reply: Done | undefined;
    const replied = new Promise<void>((resolve) => {
      const onReply = (done: Done) => {
        reply = done;
        resolve();
      };
      this.awaiting = { id, resolve: onReply };
    });
    const earlier = { stdout: this.stdout.waitingBytes, stderr: this.stderr.waitingBytes };
    const finished = Promise.all([replied, this.stdout.begin(marker, stdout), this.stderr.begin(marker, stderr)]).then(
      () => "finished" as const,
    );
    this.requests.write(encodeRequest({ id, marker, code: Buffer.from(call.code), stdin: Buffer.from(call.stdin ?? "") }));

    let timedOut = false;
    let cancelled = false;
    const stopped = new Promise<"stop">((resolve) => {
      const timer = setTimeout(() => {
        timedOut = true;
        resolve("stop");
      }, call.timeoutMs);
      const onAbort = () => {
        cancelled = true;
        resolve("stop");
      };
      call.signal?.addEventListener("abort", onAbort, { once: true });
      if (call.signal?.aborted) onAbort();
      void finished.then(() => {
        clearTimeout(timer);
        call.signal?.removeEventListener("abort", onAbort);
      });
      void this.exited.then(() => clearTimeout(timer));
    });

    const first = await Promise.race([finished, this.exited, stopped]);
    let outcome: "finished" | Awaited<Kernel["exited"]>;
    let killed = false;
    if (first === "stop") {
      this.launched.interrupt();
      const second = await Promise.race([finished, this.exited, sleep(INTERRUPT_GRACE_MS)]);
      if (second === "timeout") {
        killed = true;
        await this.stop();
        outcome = await this.exited;
      } else outcome = second;
    } else outcome = first;
    this.awaiting = undefined;
    const base = {
      earlier,
      durationMs: Math.round(performance.now() - started),
      timedOut,
      cancelled,
      ...(await egressSince(this.launched.egress, egressFrom)),
    };
    if (outcome === "finished") {
      return {
        ...base,
        ...texts(stdout, stderr),
        exitCode: reply!.exitCode,
        kernel: reply!.interrupted || timedOut || cancelled ? "interrupted" : "alive",
      };
    }
    // The kernel is gone: what it wrote before dying is still on its way.
    await this.drainStreams();
    const output = texts(stdout, stderr);
    const limitHit = limitHitIn(output.stderr);
    let ended = outcome.description;
    if (killed) ended = `was killed: it did not stop within ${INTERRUPT_GRACE_MS / 1000} s of SIGINT`;
    else if (limitHit) ended = `was stopped by the jail's ${limitHit === "memory" ? "memory" : "process"} limit (${outcome.description})`;
    return { ...base, ...output, exitCode: outcome.exitCode, kernel: "dead", ended, ...(limitHit ? { limitHit } : {}) };
  }

  /** Kills the kernel (and its jail). */
  async stop(): Promise<void> {
    this.requests.end();
    await this.launched.stop();
    await this.drainStreams();
  }

  /** Waits (at most DRAIN_MS) for the output the gone kernel left on its way, then stops reading. */
  private async drainStreams(): Promise<void> {
    await Promise.race([Promise.all([this.stdout.closed(), this.stderr.closed()]), sleep(DRAIN_MS)]);
    this.closeStreams();
  }
}

function texts(stdout: CappedOutput, stderr: CappedOutput): CapturedStreams {
  stdout.close();
  stderr.close();
  return capturedStreams(stdout, stderr);
}

function signalNumber(signal: NodeJS.Signals): number {
  return constants.signals[signal] ?? 0;
}
