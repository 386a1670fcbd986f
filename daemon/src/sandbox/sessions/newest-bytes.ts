// The newest bytes of a stream, at most `capacity` of them, in one ring allocated at the first byte
// and let go when taken: a list of chunks cost an object per read (millions, for a writer of one byte
// at a time: 490 MB of daemon for a 4 MiB cap) and, past the cap, a shift of the whole list per read.

export class NewestBytes {
  private ring?: Buffer;
  /** Where the next byte goes. */
  private end = 0;
  private size = 0;

  constructor(private readonly capacity: number) {}

  get length(): number {
    return this.size;
  }

  push(chunk: Uint8Array): void {
    if (this.capacity === 0 || chunk.length === 0) return;
    this.ring ??= Buffer.allocUnsafeSlow(this.capacity);
    const bytes = chunk.length > this.capacity ? chunk.subarray(chunk.length - this.capacity) : chunk;
    const first = Math.min(bytes.length, this.capacity - this.end);
    this.ring.set(bytes.subarray(0, first), this.end);
    this.ring.set(bytes.subarray(first), 0);
    this.end = (this.end + bytes.length) % this.capacity;
    this.size = Math.min(this.capacity, this.size + bytes.length);
  }

  /** The bytes kept, oldest first (a copy). */
  peek(): Buffer {
    if (!this.ring) return Buffer.alloc(0);
    const start = (this.end - this.size + this.capacity) % this.capacity;
    if (start + this.size <= this.capacity) return Buffer.from(this.ring.subarray(start, start + this.size));
    return Buffer.concat([this.ring.subarray(start), this.ring.subarray(0, this.end)]);
  }

  /** The bytes kept, oldest first; none are kept after. */
  take(): Buffer {
    const bytes = this.peek();
    this.ring = undefined;
    this.end = 0;
    this.size = 0;
    return bytes;
  }
}
