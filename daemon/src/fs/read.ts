// read_content: several files in one call, each optionally cut to a line range, all within one
// byte budget. When the budget runs out the result says where to continue; binary files are
// described, not dumped. Files are read in chunks, so a huge file costs only what is returned.
import { constants } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import type { Confinement } from "./confine.js";
import { describeBinary, isBinary } from "./binary.js";
import { FsError } from "./errors.js";
import { eachItem } from "./items.js";

const CHUNK = 65536;

export interface ReadRequest {
  paths: string[];
  startLine?: number;
  endLine?: number;
}

export interface ReadItem {
  path: string;
  content?: string;
  start_line?: number;
  end_line?: number;
  /** Lines in the file, when the read reached its end. */
  total_lines?: number;
  /** The budget ran out: call again with this start_line for the rest. */
  next_start_line?: number;
  /** The last line returned was longer than the budget and was cut. */
  line_cut?: boolean;
  binary?: { size: number; kind: string };
  error?: string;
}

interface Budget {
  left: number;
  readonly total: number;
}

interface Lines {
  text: string;
  first: number;
  last: number;
  total?: number;
  next?: number;
  cut?: boolean;
}

/** Lines [start, end] of an opened file, spending at most budget.left bytes. */
async function readLines({ file, head, size }: Opened, start: number, end: number, budget: Budget, signal: AbortSignal): Promise<Lines> {
  const kept: Buffer[] = [];
  let line = 1;
  let last = start - 1;
  let pending: Buffer[] = [];
  let position = head.length;
  let chunk: Buffer = head;
  let blocked: Buffer | undefined;
  const take = (piece: Buffer): "go" | "stop" => {
    if (line < start) return "go";
    if (line > end) return "stop";
    if (piece.length > budget.left) {
      blocked = piece;
      return "stop";
    }
    kept.push(piece);
    budget.left -= piece.length;
    last = line;
    return "go";
  };
  let stopped = false;
  while (!stopped) {
    let from = 0;
    for (let newline = chunk.indexOf(10, from); newline !== -1; newline = chunk.indexOf(10, from)) {
      const piece = pending.length ? Buffer.concat([...pending, chunk.subarray(from, newline + 1)]) : chunk.subarray(from, newline + 1);
      pending = [];
      from = newline + 1;
      if (take(piece) === "stop") {
        stopped = true;
        break;
      }
      line++;
    }
    if (stopped) break;
    if (from < chunk.length) pending.push(Buffer.from(chunk.subarray(from)));
    signal.throwIfAborted();
    const buffer = Buffer.alloc(CHUNK);
    // The size read at open is the end: no read just to learn there is nothing more.
    const { bytesRead } = position < size ? await file.read(buffer, 0, CHUNK, position) : { bytesRead: 0 };
    position += bytesRead;
    if (bytesRead === 0) {
      if (pending.length && take(Buffer.concat(pending)) === "stop") stopped = true;
      else if (pending.length) line++;
      break;
    }
    chunk = buffer.subarray(0, bytesRead);
  }
  const result: Lines = { text: Buffer.concat(kept).toString("utf8"), first: start, last };
  if (!stopped) result.total = line - 1;
  else if (line <= end) {
    result.next = line;
    // A single line larger than the whole budget would never fit: return its head, marked as cut.
    if (kept.length === 0 && blocked && budget.left === budget.total) {
      result.text = blocked.subarray(0, budget.left).toString("utf8");
      budget.left = 0;
      result.last = line;
      result.cut = true;
      result.next = line + 1;
    }
  }
  return result;
}

interface Opened {
  shown: string;
  file: FileHandle;
  size: number;
  head: Buffer;
}

/** Resolves, opens and reads the head of one file. Done for every path at once; the budget is then spent in order. */
async function openOne(confinement: Confinement, path: string): Promise<Opened> {
  const resolved = await confinement.resolve(path, "follow");
  if (!resolved.exists) throw new FsError(`${path}: no such file`, "use list_files or search_files to find it");
  // O_NOFOLLOW: the resolved path has no symlink left at its end; refuse one swapped in meanwhile.
  const file = await open(resolved.real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stats = await file.stat();
    if (stats.isDirectory()) throw new FsError(`${path}: is a directory`, "use list_files for directories");
    if (!stats.isFile()) throw new FsError(`${path}: not a regular file`, "only regular files can be read");
    const head = Buffer.alloc(Math.min(CHUNK, stats.size));
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    return { shown: confinement.shown(resolved.real), file, size: stats.size, head: head.subarray(0, bytesRead) };
  } catch (error) {
    await file.close();
    throw error;
  }
}

async function readOpened(opened: Opened, request: ReadRequest, budget: Budget, signal: AbortSignal): Promise<ReadItem> {
  const { shown, head, size } = opened;
  if (isBinary(head)) return { path: shown, binary: { size, kind: describeBinary(head) } };
  const start = request.startLine ?? 1;
  const lines = await readLines(opened, start, request.endLine ?? Number.MAX_SAFE_INTEGER, budget, signal);
  if (lines.total !== undefined && start > Math.max(lines.total, 1)) {
    throw new FsError(`${shown}: start_line ${start} is past the end (${lines.total} lines)`);
  }
  const item: ReadItem = { path: shown, content: lines.text, start_line: lines.first, end_line: lines.last };
  if (lines.total !== undefined) item.total_lines = lines.total;
  if (lines.next !== undefined) item.next_start_line = lines.next;
  if (lines.cut) item.line_cut = true;
  return item;
}

export async function readContent(confinement: Confinement, request: ReadRequest, budgetBytes: number, signal: AbortSignal): Promise<ReadItem[]> {
  if (request.startLine !== undefined && request.endLine !== undefined && request.endLine < request.startLine) {
    throw new FsError(`end_line ${request.endLine} is before start_line ${request.startLine}`);
  }
  const budget: Budget = { left: budgetBytes, total: budgetBytes };
  const opening = request.paths.map((path) => openOne(confinement, path));
  // Each failure is reported with its item, in order; until then it must not count as unhandled.
  for (const pending of opening) pending.catch(() => {});
  try {
    return await eachItem(
      request.paths.map((path, index) => ({ path, index })),
      signal,
      (item) => item.path,
      async ({ path, index }) => {
        const opened = await opening[index]!;
        if (budget.left <= 0) throw new FsError(`${path}: not read: this call's byte budget is spent; read it in another call`);
        return readOpened(opened, request, budget, signal);
      },
      ({ path }, error) => ({ path, error }),
    );
  } finally {
    await Promise.all(opening.map((pending) => pending.then((opened) => opened.file.close(), () => {})));
  }
}
