// At most a number of things at once (jails, package builds); more callers wait in one first-come queue,
// each obeying its cancellation and its own time limit, and told where it stands as it moves up. A slot
// let go passes straight to the next in line, so a caller arriving meanwhile cannot take it as well.

export interface SlotRequest {
  signal?: AbortSignal;
  /** How long the caller may wait for a slot. */
  timeoutMs: number;
  /** Told on entering the queue and whenever the caller moves up in it. */
  onWait?: (ahead: number, running: number) => void;
}

/** What a caller that leaves the queue is told: its wait ran out, or it was cancelled. */
export interface LeaveReasons {
  timedOut(timeoutMs: number): Error;
  cancelled(): Error;
}

interface Waiter {
  grant(): void;
  moved(): void;
}

export class SlotQueue {
  private running = 0;
  private readonly queue: Waiter[] = [];

  constructor(readonly slots: number) {}

  /** Slots taken now and callers waiting for one. */
  get usage(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.queue.length };
  }

  /** Whether a caller now would wait. */
  get full(): boolean {
    return this.running >= this.slots || this.queue.length > 0;
  }

  /** Waits for a slot; resolves with its release, which must be called once the work is done (more calls do nothing). */
  acquire(request: SlotRequest, reasons: LeaveReasons): Promise<() => void> {
    // An aborted signal fires no more: a caller cancelled already would wait out its time limit.
    if (request.signal?.aborted) return Promise.reject(reasons.cancelled());
    if (!this.full) return Promise.resolve(this.take());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          settle();
          resolve(this.take());
        },
        moved: () => request.onWait?.(this.queue.indexOf(waiter), this.running),
      };
      const leave = (error: Error) => {
        settle();
        this.queue.splice(this.queue.indexOf(waiter), 1);
        for (const other of this.queue) other.moved();
        reject(error);
      };
      const timer = setTimeout(() => leave(reasons.timedOut(request.timeoutMs)), request.timeoutMs);
      const onAbort = () => leave(reasons.cancelled());
      const settle = () => {
        clearTimeout(timer);
        request.signal?.removeEventListener("abort", onAbort);
      };
      request.signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(waiter);
      waiter.moved();
    });
  }

  private take(): () => void {
    this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      const next = this.queue.shift();
      if (next) {
        next.grant();
        for (const other of this.queue) other.moved();
      }
    };
  }
}
