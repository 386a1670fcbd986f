// A line the SDK's stdio transport cannot take as a JSON-RPC message (not JSON, no object, a
// request whose params are no object) it only logs, with zod's dump, and answers nothing: the
// client's request then waits forever. Such a line gets the JSON-RPC error here instead. Read by
// hand, before the SDK and zod are loaded (early-stdio.ts); the SDK judges every other line.

type Id = string | number | null;

export interface MalformedReply {
  id: Id;
  code: number;
  message: string;
}

/** Lines longer than this are handed on unread: parsing them twice would cost, and they are the SDK's to judge. */
const CHECKED_BYTES = 1024 * 1024;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is string | number => typeof value === "string" || typeof value === "number";

/** The error a malformed line gets, or undefined when it is a message (or too long to check here). */
export function malformedReply(line: Buffer): MalformedReply | undefined {
  if (line.length > CHECKED_BYTES) return undefined;
  const text = line.toString("utf8").trim();
  if (text === "") return undefined;
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return { id: null, code: -32700, message: "Parse error: the line is not JSON; send one JSON-RPC message per line" };
  }
  if (!isRecord(message)) return { id: null, code: -32600, message: "Invalid Request: a message is one JSON object" };
  const id = isId(message.id) ? message.id : null;
  if (message.jsonrpc !== "2.0") return { id, code: -32600, message: 'Invalid Request: a message says "jsonrpc": "2.0"' };
  // A response to one of the server's requests (roots/list) has a result or an error, and no method.
  if (typeof message.method !== "string") {
    if ("result" in message || "error" in message) return undefined;
    return { id, code: -32600, message: 'Invalid Request: no "method"' };
  }
  if (message.params !== undefined && !isRecord(message.params)) {
    // A notification is answered by nobody; the SDK logs it.
    if (!("id" in message)) return undefined;
    return { id, code: -32602, message: `Invalid params: ${message.method} takes params as an object` };
  }
  return undefined;
}
