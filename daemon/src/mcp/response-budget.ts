// One tool call's whole answer (text plus structured content, as JSON) within a byte budget, for
// every tool. Structured content that repeats the text's payload (a file read, a program's output)
// keeps its shape with each long string cut to a short head and tail and long arrays to their
// first items: programs learn the facts, the payload is the text's. An answer still too long is
// cut once more: the text keeps the head and tail lines of each of its parts (a program's stdout
// and stderr each under its header), one line each saying what was omitted and where the whole
// text is kept. The whole text is kept, and cut, with lines longer than a page wrapped, so any
// range of it the agent pages through read_content fits an answer.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** Where the whole text went, for the marker: a path the agent can page (`wrapped`: with long lines wrapped), or why it was not kept. */
export type Kept = { path: string; wrapped?: boolean } | { error: string };

/**
 * A part of an answer's text that is lines `firstLine`… of a file the agent reads by lines itself
 * (`call`: `read_content "big.txt"`): cut, its marker names that call and the file's own line
 * numbers, not the kept text.
 */
export interface FilePart {
  text: string;
  file: { call: string; firstLine: number; totalLines?: number };
}
export type TextPart = string | FilePart;

export const partText = (part: TextPart): string => (typeof part === "string" ? part : part.text);

/** Where a cut part's omitted lines are to be read: the kept text, or (a file part's) the file, by its call. */
type ReadFrom = Kept | { call: string };

/** The JSON-RPC envelope around a result (id, jsonrpc, result key): kept out of the budget. */
const ENVELOPE_BYTES = 128;
/** The share of the budget structured content may keep once an answer is cut. */
const STRUCTURED_SHARE = 1 / 8;
/** Each step cuts strings and arrays in the structured content shorter, until it fits its share. */
const SHRINK_STEPS = [
  { chars: 512, items: 50 },
  { chars: 128, items: 10 },
  { chars: 32, items: 3 },
  { chars: 0, items: 1 },
];

/** Room kept for a listing's closing line ("… 4000 more (…; all 5000 are in …: read_content it from start_line 1001)"). */
const CLOSING_LINE_BYTES = 512;

/**
 * How many bytes of text (as JSON escapes it) an answer of `maxBytes` holds beside its abridged
 * structured content: a listing that stops there keeps its own pointer to the rest and is never cut
 * a second time, into a second file.
 */
export function textRoom(maxBytes: number): number {
  return Math.floor((maxBytes - ENVELOPE_BYTES) * (1 - STRUCTURED_SHARE)) - CLOSING_LINE_BYTES;
}

export function responseBytes(result: CallToolResult): number {
  return Buffer.byteLength(JSON.stringify(result));
}

/** The text of a result: its text content items, joined. */
export function resultText(result: CallToolResult): string {
  return result.content
    .filter((item) => item.type === "text")
    .map((item) => item.text)
    .join("\n");
}

/** Where the payload of abridged structured content is. */
const IN_THE_TEXT = "the text holds the whole answer";

/**
 * The result itself when it fits `maxBytes` and repeats nothing, else the abridged or cut one.
 * `parts` are the text's parts (joined by newlines, they are the text); `keep` stores the whole
 * text (called only when the text is cut) and says where.
 */
export async function fitResponse(
  result: CallToolResult,
  maxBytes: number,
  keep: (text: string) => Promise<Kept>,
  parts: TextPart[] = [resultText(result)],
): Promise<CallToolResult> {
  const limit = maxBytes - ENVELOPE_BYTES;
  // Most answers are small: whatever they repeat costs little.
  if (responseBytes(result) <= limit * STRUCTURED_SHARE) return result;
  const once = withoutRepeat(result, limit * STRUCTURED_SHARE);
  if (responseBytes(once) <= limit) return once;
  const pageBytes = Math.floor(maxBytes / 2);
  const texts = parts.map(partText);
  const wrapped = texts.map((part) => wrapLongLines(part, pageBytes));
  const stored = await keep(wrapped.join("\n"));
  const kept = "path" in stored && wrapped.some((part, i) => part !== texts[i]) ? { ...stored, wrapped: true } : stored;
  // A file part with lines wrapped no longer counts the file's lines: its marker points to the kept text.
  const files = parts.map((part, i) => (typeof part === "string" || wrapped[i] !== texts[i] ? undefined : part.file));
  const where = wholeText(kept);
  const shrunk = result.structuredContent && shrinkStructured(result.structuredContent, limit * STRUCTURED_SHARE, where);
  // _meta tells a program reading structured content that it was cut (arrays carry no marker).
  const cut: CallToolResult = {
    ...result,
    content: [{ type: "text", text: "" }],
    ...(shrunk ? { structuredContent: shrunk.value } : {}),
    _meta: { ...result._meta, "nixshed/cut": `${where}${shrunk?.arrays ?? ""}` },
  };
  // The text gets what the rest leaves; escaping is counted exactly, so one pass fits.
  cut.content = [{ type: "text", text: cutParts(wrapped, limit - responseBytes(cut), kept, pageBytes, files) }];
  return cut;
}

/**
 * The result with its structured content abridged to `share` bytes when it repeats the text's
 * payload: larger than that, beside a text at least a quarter its size (a listing's text is that much
 * terser than its JSON; a summary text, far smaller, leaves it whole).
 */
function withoutRepeat(result: CallToolResult, share: number): CallToolResult {
  if (result.structuredContent === undefined) return result;
  const bytes = Buffer.byteLength(JSON.stringify(result.structuredContent));
  if (bytes <= share || Buffer.byteLength(resultText(result)) * 4 < bytes) return result;
  const shrunk = shrinkStructured(result.structuredContent, share, IN_THE_TEXT);
  return { ...result, structuredContent: shrunk.value, _meta: { ...result._meta, "nixshed/cut": `${IN_THE_TEXT}${shrunk.arrays}` } };
}

/** What a string costs inside JSON, quotes left out. */
const escapedLength = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;

/** What a line of an answer's text costs: escaped, with its line break ("\n", as many bytes as the quotes left out). */
export const lineBytes = (line: string): number => escapedLength(line) + 2;

/**
 * The parts within `maxBytes` (escaped), joined by newlines: the room shared out smallest first, so
 * a short part stays whole and each long one keeps its own head and tail, its marker counting lines
 * in the whole text, or, for a part from a file (`files`), in that file. Cut as one text when the
 * parts' markers alone would not fit.
 */
function cutParts(parts: string[], maxBytes: number, kept: Kept, pageBytes: number, files: (FilePart["file"] | undefined)[]): string {
  const text = parts.join("\n");
  const sizes = parts.map(escapedLength);
  let left = maxBytes - 2 * (parts.length - 1);
  const shares: number[] = [];
  const smallestFirst = parts.map((_, i) => i).sort((a, b) => sizes[a]! - sizes[b]!);
  for (const [done, i] of smallestFirst.entries()) {
    shares[i] = Math.min(sizes[i]!, Math.floor(left / (parts.length - done)));
    left -= shares[i]!;
  }
  const totalLines = lineCount(text);
  let firstLine = 1;
  const cut = parts
    .map((part, i) => {
      const place = { firstLine, totalLines };
      firstLine += countLines(part, 0, part.length) + 1;
      if (sizes[i]! <= shares[i]!) return part;
      const file = files[i];
      return file ? cutText(part, shares[i]!, { call: file.call }, pageBytes, file) : cutText(part, shares[i]!, kept, pageBytes, place);
    })
    .join("\n");
  return escapedLength(cut) <= maxBytes ? cut : cutText(text, maxBytes, kept, pageBytes);
}

function wholeText(kept: ReadFrom, page?: { start: number; end: number }): string {
  if ("call" in kept) return `${kept.call}${page ? ` with start_line ${page.start}, end_line ${page.end}` : ""}`;
  if ("error" in kept) return `the whole text was not kept (${kept.error})`;
  const wrapped = kept.wrapped ? " (long lines wrapped)" : "";
  return `the answer's whole text is in ${kept.path}${wrapped}${page ? `: read_content it with start_line ${page.start}, end_line ${page.end}` : ""}`;
}

/**
 * Long strings and arrays cut, step by step, until the whole fits `maxBytes`; the shape stays. A cut
 * string says so in itself; `arrays` says, for _meta, to how many items arrays were cut (an array
 * cannot say it), or is empty.
 */
function shrinkStructured(
  value: Record<string, unknown>,
  maxBytes: number,
  where: string,
): { value: Record<string, unknown>; arrays: string } {
  let shrunk = { value, arrays: "" };
  for (const step of SHRINK_STEPS) {
    const cutArrays = { any: false };
    shrunk = { value: shrink(value, step.chars, step.items, where, cutArrays) as Record<string, unknown>, arrays: "" };
    if (cutArrays.any) shrunk.arrays = `; structured arrays keep their first ${step.items} item${step.items === 1 ? "" : "s"}`;
    if (Buffer.byteLength(JSON.stringify(shrunk.value)) <= maxBytes) break;
  }
  return shrunk;
}

function shrink(value: unknown, chars: number, items: number, where: string, cutArrays: { any: boolean }): unknown {
  if (typeof value === "string") {
    if (value.length <= Math.max(chars, 64) + 64) return value;
    const half = Math.floor(chars / 2);
    const head = wholeLines(value.slice(0, half), false);
    const tail = half > 0 ? wholeLines(value.slice(-half), true) : "";
    return `${head}${head && !head.endsWith("\n") ? "\n" : ""}[… ${value.length - head.length - tail.length} characters omitted; ${where} …]\n${tail}`;
  }
  if (Array.isArray(value)) {
    if (value.length > items) cutArrays.any = true;
    return value.slice(0, items).map((item) => shrink(item, chars, items, where, cutArrays));
  }
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shrink(item, chars, items, where, cutArrays)]));
  }
  return value;
}

/** A head (or tail) piece of a string trimmed to whole lines when a line break is near its inner edge. */
function wholeLines(piece: string, fromEnd: boolean): string {
  if (fromEnd) {
    const start = piece.indexOf("\n");
    return start !== -1 && start < piece.length / 4 ? piece.slice(start + 1) : piece;
  }
  const end = piece.lastIndexOf("\n");
  return end !== -1 && end >= (piece.length * 3) / 4 ? piece.slice(0, end + 1) : piece;
}

/** What the character at `index` costs inside a JSON string, in UTF-8 bytes. */
function escapedBytes(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code === 0x22 || code === 0x5c) return 2;
  if (code < 0x20) return code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d ? 2 : 6;
  if (code < 0x80) return 1;
  if (code < 0x800) return 2;
  if (code < 0xd800 || code > 0xdfff) return 3;
  // Each half of a surrogate pair costs 2 (4 bytes in all); a lone one is escaped as \uXXXX.
  const paired = code < 0xdc00 ? isLow(text.charCodeAt(index + 1)) : isHigh(text.charCodeAt(index - 1));
  return paired ? 2 : 6;
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** How many characters from the start (or the end) fit `maxBytes` escaped; never splits a surrogate pair. */
function fittingChars(text: string, maxBytes: number, fromEnd: boolean): number {
  let bytes = 0;
  let count = 0;
  while (count < text.length) {
    const index = fromEnd ? text.length - 1 - count : count;
    bytes += escapedBytes(text, index);
    if (bytes > maxBytes) break;
    count++;
  }
  const edge = fromEnd ? text.length - count : count;
  const code = text.charCodeAt(edge);
  if (count > 0 && count < text.length && code >= 0xdc00 && code <= 0xdfff) count--;
  return count;
}

/** `text` with each line longer than `maxBytes` escaped broken into lines that fit: then any one line makes a page. */
function wrapLongLines(text: string, maxBytes: number): string {
  return text
    .split("\n")
    .map((line) => {
      if (escapedLength(line) <= maxBytes) return line;
      const pieces: string[] = [];
      for (let from = 0; from < line.length; ) {
        // A window of maxBytes characters holds at least what fits (each costs a byte or more).
        const size = fittingChars(line.slice(from, from + maxBytes), maxBytes, false);
        pieces.push(line.slice(from, from + size));
        from += size;
      }
      return pieces.join("\n");
    })
    .join("\n");
}

/** Lines of a text: a last line without a newline counts. */
const lineCount = (text: string) => countLines(text, 0, text.length) + (text.endsWith("\n") ? 0 : 1);

const countLines = (text: string, from: number, to: number): number => {
  let lines = 0;
  for (let at = text.indexOf("\n", from); at !== -1 && at < to; at = text.indexOf("\n", at + 1)) lines++;
  return lines;
};

/** The last line of a page that starts at `from` (line `line`) and fits `maxBytes` escaped (at least that line). */
function pageEnd(text: string, from: number, line: number, maxBytes: number): number {
  const end = from + fittingChars(text.slice(from, from + maxBytes), maxBytes, false);
  return line + Math.max(0, countLines(text, from, end) - 1);
}

/**
 * Head and tail of `text` within `maxBytes` (escaped), cut at line ends where one is near, and
 * between them one line saying which lines were omitted, where they are to be read (the kept text,
 * or the file a file part is from) and which range makes a next page of about `pageBytes`. `place`:
 * where `text` starts there, and how many lines that has when known.
 */
export function cutText(
  text: string,
  maxBytes: number,
  kept: ReadFrom,
  pageBytes: number,
  place: { firstLine: number; totalLines?: number } = { firstLine: 1, totalLines: lineCount(text) },
): string {
  // The marker's own size depends on the numbers in it; a generous estimate of them is reserved.
  const reserve = 200 + Buffer.byteLength(JSON.stringify(wholeText(kept, { start: 0, end: 0 })));
  const room = Math.max(0, maxBytes - reserve);
  let headEnd = fittingChars(text, Math.floor(room / 2), false);
  let tailStart = text.length - fittingChars(text, room - Math.floor(room / 2), true);
  // A cut just before a newline takes it, so that no line shown whole is counted as omitted.
  if (text[headEnd] === "\n") headEnd++;
  if (text[tailStart] === "\n") tailStart++;
  if (headEnd >= tailStart) return text;
  // Whole lines where the cut falls within the last quarter of a half.
  const headLine = text.lastIndexOf("\n", headEnd - 1);
  if (headLine >= 0 && headLine + 1 >= headEnd * 0.75) headEnd = headLine + 1;
  const tailLine = text.indexOf("\n", tailStart);
  if (tailLine >= 0 && tailLine < tailStart + (text.length - tailStart) * 0.25) tailStart = tailLine + 1;
  const headLines = countLines(text, 0, headEnd);
  const middleLines = countLines(text, headEnd, tailStart);
  const firstLine = place.firstLine + headLines;
  // The line holding the last omitted character.
  const lastLine = firstLine - 1 + middleLines + (text[tailStart - 1] === "\n" ? 0 : 1);
  const omittedBytes = Buffer.byteLength(text.slice(headEnd, tailStart));
  const lines = firstLine === lastLine ? `line ${firstLine}` : `lines ${firstLine}-${lastLine}`;
  const head = text.slice(0, headEnd);
  // The page starts where line firstLine does, before any part of it the head shows.
  const firstLineStart = text.lastIndexOf("\n", headEnd - 1) + 1;
  const page = { start: firstLine, end: Math.min(lastLine, pageEnd(text, firstLineStart, firstLine, pageBytes)) };
  const of = place.totalLines === undefined ? "" : ` of ${place.totalLines}`;
  // A line the head or the tail shows some of is omitted only in part.
  const inPart = [
    ...new Set([...(head.endsWith("\n") || head === "" ? [] : [firstLine]), ...(text[tailStart - 1] === "\n" ? [] : [lastLine])]),
  ];
  const partly = inPart.length ? `; ${inPart.length === 1 ? "line" : "lines"} ${inPart.join(" and ")} in part` : "";
  const marker = `[… ${lines}${of} omitted (${omittedBytes} bytes${partly}); ${wholeText(kept, page)} …]`;
  return `${head}${head.endsWith("\n") || head === "" ? "" : "\n"}${marker}\n${text.slice(tailStart)}`;
}
