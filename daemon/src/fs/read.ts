// read_content: several files in one call, each optionally cut to a line range, all within one
// byte budget. When the budget runs out the result says where to continue; binary files are
// described, not dumped. Files are read in chunks, so a huge file costs only what is returned.
// A line longer than the whole budget comes back cut; its rest is for `run` to read (cutLineHint).
import { isAbsolute } from "node:path";
import { describeBinary } from "../files/binary-file.js";
import { openTextFile, readPage, type TextFile } from "../files/text-page.js";
import { shellWord } from "../shell-word.js";
import type { Confinement } from "./confine.js";
import { FsError } from "./errors.js";
import { isGlobPath } from "./glob.js";
import { eachItem } from "./items.js";
import { matchingFiles } from "./glob-paths.js";
import { noSuchFile } from "./same-named.js";

export interface ReadRequest {
  paths: string[];
  startLine?: number;
  endLine?: number;
  /** What one answer shows (text-page.ts): a file larger than what is left of the budget is read this much at a time. */
  pageBytes?: number;
}

export interface ReadItem {
  path: string;
  content?: string;
  start_line?: number;
  end_line?: number;
  /** Lines in the file, when the read reached its end or counted on past its range (text-page.ts). */
  total_lines?: number;
  /** The budget ran out: call again with this start_line for the rest. */
  next_start_line?: number;
  /** The only line returned was longer than the whole budget and was cut (see cutLineHint). */
  line_cut?: boolean;
  binary?: { size: number; kind: string };
  error?: string;
}

interface Budget {
  left: number;
  readonly total: number;
}

interface Opened extends TextFile {
  shown: string;
}

/** Resolves, opens and reads the head of one file. Done for every path at once; the budget is then spent in order. */
function openOne(confinement: Confinement, path: string, suggest: boolean): Promise<Opened> {
  return confinement.hold(path, "follow", async (resolved) => {
    if (!resolved.exists) {
      // A kept result goes when newer ones outgrow the store (responses.keep_files, keep_seconds, keep_bytes).
      if (confinement.keptResult(resolved.real) === "here")
        throw new FsError(`${path}: this kept result is gone`, "run the call that made it again");
      const otherwise = isGlobPath(path)
        ? "a glob here reads the files it matches, and it matches none"
        : "use list_files or search_files to find it";
      throw await noSuchFile(confinement, path, otherwise, suggest);
    }
    const file = await openTextFile(resolved.at);
    if (file === "directory") throw new FsError(`${path}: is a directory`, "use list_files for directories");
    if (file === "special") throw new FsError(`${path}: not a regular file`, "only regular files can be read");
    return { ...file, shown: confinement.shown(resolved.real) };
  });
}

async function readOpened(opened: Opened, request: ReadRequest, budget: Budget, signal: AbortSignal): Promise<ReadItem> {
  const { shown, head, size } = opened;
  const start = request.startLine ?? 1;
  // A line longer than what is left of the budget is cut only when it is longer than the whole budget.
  const page = await readPage(opened, {
    startLine: start,
    endLine: request.endLine,
    maxBytes: budget.left,
    pageBytes: request.pageBytes,
    cutLongLine: budget.left === budget.total,
    signal,
  });
  if (page.binary) return { path: shown, binary: { size, kind: describeBinary(head) } };
  // What the budget left had no room for the file's first line.
  if (page.endLine < page.startLine && page.nextStartLine !== undefined) {
    throw new FsError(`${shown}: not read: line ${start} is longer than what is left of this call's byte budget; read it in another call`);
  }
  if (page.totalLines !== undefined && start > Math.max(page.totalLines, 1)) {
    throw new FsError(`${shown}: start_line ${start} is past the end (${page.totalLines} lines)`);
  }
  // A cut line took the whole budget.
  budget.left = page.lineCut ? 0 : budget.left - Buffer.byteLength(page.text);
  const item: ReadItem = { path: shown, content: page.text, start_line: page.startLine, end_line: page.endLine };
  if (page.totalLines !== undefined) item.total_lines = page.totalLines;
  if (page.nextStartLine !== undefined) item.next_start_line = page.nextStartLine;
  if (page.lineCut) item.line_cut = true;
  return item;
}

export async function readContent(
  confinement: Confinement,
  request: ReadRequest,
  budgetBytes: number,
  signal: AbortSignal,
): Promise<ReadItem[]> {
  if (request.startLine !== undefined && request.endLine !== undefined && request.endLine < request.startLine) {
    throw new FsError(`end_line ${request.endLine} is before start_line ${request.startLine}`);
  }
  const paths = (await Promise.all(request.paths.map((path) => matchingFiles(confinement, path, signal)))).flat();
  request = { ...request, paths };
  const budget: Budget = { left: budgetBytes, total: budgetBytes };
  // A file of that name elsewhere is looked for when one file is asked: not a listing of the tree per path of a long list.
  const opening = request.paths.map((path) => openOne(confinement, path, request.paths.length === 1));
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
    await Promise.all(
      opening.map((pending) =>
        pending.then(
          (opened) => opened.handle.close(),
          () => {},
        ),
      ),
    );
  }
}

/** How much of a cut line one `run` of cutLineHint's command shows: about half the default answer budget. */
const RUN_PAGE_BYTES = 16_000;

/**
 * Where a cut item's line was cut and how to read on, in one line: read_content returns no more of
 * a line, but `run` in `shell` (a bash environment that sees the project at /project, when there is
 * one) reads the file by bytes. The cut is counted in the content's UTF-8 bytes (the file's, unless
 * it is not valid UTF-8).
 */
export function cutLineHint(item: ReadItem, shell: string | undefined): string {
  const cutAt = Buffer.byteLength(item.content ?? "");
  const said = `line ${item.end_line} cut after ${cutAt} bytes`;
  const skip = item.next_start_line ? `; or skip to start_line ${item.next_start_line}` : "";
  if (shell === undefined)
    return `[${said}: read_content reads no further into a line, and no run environment here sees the project${skip}]`;
  if (isAbsolute(item.path)) return `[${said}: read_content reads no further into a line, and run sees only the project${skip}]`;
  const file = shellWord(`/project/${item.path}`);
  const from = item.end_line === 1 ? `tail -c +${cutAt + 1} ${file}` : `tail -n +${item.end_line} ${file} | tail -c +${cutAt + 1}`;
  const then = cutAt + 1 + RUN_PAGE_BYTES;
  return `[${said}: read on with run (env ${shell}), ${RUN_PAGE_BYTES} bytes a call: ${from} | head -c ${RUN_PAGE_BYTES}, then +${then} and so on${skip}]`;
}
