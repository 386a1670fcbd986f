// Bounded capture of one output stream: the first and the last bytes are kept (half the budget
// each, in buffers allocated once) and whatever falls in between is only counted.
//
// The stream reaches the daemon over a unix socket read into one reused buffer (net's `onread`), not
// over a pipe: a pipe's reader allocates a fresh 64 KiB buffer per read, and hundreds of MB of
// output would leave the daemon's allocator tens of MB larger. The socket lives in a private (0700)
// directory, so no other user can connect in its place.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One read's buffer: what a socket read delivers at most. */
export const READ_BUFFER_BYTES = 64 * 1024;

export class CappedOutput {
  /** Where reads land (net's onread buffer); take() keeps what it needs of them. */
  readonly readArea: Buffer;
  /** One allocation: [read area | head | tail ring], so keeping bytes is copyWithin, which allocates nothing. */
  private readonly storage: Buffer;
  private readonly headStart: number;
  private readonly tailStart: number;
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private headBytes = 0;
  /** The newest tailBytes bytes of the ring end at tailEnd (relative to tailStart). */
  private tailEnd = 0;
  private tailBytes = 0;
  private dropped = 0;

  constructor(
    readonly maxBytes: number,
    readBytes = READ_BUFFER_BYTES,
  ) {
    this.headLimit = Math.ceil(maxBytes / 2);
    this.tailLimit = maxBytes - this.headLimit;
    this.headStart = readBytes;
    this.tailStart = readBytes + this.headLimit;
    this.storage = Buffer.allocUnsafeSlow(readBytes + maxBytes);
    this.readArea = this.storage.subarray(0, readBytes);
  }

  /** Keeps what it must of readArea[0, length). */
  take(length: number): void {
    let start = 0;
    const toHead = Math.min(length, this.headLimit - this.headBytes);
    if (toHead > 0) {
      this.storage.copyWithin(this.headStart + this.headBytes, 0, toHead);
      this.headBytes += toHead;
      start = toHead;
    }
    if (start === length) return;
    if (length - start > this.tailLimit) {
      this.dropped += length - start - this.tailLimit;
      start = length - this.tailLimit;
    }
    const size = length - start;
    if (size === 0) return;
    const overflow = Math.max(0, this.tailBytes + size - this.tailLimit);
    this.dropped += overflow;
    this.tailBytes += size - overflow;
    const first = Math.min(size, this.tailLimit - this.tailEnd);
    this.storage.copyWithin(this.tailStart + this.tailEnd, start, start + first);
    this.storage.copyWithin(this.tailStart, start + first, length);
    this.tailEnd = (this.tailEnd + size) % this.tailLimit;
  }

  /** Keeps what it must of a chunk that did not arrive in readArea. */
  push(chunk: Buffer): void {
    for (let offset = 0; offset < chunk.length; offset += this.readArea.length) {
      const piece = chunk.subarray(offset, offset + this.readArea.length);
      this.readArea.set(piece);
      this.take(piece.length);
    }
  }

  /** Bytes seen but not kept. */
  get droppedBytes(): number {
    return this.dropped;
  }

  /** The kept text; a marker says where and how much was dropped. Binary output is described. */
  text(): string {
    const head = this.storage.subarray(this.headStart, this.headStart + this.headBytes);
    const oldest = (this.tailEnd - this.tailBytes + this.tailLimit) % (this.tailLimit || 1);
    const tail =
      oldest + this.tailBytes <= this.tailLimit
        ? this.storage.subarray(this.tailStart + oldest, this.tailStart + oldest + this.tailBytes)
        : Buffer.concat([
            this.storage.subarray(this.tailStart + oldest, this.tailStart + this.tailLimit),
            this.storage.subarray(this.tailStart, this.tailStart + this.tailEnd),
          ]);
    if (looksBinary(head) || looksBinary(tail)) return describeBinary(head, this.headBytes + this.tailBytes + this.dropped);
    const text = (bytes: Buffer) => bytes.toString("utf8");
    return this.dropped > 0 ? `${text(head)}\n[… ${this.dropped} bytes dropped …]\n${text(tail)}` : text(head) + text(tail);
  }
}

/** Control bytes other than tab, newline, carriage return, form feed and escape (colour codes). */
function isControl(byte: number): boolean {
  return (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b) || byte === 0x7f;
}

/**
 * Binary output is useless to an agent, in the answer or in the whole text kept of it: JSON spells
 * a control byte as six characters. Text with a few stray control bytes stays text; a NUL byte or
 * more than 1 in 10 control bytes makes it binary.
 */
function looksBinary(bytes: Buffer): boolean {
  if (bytes.includes(0)) return true;
  let control = 0;
  for (const byte of bytes) if (isControl(byte)) control++;
  return control * 10 > bytes.length;
}

function describeBinary(head: Buffer, total: number): string {
  const sample = head.subarray(0, 32).toString("hex").replace(/(..)/g, "$1 ").trim();
  return `[binary output: ${total} bytes, starting ${sample}. Write it to a file and inspect it with file, xxd or od.]`;
}

let socketDir: string | undefined;

/** The private directory of this process's capture sockets, removed when the process exits. */
function captureSocketDir(): string {
  if (socketDir) return socketDir;
  const dir = mkdtempSync(join(tmpdir(), "nixshed-capture-"));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  socketDir = dir;
  return dir;
}
let socketCount = 0;

export interface SocketReader {
  /** The end a child process writes into (pass it in spawn's stdio, then close it). */
  writer: Socket;
  /** Resolves when every writer has closed its end. */
  finished: Promise<void>;
  /** Stops reading (for a writer that never closes). */
  close(): void;
}

export interface Capture extends SocketReader {
  output: CappedOutput;
}

/** A connected socket pair: the child writes into `writer`; each read lands in `area` and onRead gets its length. */
export async function openSocketReader(area: Buffer, onRead: (bytes: number) => void): Promise<SocketReader> {
  const path = join(captureSocketDir(), `${process.pid}-${socketCount++}.sock`);
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(path, resolve));
  const accepted = new Promise<Socket>((resolve) => server.once("connection", resolve));
  const reader = connect({
    path,
    onread: {
      buffer: area,
      callback: (bytes) => {
        onRead(bytes);
        return true;
      },
    },
  });
  const finished = new Promise<void>((resolve) => {
    reader.once("end", resolve).once("close", resolve);
    reader.on("error", resolve);
  });
  const writer = await accepted;
  // Closing the listener removes its socket file; the accepted connection lives on.
  server.close();
  return { writer, finished, close: () => reader.destroy() };
}

/** A socket pair whose reads are kept, head and tail, in `output`. */
export async function openCapture(maxBytes: number): Promise<Capture> {
  const output = new CappedOutput(maxBytes);
  return { output, ...(await openSocketReader(output.readArea, (bytes) => output.take(bytes))) };
}
