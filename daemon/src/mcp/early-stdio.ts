// Answers `initialize` on stdio before the MCP SDK and the capabilities have loaded (loading them
// takes longer than a client should wait for a handshake), and frames stdin into whole lines for
// the SDK's stdio transport. First the initialize request goes on alone (the SDK answers it again,
// so it knows the client; that second reply is dropped here after checking it says the same), then,
// once the SDK has answered it, whatever came after. Holding the rest back keeps the order a
// client relies on: nothing is handled before initialize is done.
//
// Framing here also bounds what one message may cost: the SDK's transport closes the whole
// connection (and so ends the server) on a message over its buffer limit, and re-copies its buffer
// on every chunk of a long line. Lines are handed on whole, one write each, and a line over
// `maxMessageBytes` is not handed on at all: its request gets a JSON-RPC error saying so, as does a
// line that is no JSON-RPC message at all (malformed.ts).
import { PassThrough, Writable } from "node:stream";
import { initializeResult } from "./identity.js";
import { malformedReply } from "./malformed.js";

/** Default bound of one message: a write of fs.max_write_bytes (10 MiB) fits even when JSON escaping multiplies it. */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** Bytes kept of each end of an oversized line, to find its request id. */
const KEPT = 512;

export interface EarlyStdio {
  /** Streams for the SDK's StdioServerTransport: all of stdin so far and to come, in whole lines; stdout. */
  stdin: PassThrough;
  stdout: Writable;
  /** The largest message (line) handed on; may be raised once the configuration is known. Give it to the SDK's transport as its buffer limit. */
  maxMessageBytes: number;
  /** Hears of each oversized message refused (to log it). */
  onOversized?: (bytes: number) => void;
}

type Id = string | number | null;

// Narrowing by hand: zod is not loaded yet when these lines are read (that is the point of this file).
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is string | number => typeof value === "string" || typeof value === "number";

/** `text` as JSON, or undefined when it is not JSON (whoever reads it next says so). */
function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/** The id of a request cut to its two ends: the SDK puts "jsonrpc" and "id" last, others often first. */
export function idOfOversized(head: string, tail: string): Id | undefined {
  const value = String.raw`(-?\d+|"(?:[^"\\]|\\.){0,200}")`;
  const found =
    new RegExp(String.raw`"id"\s*:\s*${value}\s*\}\s*$`).exec(tail) ??
    new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${value}`).exec(head);
  if (found) {
    const id = jsonOrUndefined(found[1]!);
    return isId(id) ? id : null; // an id string with a bad escape is answered as unknown (null)
  }
  // A notification has a method and no id: nobody waits for an answer.
  if (/"method"\s*:\s*"notifications\//.test(head)) return undefined;
  return null;
}

/** `differs` hears of an SDK reply that says something else than the early one (a bug to log). */
export function answerInitializeEarly(instructions: string, differs: (early: string, sdk: string) => void): EarlyStdio {
  const stdin = new PassThrough();
  let first = true;
  let answered: { id: string | number; reply: string } | undefined;
  /** Lines that arrived after the early-answered initialize, until the SDK has answered it too. */
  let held: Buffer[] | undefined;
  let ended = false;

  const release = () => {
    for (const line of held ?? []) stdin.write(line);
    held = undefined;
    if (ended) stdin.end();
  };

  const answer = (line: Buffer): boolean => {
    // Not JSON, or not an initialize request: the SDK answers it (or says what is wrong with it).
    const request = jsonOrUndefined(line.toString("utf8"));
    if (!isRecord(request) || request.method !== "initialize" || !isId(request.id)) return false;
    const params = isRecord(request.params) ? request.params : {};
    const result = initializeResult(params.protocolVersion, instructions);
    process.stdout.write(`${JSON.stringify({ result, jsonrpc: "2.0", id: request.id })}\n`);
    answered = { id: request.id, reply: JSON.stringify(result) };
    return true;
  };

  const handOn = (line: Buffer) => {
    const malformed = malformedReply(line);
    if (malformed) {
      const { id, code, message } = malformed;
      process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })}\n`);
      return;
    }
    if (first) {
      first = false;
      stdin.write(line);
      if (answer(line)) held = [];
      return;
    }
    if (held) held.push(line);
    else stdin.write(line);
  };

  const refuse = (bytes: number, head: Buffer, tail: Buffer) => {
    early.onOversized?.(bytes);
    const id = idOfOversized(head.toString("utf8"), tail.toString("utf8"));
    if (id === undefined) return;
    const message = `request is ${bytes} bytes, over this server's limit of ${early.maxMessageBytes} bytes per message: send large content in parts (write_content with append: true)`;
    process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32600, message } })}\n`);
  };

  // The line being read: its pieces, or, once it is too long, only its two ends.
  let pieces: Buffer[] = [];
  let length = 0;
  let oversized: { head: Buffer; tail: Buffer } | undefined;

  process.stdin.on("data", (chunk: Buffer) => {
    for (let start = 0; start < chunk.length; ) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline + 1;
      const piece = chunk.subarray(start, end);
      start = end;
      length += piece.length;
      if (oversized) oversized.tail = Buffer.concat([oversized.tail, piece]).subarray(-KEPT);
      else if (length > early.maxMessageBytes) {
        const line = Buffer.concat([...pieces, piece]);
        oversized = { head: line.subarray(0, KEPT), tail: line.subarray(-KEPT) };
        pieces = [];
      } else pieces.push(piece);
      if (newline === -1) break;
      if (oversized) refuse(length, oversized.head, oversized.tail);
      else handOn(pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces));
      pieces = [];
      length = 0;
      oversized = undefined;
    }
  });
  process.stdin.once("end", () => {
    if (pieces.length > 0 && !oversized) handOn(Buffer.concat(pieces));
    ended = true;
    if (!held) stdin.end();
  });

  const stdout = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (answered && held) {
        const message = jsonOrUndefined(chunk.toString("utf8"));
        if (isRecord(message) && message.id === answered.id && (message.result !== undefined || message.error !== undefined)) {
          const sdk = JSON.stringify(message.result ?? message.error);
          if (sdk !== answered.reply) differs(answered.reply, sdk);
          release();
          callback();
          return;
        }
      }
      if (process.stdout.write(chunk)) callback();
      else process.stdout.once("drain", () => callback());
    },
  });
  const early: EarlyStdio = { stdin, stdout, maxMessageBytes: DEFAULT_MAX_MESSAGE_BYTES };
  return early;
}
