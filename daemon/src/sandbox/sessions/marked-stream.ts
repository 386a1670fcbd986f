// Attributes one of a kernel's output streams (its fd 1 or 2) to calls. The stream is read all the
// time, so a call writing megabytes to both streams never blocks on a full socket; a call's bytes
// are those before its marker. Bytes that arrive between calls (a background job writing after its
// call ended) are given to the next call (the newest of them, within the cap): they reach neither
// the protocol nor a wrong call's middle.
import type { Readable } from "node:stream";
import { CappedOutput } from "../../common/output.js";

interface OpenCall {
  marker: Buffer;
  output: CappedOutput;
  found: () => void;
}

export class MarkedStream {
  private call?: OpenCall;
  /** Bytes of a possible marker split across reads. */
  private carry: Buffer = Buffer.alloc(0);
  private between: Buffer[] = [];
  private betweenBytes = 0;
  private ended = false;
  private readonly endWaiters: (() => void)[] = [];

  constructor(
    stream: Readable,
    private readonly maxBytes: number,
  ) {
    stream.on("data", (chunk: Buffer) => this.receive(chunk));
    stream.on("close", () => this.finish());
    stream.on("error", () => this.finish());
  }

  /** Starts attributing bytes to a call; resolves when its marker arrived (or the stream ended). */
  begin(marker: string, output: CappedOutput): Promise<void> {
    return new Promise((resolve) => {
      this.call = { marker: Buffer.from(marker), output, found: resolve };
      for (const late of this.between.splice(0)) output.push(late);
      this.betweenBytes = 0;
      if (this.ended) this.finish();
    });
  }

  /** Resolves once the stream has closed (the kernel and everything holding its fds are gone). */
  closed(): Promise<void> {
    return this.ended ? Promise.resolve() : new Promise((resolve) => this.endWaiters.push(resolve));
  }

  /** What arrived outside any call (a kernel's complaint when it failed to start). */
  unclaimed(): string {
    return Buffer.concat(this.between).toString("utf8");
  }

  private receive(chunk: Buffer): void {
    const call = this.call;
    if (!call) {
      this.keepBetween(chunk);
      return;
    }
    const data = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const at = data.indexOf(call.marker);
    if (at >= 0) {
      this.carry = Buffer.alloc(0);
      call.output.push(data.subarray(0, at));
      this.call = undefined;
      const rest = data.subarray(at + call.marker.length);
      if (rest.length > 0) this.keepBetween(rest);
      call.found();
      return;
    }
    // Keep what could be the start of a marker split across reads.
    const keep = Math.min(data.length, call.marker.length - 1);
    call.output.push(data.subarray(0, data.length - keep));
    this.carry = Buffer.from(data.subarray(data.length - keep));
  }

  /** Keeps the newest bytes that arrived outside any call, at most maxBytes of them. */
  private keepBetween(chunk: Buffer): void {
    this.between.push(Buffer.from(chunk));
    this.betweenBytes += chunk.length;
    while (this.betweenBytes > this.maxBytes) {
      const excess = this.betweenBytes - this.maxBytes;
      const first = this.between[0]!;
      if (first.length <= excess) this.between.shift();
      else this.between[0] = first.subarray(excess);
      this.betweenBytes -= Math.min(first.length, excess);
    }
  }

  private finish(): void {
    this.ended = true;
    const call = this.call;
    if (call) {
      call.output.push(this.carry);
      this.carry = Buffer.alloc(0);
      this.call = undefined;
      call.found();
    }
    for (const waiter of this.endWaiters.splice(0)) waiter();
  }
}
