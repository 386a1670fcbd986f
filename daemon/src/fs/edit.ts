// edit_file: exact text replacements, all or nothing. Each old_text must match exactly once (or,
// with replace_all, at least once); otherwise the error shows where it matched, or the lines that came closest, so the agent can
// correct itself without re-reading the file. Returns a unified diff.
import { writeAtomically } from "./atomic.js";
import type { Confinement } from "./confine.js";
import { isUtf8 } from "node:buffer";
import type { FileHandle } from "node:fs/promises";
import { isBinaryFile } from "../files/binary-file.js";
import { unifiedDiff } from "./diff.js";
import { FsError } from "./errors.js";
import { noSuchFile } from "./same-named.js";
import { existingFile, openExisting } from "./write.js";

export interface Edit {
  old_text: string;
  new_text: string;
  /** Every occurrence, as a rename wants. */
  replace_all?: boolean;
}

export interface EditResult {
  path: string;
  diff: string;
  edits: number;
  dry_run: boolean;
}

const lineOf = (text: string, index: number) => text.slice(0, index).split("\n").length;

/**
 * Where `needle` stands in `text`, not overlapping, as replace_all replaces them: each search starts past the last
 * one found (one character on, a needle of repeats took hours in a file of repeats).
 */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

/** How alike two lines are, ignoring surrounding whitespace: 1 for equal, else the shared prefix share. */
function likeness(a: string, b: string): number {
  const x = a.trim();
  const y = b.trim();
  if (x === y) return 1;
  let same = 0;
  while (same < x.length && same < y.length && x[same] === y[same]) same++;
  return same / Math.max(x.length, y.length, 1);
}

/** The window of the file's lines most like the needle's lines, numbered, for the error message. */
function closestLines(text: string, needle: string): string {
  const lines = text.split("\n");
  const wanted = needle.split("\n").slice(0, 20);
  let best = { score: -1, at: 0 };
  const stride = Math.max(1, Math.floor((lines.length * wanted.length) / 2_000_000));
  for (let at = 0; at < lines.length; at += stride) {
    let score = 0;
    for (let j = 0; j < wanted.length && at + j < lines.length; j++) score += likeness(lines[at + j]!, wanted[j]!);
    if (score > best.score) best = { score, at };
  }
  return lines
    .slice(best.at, best.at + Math.min(wanted.length, 8))
    .map((line, index) => `${best.at + index + 1}: ${line}`)
    .join("\n");
}

function applyEdit(text: string, edit: Edit, index: number, crlf: boolean, path: string, maxBytes: number): string {
  const label = `edits[${index}].old_text`;
  if (edit.old_text === "")
    throw new FsError(`${label} is empty`, "quote the text to replace; to add text, include a neighbouring line in old_text and new_text");
  let needle = edit.old_text;
  // The file uses CRLF while the agent writes LF: new lines end as the file's do.
  const replacement = crlf ? edit.new_text.replace(/\r?\n/g, "\r\n") : edit.new_text;
  let found = occurrences(text, needle);
  if (found.length === 0 && crlf && !needle.includes("\r\n")) {
    // ...and the text to replace is matched in the file's convention.
    needle = needle.replace(/\n/g, "\r\n");
    found = occurrences(text, needle);
  }
  if (found.length === 0) {
    throw new FsError(
      `${label} was not found. The closest lines are:\n${closestLines(text, edit.old_text)}`,
      "copy old_text exactly from the file (indentation and whitespace count), or read_content those lines again",
    );
  }
  if (edit.replace_all) {
    // Refused before it is made: replacements can grow the text many times over, edit after edit.
    refuseOverLimit(path, Buffer.byteLength(text) + found.length * (Buffer.byteLength(replacement) - Buffer.byteLength(needle)), maxBytes);
    return text.split(needle).join(replacement);
  }
  // One more match overlapping the first ("}\n}\n" in "}\n}\n}\n") makes old_text no less ambiguous.
  const overlapping = found.length === 1 ? text.indexOf(needle, found[0]! + 1) : -1;
  if (overlapping >= 0) found = [found[0]!, overlapping];
  if (found.length > 1) {
    // Each line once (several matches may share one), the first ten.
    const lines = new Set<number>();
    for (const at of found.slice(0, 1000)) {
      lines.add(lineOf(text, at));
      if (lines.size > 10) break;
    }
    throw new FsError(
      `${label} matches ${found.length} times (lines ${[...lines].slice(0, 10).join(", ")}${lines.size > 10 ? ", …" : ""})`,
      "add surrounding lines to old_text so it matches exactly once, or set replace_all to replace each",
    );
  }
  const at = found[0]!;
  return text.slice(0, at) + replacement + text.slice(at + needle.length);
}

/**
 * The opened file's bytes, refused past `maxBytes` as they are read: what was sized before the open may
 * since have been swapped or grown (a jail writing the project), and a sparse file of gigabytes costs nothing on disk.
 */
async function readAtMost(file: FileHandle, path: string, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(65536, maxBytes + 1 - total));
    const { bytesRead } = await file.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
    if (total > maxBytes) refuseOverLimit(path, Math.max(total, (await file.stat()).size), maxBytes);
  }
}

function refuseOverLimit(path: string, size: number, maxBytes: number): void {
  if (size > maxBytes) {
    throw new FsError(
      `${path}: ${size} bytes, over the ${maxBytes}-byte limit (fs.max_write_bytes)`,
      "raise fs.max_write_bytes, or rewrite the file with write_content appends",
    );
  }
}

export async function editFile(
  confinement: Confinement,
  path: string,
  edits: Edit[],
  dryRun: boolean,
  maxBytes: number,
): Promise<EditResult> {
  return confinement.hold(path, "entry", async (target) => {
    const existing = await existingFile(target, path);
    if (!existing) throw await noSuchFile(confinement, path, "use write_content to create a file");
    confinement.refuseProtected(target.real, path);
    // Sized before reading, so a huge file is refused without being loaded.
    refuseOverLimit(path, existing.size, maxBytes);
    const { file } = await openExisting(target, path);
    const raw = await readAtMost(file, path, maxBytes).finally(() => file.close());
    if (isBinaryFile(raw)) throw new FsError(`${path}: is a binary file`, "edit_file edits text files only");
    // Decoded and written back, bytes of another encoding (Latin-1's é) would become U+FFFD everywhere.
    if (!isUtf8(raw)) throw new FsError(`${path}: is not UTF-8 text`, "edit_file edits UTF-8 text only; its other lines would change too");
    const before = raw.toString("utf8");
    const crlf = before.includes("\r\n");
    const after = edits.reduce((text, edit, index) => applyEdit(text, edit, index, crlf, path, maxBytes), before);
    // The edits must not grow the file past the limit either.
    refuseOverLimit(path, Buffer.byteLength(after), maxBytes);
    const shown = confinement.shown(target.real);
    if (!dryRun && after !== before) await writeAtomically(target, after, existing);
    return { path: shown, diff: unifiedDiff(before, after, shown), edits: edits.length, dry_run: dryRun };
  });
}
