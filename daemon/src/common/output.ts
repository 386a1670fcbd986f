// Bounded capture of one output stream: the first and the last bytes are kept (half the budget
// each) and whatever falls in between is only counted, so a program printing gigabytes costs the
// daemon no more memory than the cap.
export class CappedOutput {
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private dropped = 0;

  constructor(readonly maxBytes: number) {
    this.headLimit = Math.ceil(maxBytes / 2);
    this.tailLimit = maxBytes - this.headLimit;
  }

  push(chunk: Buffer): void {
    const toHead = Math.min(chunk.length, this.headLimit - this.headBytes);
    if (toHead > 0) {
      this.head.push(chunk.subarray(0, toHead));
      this.headBytes += toHead;
      chunk = chunk.subarray(toHead);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes > this.tailLimit) {
      const first = this.tail[0]!;
      const excess = this.tailBytes - this.tailLimit;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
        this.dropped += first.length;
      } else {
        // Copy, so the dropped prefix's memory is not kept alive by the slice.
        this.tail[0] = Buffer.from(first.subarray(excess));
        this.tailBytes -= excess;
        this.dropped += excess;
      }
    }
  }

  /** Bytes seen but not kept. */
  get droppedBytes(): number {
    return this.dropped;
  }

  /** The kept text; a marker says where and how much was dropped. */
  text(): string {
    const head = Buffer.concat(this.head).toString("utf8");
    const tail = Buffer.concat(this.tail).toString("utf8");
    return this.dropped > 0 ? `${head}\n[… ${this.dropped} bytes dropped …]\n${tail}` : head + tail;
  }
}
