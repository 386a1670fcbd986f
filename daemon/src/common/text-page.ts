// One page of a text file: lines start..end within a byte budget, read in chunks so a huge file
// costs only what is returned; a page that stops early says where the next one starts. A file
// whose head holds a NUL byte is binary (as git and ripgrep judge) and is not returned as text.
import { constants } from "node:fs";
import { open } from "node:fs/promises";

const CHUNK = 65536;
const BINARY_SAMPLE = 8192;

export interface PageRequest {
  /** 1-based, inclusive; defaults to 1 and the end of the file. */
  startLine?: number;
  endLine?: number;
  maxBytes: number;
  signal?: AbortSignal;
}

export type Page =
  | { binary: true; size: number }
  | {
      binary: false;
      text: string;
      startLine: number;
      /** The last line returned (startLine - 1 when none was). */
      endLine: number;
      /** Lines in the file, known when the page reached its end. */
      totalLines?: number;
      /** Where the next page starts, when the budget stopped this one. */
      nextStartLine?: number;
      /** The only line returned was longer than the whole budget and was cut to it. */
      lineCut?: boolean;
    };

/**
 * `path` is a realpath the caller has checked: O_NOFOLLOW refuses a symlink swapped in at its end
 * since (ELOOP), and O_NONBLOCK keeps a FIFO planted there from hanging the call.
 */
export async function readTextPage(path: string, request: PageRequest): Promise<Page> {
  const start = request.startLine ?? 1;
  const end = request.endLine ?? Number.POSITIVE_INFINITY;
  const file = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const { size } = await file.stat();
    const buffer = Buffer.allocUnsafe(CHUNK);
    let budget = request.maxBytes;
    const kept: Buffer[] = [];
    let line = 1;
    let last = start - 1;
    let partial: Buffer[] = [];
    let partialBytes = 0;
    let stop: "range" | "budget" | undefined;
    let cut = false;
    // A line is complete at its newline or the end of the file: keep it, or stop.
    const finish = (piece: Buffer): void => {
      if (line >= start) {
        if (piece.length > budget) {
          stop = "budget";
          // A line larger than the whole budget would never fit: its head is returned, marked cut.
          if (kept.length === 0) {
            kept.push(piece.subarray(0, utf8Boundary(piece, budget)));
            last = line;
            cut = true;
          }
          return;
        }
        kept.push(piece);
        budget -= piece.length;
        last = line;
      }
      line++;
      if (line > end) stop = "range";
    };
    for (let position = 0; stop === undefined; ) {
      request.signal?.throwIfAborted();
      const { bytesRead } = await file.read(buffer, 0, CHUNK, position);
      if (position === 0 && buffer.subarray(0, Math.min(bytesRead, BINARY_SAMPLE)).includes(0)) return { binary: true, size };
      if (bytesRead === 0) {
        if (partialBytes > 0) finish(Buffer.concat(partial));
        break;
      }
      position += bytesRead;
      const chunk = buffer.subarray(0, bytesRead);
      let from = 0;
      for (let newline = chunk.indexOf(10); newline !== -1 && stop === undefined; newline = chunk.indexOf(10, from)) {
        const piece = chunk.subarray(from, newline + 1);
        // Lines before the page are only counted; kept ones are copied out of the reused buffer.
        finish(line >= start ? Buffer.concat([...partial, piece]) : piece);
        partial = [];
        partialBytes = 0;
        from = newline + 1;
      }
      if (stop !== undefined || from === chunk.length || line < start) continue;
      partial.push(Buffer.from(chunk.subarray(from)));
      partialBytes += chunk.length - from;
      if (partialBytes > budget) finish(Buffer.concat(partial));
    }
    const page: Page = { binary: false, text: Buffer.concat(kept).toString("utf8"), startLine: start, endLine: last };
    if (stop === undefined) page.totalLines = line - 1;
    if (stop === "budget") page.nextStartLine = last + 1;
    if (cut) page.lineCut = true;
    return page;
  } finally {
    await file.close();
  }
}

/** The largest cut at or before `at` that does not split a UTF-8 character. */
function utf8Boundary(bytes: Buffer, at: number): number {
  let cut = Math.min(at, bytes.length);
  // Continuation bytes are 10xxxxxx: step back to the start of the character they belong to.
  while (cut > 0 && cut < bytes.length && (bytes[cut]! & 0xc0) === 0x80) cut--;
  return cut;
}
