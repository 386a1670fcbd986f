// One page of a text file: lines start..end within a byte budget, read in chunks so a huge file
// costs only what is returned; a page that stops early says where the next one starts. A binary
// file (binary-file.ts) is not returned as text. fs's read_content and pkglocal's read_package
// both page through here; each confines its paths before.
import { constants } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { isUtf8 } from "node:buffer";
import { decodeText, isBinaryFile } from "./binary-file.js";
import { openedWithin, type Within } from "./descriptor-path.js";

const CHUNK = 65536;
const NOTHING = Buffer.alloc(0);
/** Largest file whose lines a page counts when it does not reach the end: reading it costs tens of milliseconds. */
const MAX_COUNTED_BYTES = 64 * 1024 * 1024;

/** A regular file opened for paging, with its first chunk read (binary is judged on it). */
export interface TextFile {
  handle: FileHandle;
  /** The size at open, taken as the end: no read just to learn there is nothing more. */
  size: number;
  head: Buffer;
}

/** What was found instead of a regular file, for the caller to refuse in its own words. */
export type NotRegular = "directory" | "special";
/** A file opened outside where it must lie (`within`). */
export type Outside = "outside";

export interface PageRequest {
  /** 1-based, inclusive; defaults to 1 and the end of the file. */
  startLine?: number;
  endLine?: number;
  maxBytes: number;
  /**
   * What one answer shows (textRoom): a file larger than maxBytes is read this much at a time, so nextStartLine is the
   * first line not shown. (Read to maxBytes, an answer showed the head and the tail of what was read, and nextStartLine
   * skipped the middle between.) A file within maxBytes is read whole: its answer keeps its head and its real tail.
   */
  pageBytes?: number;
  /** A first line longer than maxBytes comes back cut to it (the default); false ends the page before it. */
  cutLongLine?: boolean;
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
      /** Lines in the file, known when the page reached its end, or counted on past its range in a file no larger than maxBytes. */
      totalLines?: number;
      /** Where the next page starts, when the budget stopped this one. */
      nextStartLine?: number;
      /**
       * The only line returned was longer than the whole budget and was cut to it; the rest of it was
       * read past, so totalLines or nextStartLine say truly whether a line follows.
       */
      lineCut?: boolean;
    };

/**
 * `real` is a realpath the caller has checked: O_NOFOLLOW refuses a symlink swapped in at its end
 * since (ELOOP), `within` one swapped in above it, and O_NONBLOCK keeps a FIFO planted there from hanging the open.
 */
export async function openTextFile(real: string): Promise<TextFile | NotRegular>;
export async function openTextFile(real: string, within: Within): Promise<TextFile | NotRegular | Outside>;
export async function openTextFile(real: string, within?: Within): Promise<TextFile | NotRegular | Outside> {
  const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  let directory: boolean;
  try {
    if (!openedWithin(handle.fd, within)) {
      await handle.close();
      return "outside";
    }
    const stats = await handle.stat();
    if (stats.isFile()) {
      const head = Buffer.allocUnsafe(Math.min(CHUNK, stats.size));
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      return { handle, size: stats.size, head: head.subarray(0, bytesRead) };
    }
    directory = stats.isDirectory();
  } catch (error) {
    await handle.close();
    throw error;
  }
  await handle.close();
  return directory ? "directory" : "special";
}

/** Opens, pages and closes `real` (see openTextFile). */
export async function readTextPage(real: string, request: PageRequest, within: Within): Promise<Page | NotRegular | Outside> {
  const file = await openTextFile(real, within);
  if (typeof file === "string") return file;
  try {
    return await readPage(file, request);
  } finally {
    await file.handle.close();
  }
}

export async function readPage({ handle, size, head }: TextFile, request: PageRequest): Promise<Page> {
  if (isBinaryFile(head)) return { binary: true, size };
  const start = request.startLine ?? 1;
  const end = request.endLine ?? Number.POSITIVE_INFINITY;
  const paged = request.pageBytes !== undefined && size > request.maxBytes;
  let budget = paged ? Math.min(request.maxBytes, request.pageBytes!) : request.maxBytes;
  // A page is what an answer shows, which counts bytes as JSON escapes them ("\"" is two), and bytes of no UTF-8
  // character as what they become (Latin-1's é two bytes, U+FFFD three): so is a page's line.
  const cost = paged ? (piece: Buffer) => piece.length + escapeExtra(piece) : (piece: Buffer) => piece.length;
  const kept: Buffer[] = [];
  let line = 1;
  let last = start - 1;
  // The head of the line being read, copied, when that line is on the page; lines before it are only counted.
  let partial: Buffer[] = [];
  let partialBytes = 0;
  let midLine = false;
  let stop: "range" | "budget" | undefined;
  let cut = false;
  const keep = (piece: Buffer): void => {
    const bytes = cost(piece);
    if (bytes <= budget) {
      kept.push(piece);
      budget -= bytes;
      last = line;
      return;
    }
    // A line larger than the whole budget would never fit: its head is returned, marked cut, and
    // nothing else (no budget is left); the page reads past the rest of it.
    if (kept.length === 0 && (request.cutLongLine ?? true)) {
      // A copy, so the chunks read meanwhile need not be kept.
      kept.push(Buffer.from(piece.subarray(0, utf8Boundary(piece, budget))));
      last = line;
      cut = true;
      budget = 0;
      return;
    }
    stop = "budget";
  };
  // Bytes of the current line; `complete` when they end it. A line past the range ends the page
  // only once seen, so a page that reaches the file's end knows its length.
  const take = (bytes: Buffer, complete: boolean): void => {
    if (line > end) {
      stop = "range";
      return;
    }
    midLine = !complete;
    // Lines before the page, and the rest of a cut line, are only counted.
    if (line < start || (cut && line === last)) {
      if (complete) line++;
      return;
    }
    if (!complete) {
      partial.push(Buffer.from(bytes));
      partialBytes += bytes.length;
      // A head already past the budget is kept or ends the page now, instead of reading on to the newline.
      if (partialBytes > budget) keepPartial(NOTHING);
      return;
    }
    keepPartial(bytes);
    if (stop === undefined) line++;
  };
  const keepPartial = (rest: Buffer): void => {
    keep(partial.length > 0 ? Buffer.concat([...partial, rest]) : rest);
    partial = [];
    partialBytes = 0;
  };
  let chunk = head;
  let position = head.length;
  let spare: Buffer | undefined;
  // Where, in the chunk, the line the page stopped at starts (or, begun in an earlier chunk, goes on).
  let stoppedAt = 0;
  for (;;) {
    for (let from = 0; from < chunk.length && stop === undefined; ) {
      const newline = chunk.indexOf(10, from);
      const to = newline === -1 ? chunk.length : newline + 1;
      take(chunk.subarray(from, to), newline !== -1);
      if (stop !== undefined) stoppedAt = from;
      from = to;
    }
    if (stop !== undefined || position >= size) break;
    request.signal?.throwIfAborted();
    // Kept lines point into the chunk they came from: one buffer is reused only while none does.
    spare ??= Buffer.allocUnsafe(CHUNK);
    const into = kept.length === 0 || cut ? spare : Buffer.allocUnsafe(CHUNK);
    const { bytesRead } = await handle.read(into, 0, CHUNK, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    chunk = into.subarray(0, bytesRead);
  }
  // The file's last line, without a newline.
  if (stop === undefined && midLine) take(NOTHING, true);
  const page: Page = { binary: false, text: decodeText(Buffer.concat(kept)), startLine: start, endLine: last };
  if (stop === undefined) page.totalLines = line - 1;
  // A page that stopped before the end: the file's lines are counted on from there (those before it are `line` - 1), so the
  // page says "of N" as a whole read does and an agent can ask for the last ones (a log's); in a file of up to
  // MAX_COUNTED_BYTES, or of up to a whole read.
  if (stop !== undefined && size <= Math.max(request.maxBytes, MAX_COUNTED_BYTES)) {
    page.totalLines = line - 1 + (await linesFrom(handle, chunk.subarray(stoppedAt), position, size));
  }
  if (stop === "budget") page.nextStartLine = last + 1;
  if (cut) page.lineCut = true;
  return page;
}

/** The lines from `rest` (a line's start, or the rest of one; more of the file follows at `position`) to the end of the file. */
async function linesFrom(handle: FileHandle, rest: Buffer, position: number, size: number): Promise<number> {
  let lines = 0;
  let last = 10;
  const count = (bytes: Buffer) => {
    for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) lines++;
    if (bytes.length > 0) last = bytes[bytes.length - 1]!;
  };
  count(rest);
  const buffer = Buffer.allocUnsafe(CHUNK);
  while (position < size) {
    const { bytesRead } = await handle.read(buffer, 0, CHUNK, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    count(buffer.subarray(0, bytesRead));
  }
  // A last line without a newline is a line too.
  return last === 10 ? lines : lines + 1;
}

/**
 * What JSON escaping adds to some text's bytes: one for a quote, a backslash or \n \r \t \b \f; five for another
 * control byte; and, in text that is not UTF-8, two for each byte past ASCII (at most what decodeText makes of it).
 */
function escapeExtra(bytes: Buffer): number {
  const foreign = !isUtf8(bytes);
  let extra = 0;
  for (const byte of bytes) {
    if (byte === 0x22 || byte === 0x5c || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x08 || byte === 0x0c) extra++;
    else if (byte < 0x20) extra += 5;
    else if (foreign && byte >= 0x80) extra += 2;
  }
  return extra;
}

/** The largest cut at or before `at` that does not split a UTF-8 character. */
function utf8Boundary(bytes: Buffer, at: number): number {
  let cut = Math.min(at, bytes.length);
  // Continuation bytes are 10xxxxxx: step back to the start of the character they belong to.
  while (cut > 0 && cut < bytes.length && (bytes[cut]! & 0xc0) === 0x80) cut--;
  return cut;
}
