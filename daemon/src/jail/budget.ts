// The global jail budget: at most sandbox.max_jails jails run at once across `run`, session calls
// and `nixpkgs_execute`; more calls wait in one first-come queue of at most
// sandbox.max_queued_jails, and any beyond that are refused at once. A waiting call still obeys its
// cancellation and its own time limit (the wait counts against it), and hears where it stands.
import { ExpectedError } from "../expected-error.js";
import { SlotQueue, type SlotRequest } from "../slot-queue.js";

/** A wait for a free jail shorter than this is no wait worth saying in a result. */
const MIN_WAIT_SHOWN_MS = 10;

/** A call refused or given up by the budget. */
export class JailBudgetError extends ExpectedError {}

export class JailBudget {
  private readonly slots: SlotQueue;

  constructor(
    readonly maxJails: number,
    readonly maxQueued: number,
  ) {
    this.slots = new SlotQueue(maxJails);
  }

  /** Jails running now and calls waiting for one. */
  get usage(): { running: number; waiting: number } {
    return this.slots.usage;
  }

  /** Waits for a slot; resolves with the release function, which must be called once the jail has ended. */
  acquire(request: SlotRequest): Promise<() => void> {
    if (request.signal?.aborted) return Promise.reject(new JailBudgetError("cancelled before a jail started"));
    const { running, waiting } = this.slots.usage;
    if (this.slots.full && waiting >= this.maxQueued) {
      return Promise.reject(
        new JailBudgetError(
          `too many jails: ${running} running and ${waiting} waiting (sandbox.max_jails = ${this.maxJails}, sandbox.max_queued_jails = ${this.maxQueued})`,
          "Wait for running calls to finish before starting more.",
        ),
      );
    }
    return this.slots.acquire(request, {
      timedOut: (timeoutMs) =>
        new JailBudgetError(
          `no jail became free within ${timeoutMs / 1000} s (all ${this.maxJails} of sandbox.max_jails busy)`,
          "Try again later, or with a longer timeout_seconds.",
        ),
      cancelled: () => new JailBudgetError("cancelled while waiting for a free jail"),
    });
  }
}

/** A progress message for a waiting call. */
export const waitMessage = (ahead: number, running: number) =>
  `waiting for a free jail: ${running} running, ${ahead === 0 ? "next in line" : `${ahead} ahead in the queue`}`;

/** A slot held: its release, what is left of the call's time limit, and the wait when it is worth saying (waitedMs). */
export interface HeldSlot {
  release: () => void;
  timeoutMs: number;
  waited: { waitedMs?: number };
}

/** Waits for a slot of `budget` (without one, none is needed); the time waited comes off the call's limit. */
export async function holdSlot(budget: JailBudget | undefined, request: SlotRequest): Promise<HeldSlot> {
  const asked = performance.now();
  const release = budget ? await budget.acquire(request) : () => {};
  const waitedMs = Math.round(performance.now() - asked);
  return { release, timeoutMs: Math.max(1, request.timeoutMs - waitedMs), waited: waitedMs >= MIN_WAIT_SHOWN_MS ? { waitedMs } : {} };
}
