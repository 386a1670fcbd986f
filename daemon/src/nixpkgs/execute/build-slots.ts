// At most a few package evaluations and builds at once, across all calls: each `nix eval` of a nixpkgs
// takes hundreds of MB to a GB of the host, outside any jail, and a name the index lacks is evaluated
// all the same (forty calls of made-up names ran twenty-six evaluations at once). Later calls wait
// their turn, first come first served, and may be cancelled while they wait.

export class BuildSlots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  /** Calls waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `work` in a slot; `onWait` is told, once, when it must wait first. */
  async hold<T>(work: () => Promise<T>, signal?: AbortSignal, onWait?: (ahead: number) => void): Promise<T> {
    if (this.running < this.max) this.running++;
    else {
      onWait?.(this.waiting.length);
      await this.turn(signal);
    }
    try {
      return await work();
    } finally {
      // The slot goes straight to the next in line, so a call arriving meanwhile cannot take it as well.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  private turn(signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    return new Promise((resolve, reject) => {
      const granted = () => {
        signal?.removeEventListener("abort", cancelled);
        resolve();
      };
      const cancelled = () => {
        this.waiting.splice(this.waiting.indexOf(granted), 1);
        reject(signal!.reason);
      };
      this.waiting.push(granted);
      signal?.addEventListener("abort", cancelled, { once: true });
    });
  }
}
