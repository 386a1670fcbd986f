// What a realisation tells the client as it goes, as MCP's progress notifications: each step it
// begins (waiting its turn, evaluating, then each derivation built or path fetched), counted 0, 1, 2 …,
// and between two, every few seconds until it ends, that the step begun is still going, rising towards
// the next count without reaching it (an MCP progress value must rise with each notification). A client
// ends a call that goes quiet (the SDK's after 60 s), and a build can say nothing for minutes.

type Report = (done: number, total: number | undefined, message: string) => void;

/** How often a step that says nothing is said to go on. */
const HEARTBEAT_MS = 3000;

export class BuildProgress {
  private steps = -1;
  private beats = 0;
  private current = "";
  private since = Date.now();
  private heartbeat?: NodeJS.Timeout;

  constructor(private readonly report?: Report) {}

  /** A step begun; `total`: how many the build said it has, when it has said. The first starts the heartbeat. */
  step(message: string, total?: number): void {
    this.steps++;
    this.beats = 0;
    this.current = message;
    this.since = Date.now();
    this.report?.(this.steps, total, message);
    this.heartbeat ??= setInterval(() => this.beat(), HEARTBEAT_MS).unref();
  }

  /** The realisation is over, whichever way: nothing more is said. */
  end(): void {
    clearInterval(this.heartbeat);
  }

  /** The step begun is still going: said without a total, which the count between two steps may pass. */
  beat(): void {
    this.beats++;
    const seconds = Math.round((Date.now() - this.since) / 1000);
    this.report?.(this.steps + 1 - 1 / (this.beats + 1), undefined, `${this.current} (${seconds} s)`);
  }
}
