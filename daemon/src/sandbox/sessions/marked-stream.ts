// Attributes one of a kernel's output streams (its fd 1 or 2) to calls. The stream is read all the
// time, so a call writing megabytes to both streams never blocks on a full socket; a call's bytes
// are those before its marker. Bytes that arrive between calls (a background job writing after its
// call ended) are given to the next call (the newest of them, within the cap), which is told how many
// they are: they reach neither the protocol nor a wrong call's middle. Reads land in one reused buffer (see jail/output.ts).
import type { Socket } from "node:net";
import { type CappedOutput, openSocketReader, READ_BUFFER_BYTES } from "../../jail/output.js";
import { NewestBytes } from "./newest-bytes.js";

interface OpenCall {
  marker: Buffer;
  output: CappedOutput;
  found: () => void;
}

export class MarkedStream {
  private call?: OpenCall;
  /** The end of the last read, when it could be the start of a marker. */
  private carry: Buffer = Buffer.alloc(0);
  /** The newest bytes that arrived outside any call, at most maxBytes of them. */
  private readonly between: NewestBytes;
  private ended = false;
  private readonly endWaiters: (() => void)[] = [];

  constructor(maxBytes: number) {
    this.between = new NewestBytes(maxBytes);
  }

  /** A stream fed by a socket pair; the kernel writes into `writer` (pass it in spawn's stdio, then destroy it). */
  static async open(maxBytes: number): Promise<{ stream: MarkedStream; writer: Socket; close(): void }> {
    const stream = new MarkedStream(maxBytes);
    const area = Buffer.allocUnsafeSlow(READ_BUFFER_BYTES);
    const reader = await openSocketReader(area, (bytes) => stream.feed(area.subarray(0, bytes)));
    void reader.finished.then(() => stream.end());
    return { stream, writer: reader.writer, close: reader.close };
  }

  /** Starts attributing bytes to a call; resolves when its marker arrived (or the stream ended). */
  begin(marker: string, output: CappedOutput): Promise<void> {
    return new Promise((resolve) => {
      this.call = { marker: Buffer.from(marker), output, found: resolve };
      output.push(this.between.take());
      if (this.ended) this.end();
    });
  }

  /** How many bytes that arrived outside any call the next call will be given first. */
  get waitingBytes(): number {
    return this.between.length;
  }

  /** Resolves once the stream has closed (the kernel and everything holding its fds are gone). */
  closed(): Promise<void> {
    return this.ended ? Promise.resolve() : new Promise((resolve) => this.endWaiters.push(resolve));
  }

  /** What arrived outside any call (a kernel's complaint when it failed to start). */
  unclaimed(): string {
    return this.between.peek().toString("utf8");
  }

  /** Takes one read; `chunk` may be reused by the caller afterwards. */
  feed(chunk: Buffer): void {
    const call = this.call;
    if (!call) {
      this.between.push(chunk);
      return;
    }
    const { marker } = call;
    if (this.carry.length > 0) {
      // A marker split across reads lies within the carried bytes and the first bytes of this read.
      const joint = Buffer.concat([this.carry, chunk.subarray(0, marker.length - 1)]);
      const at = joint.indexOf(marker);
      if (at >= 0) {
        call.output.push(joint.subarray(0, at));
        this.complete(call, chunk.subarray(at + marker.length - this.carry.length));
        return;
      }
      call.output.push(this.carry);
      this.carry = Buffer.alloc(0);
    }
    const at = chunk.indexOf(marker);
    if (at >= 0) {
      call.output.push(chunk.subarray(0, at));
      this.complete(call, chunk.subarray(at + marker.length));
      return;
    }
    const keep = Math.min(chunk.length, marker.length - 1);
    call.output.push(chunk.subarray(0, chunk.length - keep));
    this.carry = Buffer.from(chunk.subarray(chunk.length - keep));
  }

  /** The writing end closed: the open call ends with what arrived. */
  end(): void {
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

  private complete(call: OpenCall, rest: Buffer): void {
    this.carry = Buffer.alloc(0);
    this.call = undefined;
    this.between.push(rest);
    call.found();
  }
}
