// One named session: an environment, the kernel currently serving it (started on the first call,
// restarted after it died) and a queue, so that concurrent calls run one at a time in arrival order.
// What the agent must know (state lost, interrupted, a fresh start) comes back as notices.
import { holdSlot, type JailBudget } from "../../jail/budget.js";
import type { Environment } from "../../discovery/types.js";
import { SandboxError } from "../errors.js";
import { Kernel, type KernelCall, type KernelOutcome } from "./kernel.js";
import type { KernelLauncher } from "./launcher.js";

export interface SessionResult extends Omit<KernelOutcome, "kernel" | "ended" | "earlier"> {
  /** What happened to the session's state, one sentence each. */
  notices: string[];
}

export interface SessionInfo {
  id: string;
  env: string;
  ageSeconds: number;
  idleSeconds: number;
  calls: number;
  busy: boolean;
}

export interface SessionDeps {
  launcher: KernelLauncher;
  now: () => number;
  /** A call (with the kernel's start, when it needs one) holds one of the daemon's jail slots; an idle kernel holds none. */
  budget?: JailBudget;
}

export class Session {
  readonly createdAt: number;
  lastUsedAt: number;
  calls = 0;
  private queued = 0;
  private kernel?: Kernel;
  private tail: Promise<unknown> = Promise.resolve();
  /** Said in the next call's result (why its state is gone). */
  private pendingNotice?: string;
  private closed = false;

  constructor(
    readonly id: string,
    readonly env: Environment,
    private readonly deps: SessionDeps,
    notice?: string,
  ) {
    this.createdAt = this.lastUsedAt = deps.now();
    this.pendingNotice = notice;
  }

  get busy(): boolean {
    return this.queued > 0;
  }

  info(): SessionInfo {
    const now = this.deps.now();
    return {
      id: this.id,
      env: this.env.name,
      ageSeconds: Math.round((now - this.createdAt) / 1000),
      idleSeconds: this.busy ? 0 : Math.round((now - this.lastUsedAt) / 1000),
      calls: this.calls,
      busy: this.busy,
    };
  }

  /** Runs the call after every call that arrived before it. */
  run(call: KernelCall): Promise<SessionResult> {
    this.queued++;
    const result = this.tail.then(() => this.execute(call));
    this.tail = result.catch(() => {}); // The queue only waits for the call; its failure is reported through `result`.
    return result.finally(() => {
      this.queued--;
      this.lastUsedAt = this.deps.now();
    });
  }

  /** Kills the kernel; calls still queued fail with a clear error. */
  async close(): Promise<void> {
    this.closed = true;
    const kernel = this.kernel;
    this.kernel = undefined;
    await kernel?.stop();
  }

  private async execute(call: KernelCall): Promise<SessionResult> {
    const slot = await holdSlot(this.deps.budget, { signal: call.signal, timeoutMs: call.timeoutMs, onWait: call.onWait });
    try {
      return { ...(await this.executeHolding({ ...call, timeoutMs: slot.timeoutMs })), ...slot.waited };
    } finally {
      slot.release();
    }
  }

  private async executeHolding(call: KernelCall): Promise<SessionResult> {
    if (this.closed) {
      throw new SandboxError(
        `session '${this.id}' was closed while this call waited`,
        "Run the code again: a new call starts a fresh session.",
      );
    }
    const notices: string[] = [];
    if (this.pendingNotice) notices.push(this.pendingNotice);
    this.pendingNotice = undefined;
    if (this.kernel?.ended !== undefined) {
      notices.push(
        `Fresh session: the previous one ended between calls (the session's ${this.env.interpreter} ${this.kernel.ended}); its state is gone.`,
      );
      this.kernel = undefined;
    }
    if (!this.kernel) {
      try {
        this.kernel = await Kernel.start(this.deps.launcher, this.env, call.maxOutputBytes);
      } catch (error) {
        throw new SandboxError(
          `session '${this.id}': ${(error as Error).message}`,
          "Run `nixshed doctor` to check the environment's artifact.",
        );
      }
      if (this.kernel.notice) notices.push(`This session's jail: ${this.kernel.notice}.`);
    }
    this.calls++;
    const { kernel, ended, earlier, ...outcome } = await this.kernel.call(call);
    const late = (["stdout", "stderr"] as const)
      .filter((stream) => earlier[stream] > 0)
      .map((stream) => `${earlier[stream]} bytes of ${stream}`);
    if (late.length > 0) {
      notices.push(
        `The first ${late.join(" and the first ")} came between calls, from code still running after its call ended (a timer, a callback or a background job).`,
      );
    }
    if (kernel === "interrupted") {
      notices.push(`Interrupted with SIGINT (${outcome.timedOut ? "timeout" : "cancelled"}); the session kept its state.`);
    } else if (kernel === "dead" && this.closed) {
      notices.push(`Session '${this.id}' was closed while this call ran (close_session, a session limit or shutdown); its state is gone.`);
    } else if (kernel === "dead") {
      const why = `the session's ${this.env.interpreter} ${ended}`;
      notices.push(`Session '${this.id}' ended: ${why}. Its state is lost; the next call starts a fresh session.`);
      this.pendingNotice = `Fresh session: the previous one ended (${why}); variables, imports and /workspace files are gone.`;
      this.kernel = undefined;
    }
    return { ...outcome, notices };
  }
}
