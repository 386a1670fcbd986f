// One tool call's whole answer (text plus structured content, as JSON) within a byte budget. A
// result that fits goes out unchanged. One that does not is cut once, here, for every tool: the
// structured content keeps its shape with each long string cut to a short head and tail and long
// arrays to their first items (programs learn the facts; the payload is the text's), the text keeps
// its head and tail lines, and one line says what was omitted and where the whole text is kept.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** Where the whole text went, for the marker: a path the agent can page, or why it was not kept. */
export type Kept = { path: string } | { error: string };

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

/**
 * The result itself when it fits `maxBytes`, else the cut one. `keep` stores the whole text (called
 * only when something is cut) and says where.
 */
export async function fitResponse(
  result: CallToolResult,
  maxBytes: number,
  keep: (text: string) => Promise<Kept>,
): Promise<CallToolResult> {
  const limit = maxBytes - ENVELOPE_BYTES;
  if (responseBytes(result) <= limit) return result;
  const text = resultText(result);
  const kept = await keep(text);
  // _meta tells a program reading structured content that it was cut (arrays carry no marker).
  const cut: CallToolResult = {
    ...result,
    content: [{ type: "text", text: "" }],
    _meta: { ...result._meta, "nixshed/cut": wholeText(kept) },
  };
  if (result.structuredContent !== undefined) {
    cut.structuredContent = shrinkStructured(result.structuredContent, limit * STRUCTURED_SHARE, wholeText(kept));
  }
  // The text gets what the rest leaves; escaping is counted exactly, so one pass fits.
  cut.content = [{ type: "text", text: cutText(text, limit - responseBytes(cut), kept, Math.floor(maxBytes / 2)) }];
  return cut;
}

function wholeText(kept: Kept, page?: { start: number; end: number }): string {
  if ("error" in kept) return `the whole text was not kept (${kept.error})`;
  return `the whole text is in ${kept.path}${page ? `: read_content it with start_line ${page.start}, end_line ${page.end}` : ""}`;
}

/** Long strings and arrays cut, step by step, until the whole fits `maxBytes`; the shape stays. */
function shrinkStructured(value: Record<string, unknown>, maxBytes: number, where: string): Record<string, unknown> {
  let shrunk = value;
  for (const step of SHRINK_STEPS) {
    shrunk = shrink(value, step.chars, step.items, where) as Record<string, unknown>;
    if (Buffer.byteLength(JSON.stringify(shrunk)) <= maxBytes) break;
  }
  return shrunk;
}

function shrink(value: unknown, chars: number, items: number, where: string): unknown {
  if (typeof value === "string") {
    if (value.length <= Math.max(chars, 64) + 64) return value;
    const half = Math.floor(chars / 2);
    const head = wholeLines(value.slice(0, half), false);
    const tail = half > 0 ? wholeLines(value.slice(-half), true) : "";
    return `${head}${head && !head.endsWith("\n") ? "\n" : ""}[… ${value.length - head.length - tail.length} characters omitted; ${where} …]\n${tail}`;
  }
  if (Array.isArray(value)) return value.slice(0, items).map((item) => shrink(item, chars, items, where));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shrink(item, chars, items, where)]));
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
 * between them one line saying which lines were omitted, where the whole text is kept and which
 * range of it makes a next page of about `pageBytes`.
 */
export function cutText(text: string, maxBytes: number, kept: Kept, pageBytes: number): string {
  // The marker's own size depends on the numbers in it; a generous estimate of them is reserved.
  const reserve = 200 + Buffer.byteLength(JSON.stringify(wholeText(kept, { start: 0, end: 0 })));
  const room = Math.max(0, maxBytes - reserve);
  let headEnd = fittingChars(text, Math.floor(room / 2), false);
  let tailStart = text.length - fittingChars(text, room - Math.floor(room / 2), true);
  if (headEnd >= tailStart) return text;
  // Whole lines where the cut falls within the last quarter of a half.
  const headLine = text.lastIndexOf("\n", headEnd - 1);
  if (headLine >= 0 && headLine + 1 >= headEnd * 0.75) headEnd = headLine + 1;
  const tailLine = text.indexOf("\n", tailStart);
  if (tailLine >= 0 && tailLine < tailStart + (text.length - tailStart) * 0.25) tailStart = tailLine + 1;
  const headLines = countLines(text, 0, headEnd);
  const middleLines = countLines(text, headEnd, tailStart);
  const firstLine = headLines + 1;
  // The line holding the last omitted character.
  const lastLine = headLines + middleLines + (text[tailStart - 1] === "\n" ? 0 : 1);
  const totalLines = headLines + middleLines + countLines(text, tailStart, text.length) + (text.endsWith("\n") ? 0 : 1);
  const omittedBytes = Buffer.byteLength(text.slice(headEnd, tailStart));
  const lines = firstLine === lastLine ? `line ${firstLine}` : `lines ${firstLine}-${lastLine}`;
  const head = text.slice(0, headEnd);
  const page = { start: firstLine, end: Math.min(lastLine, pageEnd(text, headEnd, firstLine, pageBytes)) };
  const marker = `[… ${lines} of ${totalLines} omitted (${omittedBytes} bytes); ${wholeText(kept, page)} …]`;
  return `${head}${head.endsWith("\n") || head === "" ? "" : "\n"}${marker}\n${text.slice(tailStart)}`;
}
