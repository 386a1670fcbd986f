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
import { decodeText, isBinary } from "../files/binary-file.js";

/** One read's buffer: what a socket read delivers at most. */
export const READ_BUFFER_BYTES = 64 * 1024;

/**
 * Where a stream goes whole once it outgrows what is kept in memory: a file the agent can page.
 * Opened only then, so output that fits costs nothing more.
 */
export interface SpoolFile {
  readonly path: string;
  /** Appends the bytes, or as many as its cap allows; after a failure it takes nothing more. */
  write(bytes: Uint8Array): void;
  /** Bytes written. */
  readonly written: number;
  /** Why it stopped taking bytes (its cap, a write error), if it did. */
  readonly stopped?: string;
  /** How much of the stream's start, and as much of its end, an answer shows once all of it is here: the file holds the rest. */
  readonly showBytes: number;
  close(): void;
}

/** Opens the spool of one stream of one call; undefined when none can be had. */
export type OpenSpool = (stream: "stdout" | "stderr") => SpoolFile | undefined;

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
  private spool?: SpoolFile;
  private spoolTried = false;
  /** Line breaks among the bytes spooled, and whether the last one ended a line: the marker numbers the file's lines. */
  private spooledLineBreaks = 0;
  private spooledLastByte = -1;
  /** The byte just before the tail's oldest, once one was let go: whether the tail starts a line. */
  private beforeTail = NEWLINE;
  /** The window (below) as last worked out, until another read: text, droppedBytes and shownFrom each ask for it. */
  private windowSeen?: { window: Window | undefined };

  constructor(
    readonly maxBytes: number,
    readBytes = READ_BUFFER_BYTES,
    /** Opens the file the whole stream goes to once it no longer fits head and tail. */
    private readonly openSpool?: () => SpoolFile | undefined,
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
    this.windowSeen = undefined;
    if (this.spool) this.toSpool(this.readArea.subarray(0, length));
    else if (!this.spoolTried && this.headBytes + this.tailBytes + length > this.maxBytes) this.startSpool(length);
    let start = 0;
    const toHead = Math.min(length, this.headLimit - this.headBytes);
    if (toHead > 0) {
      this.storage.copyWithin(this.headStart + this.headBytes, 0, toHead);
      this.headBytes += toHead;
      start = toHead;
    }
    if (start === length) return;
    const size = Math.min(length - start, this.tailLimit);
    const overflow = Math.max(0, this.tailBytes + size - this.tailLimit);
    // The byte before what the tail will keep: the last one let go, of this read or of the ring's oldest.
    if (length - start > size) this.beforeTail = this.readArea[length - size - 1]!;
    else if (overflow > 0)
      this.beforeTail = this.storage[this.tailStart + ((this.tailEnd - this.tailBytes + overflow - 1 + this.tailLimit) % this.tailLimit)]!;
    this.dropped += length - start - size;
    start = length - size;
    if (size === 0) return;
    this.dropped += overflow;
    this.tailBytes += size - overflow;
    const first = Math.min(size, this.tailLimit - this.tailEnd);
    this.storage.copyWithin(this.tailStart + this.tailEnd, start, start + first);
    this.storage.copyWithin(this.tailStart, start + first, length);
    this.tailEnd = (this.tailEnd + size) % this.tailLimit;
  }

  /** The stream is about to lose its middle: everything so far (all still kept) goes first, then the read. */
  private startSpool(length: number): void {
    this.spoolTried = true;
    this.spool = this.openSpool?.();
    if (!this.spool) return;
    const [head, tail] = this.kept();
    this.toSpool(head);
    this.toSpool(tail);
    this.toSpool(this.readArea.subarray(0, length));
  }

  private toSpool(bytes: Uint8Array): void {
    this.spool!.write(bytes);
    this.spooledLineBreaks += lineBreaks(bytes);
    if (bytes.length > 0) this.spooledLastByte = bytes[bytes.length - 1]!;
  }

  /** Ends the spool (if any); call once the stream has ended. */
  close(): void {
    this.spool?.close();
  }

  /** Keeps what it must of a chunk that did not arrive in readArea. */
  push(chunk: Buffer): void {
    for (let offset = 0; offset < chunk.length; offset += this.readArea.length) {
      const piece = chunk.subarray(offset, offset + this.readArea.length);
      this.readArea.set(piece);
      this.take(piece.length);
    }
  }

  /** The file holding all of the stream when the text shows only its ends. */
  get shownFrom(): string | undefined {
    return this.window() && this.spool?.path;
  }

  /** Bytes the text leaves out. */
  get droppedBytes(): number {
    const window = this.window();
    return window ? window.omitted : this.dropped;
  }

  /**
   * With all of the stream in its spool, what the text shows of it: its first and last lines, as much of each as an
   * answer shows (SpoolFile.showBytes); a marker numbers the file's lines between, so the answer points to one place.
   */
  private window(): Window | undefined {
    this.windowSeen ??= { window: this.workOutWindow() };
    return this.windowSeen.window;
  }

  private workOutWindow(): Window | undefined {
    const spool = this.spool;
    if (!spool || spool.stopped || this.dropped === 0) return undefined;
    const [kept, keptTail] = this.kept();
    const head = kept.subarray(0, shownLength(kept, spool.showBytes, false));
    const tail = keptTail.subarray(keptTail.length - shownLength(keptTail, spool.showBytes, true));
    const omitted = spool.written - head.length - tail.length;
    const firstLine = lineBreaks(head) + 1;
    // The tail starts within a line when the byte before it is no line break (the kept tail's, or the last let go).
    const before = keptTail.length - tail.length - 1;
    const lastLine = this.spooledLineBreaks - lineBreaks(tail) + ((before >= 0 ? keptTail[before] : this.beforeTail) !== NEWLINE ? 1 : 0);
    const lines = this.spooledLineBreaks + (this.spooledLastByte === NEWLINE ? 0 : 1);
    const range = firstLine >= lastLine ? `line ${firstLine}` : `lines ${firstLine}-${lastLine}`;
    const marker = `[… ${range} of ${lines} omitted (${omitted} bytes); all ${spool.written} bytes are in ${spool.path}: read_content it from start_line ${firstLine} …]`;
    return { head, tail, omitted, marker };
  }

  /** Where the whole stream is, in words, once its middle was dropped (undefined before, or without a spool). */
  get whole(): string | undefined {
    if (!this.spool || this.dropped === 0) return undefined;
    const { path, written, stopped } = this.spool;
    return stopped ? `its first ${written} bytes are in ${path} (${stopped})` : `all ${written} bytes are in ${path}`;
  }

  /** The head and the tail as kept, oldest first. */
  private kept(): [Buffer, Buffer] {
    const head = this.storage.subarray(this.headStart, this.headStart + this.headBytes);
    const oldest = (this.tailEnd - this.tailBytes + this.tailLimit) % (this.tailLimit || 1);
    const tail =
      oldest + this.tailBytes <= this.tailLimit
        ? this.storage.subarray(this.tailStart + oldest, this.tailStart + oldest + this.tailBytes)
        : Buffer.concat([
            this.storage.subarray(this.tailStart + oldest, this.tailStart + this.tailLimit),
            this.storage.subarray(this.tailStart, this.tailStart + this.tailEnd),
          ]);
    return [head, tail];
  }

  /** The kept text; a marker says where and how much was dropped, and where it all is. Binary output is described. */
  text(): string {
    const [head, tail] = this.kept();
    const whole = this.whole;
    // Binary output is useless to an agent, in the answer or in the whole text kept of it: JSON spells a control byte as six characters.
    if (isBinary(head) || isBinary(tail)) return describeBinary(head, this.headBytes + this.tailBytes + this.dropped, whole);
    if (this.dropped === 0) return decodeText(Buffer.concat([head, tail]));
    const window = this.window();
    if (window) {
      const shown = decodeText(window.head);
      return `${shown}${shown === "" || shown.endsWith("\n") ? "" : "\n"}${window.marker}\n${decodeText(window.tail)}`;
    }
    // Where it all is goes first, where a cut answer still shows it.
    const where = whole ? `[${this.dropped} bytes dropped from the middle; ${whole}]\n` : "";
    return `${where}${decodeText(head)}\n[… ${this.dropped} bytes dropped …]\n${decodeText(tail)}`;
  }
}

/** What a call's two streams come to: their texts, the bytes each leaves out, and the files holding all of those shown only in part. */
export interface CapturedStreams {
  stdout: string;
  stderr: string;
  truncated: { stdout: number; stderr: number };
  outputIn?: { stdout?: string; stderr?: string };
}

export function capturedStreams(stdout: CappedOutput, stderr: CappedOutput): CapturedStreams {
  const outputIn = Object.entries({ stdout: stdout.shownFrom, stderr: stderr.shownFrom }).filter(([, path]) => path !== undefined);
  return {
    stdout: stdout.text(),
    stderr: stderr.text(),
    truncated: { stdout: stdout.droppedBytes, stderr: stderr.droppedBytes },
    ...(outputIn.length > 0 ? { outputIn: Object.fromEntries(outputIn) } : {}),
  };
}

const NEWLINE = 0x0a;

const lineBreaks = (bytes: Uint8Array): number => {
  let count = 0;
  for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) count++;
  return count;
};

/** What the text shows of a spooled stream: see CappedOutput.window. */
interface Window {
  head: Buffer;
  tail: Buffer;
  omitted: number;
  marker: string;
}

/**
 * How many bytes of the start (or the end) of `bytes` show within `max`: up to a line break in the last quarter of that,
 * else never inside a UTF-8 character.
 */
function shownLength(bytes: Buffer, max: number, fromEnd: boolean): number {
  if (bytes.length <= max) return bytes.length;
  const continues = (at: number) => (bytes[at]! & 0xc0) === 0x80;
  if (fromEnd) {
    let start = bytes.length - max;
    const lineStart = bytes.indexOf(NEWLINE, start - 1) + 1;
    if (lineStart > 0 && lineStart - start <= max / 4) return bytes.length - lineStart;
    while (start < bytes.length && continues(start)) start++;
    return bytes.length - start;
  }
  const lineEnd = bytes.lastIndexOf(NEWLINE, max - 1) + 1;
  if (lineEnd >= (max * 3) / 4) return lineEnd;
  let end = max;
  while (end > 0 && continues(end)) end--;
  return end;
}

function describeBinary(head: Buffer, total: number, whole?: string): string {
  const sample = head.subarray(0, 32).toString("hex").replace(/(..)/g, "$1 ").trim();
  return `[binary output: ${total} bytes, starting ${sample}${whole ? `; ${whole}` : ""}. Write it to a file and inspect it with file, xxd or od.]`;
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

/** A socket reader whose close() also ends the output's spool. */
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

/** A socket pair whose reads are kept, head and tail, in `output` (and whole in a spool, once they outgrow it). */
export async function openCapture(maxBytes: number, openSpool?: () => SpoolFile | undefined): Promise<Capture> {
  const output = new CappedOutput(maxBytes, READ_BUFFER_BYTES, openSpool);
  const reader = await openSocketReader(output.readArea, (bytes) => output.take(bytes));
  return {
    output,
    ...reader,
    close() {
      reader.close();
      output.close();
    },
  };
}
