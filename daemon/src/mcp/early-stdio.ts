// Answers `initialize` on stdio before the MCP SDK and the capabilities have loaded (loading them
// takes longer than a client should wait for a handshake). Everything read from stdin is handed on
// unchanged to the SDK's stdio transport once it is ready: first the initialize request alone (the
// SDK answers it again, so it knows the client; that second reply is dropped here after checking
// it says the same), then, once the SDK has answered it, whatever came after. Holding the rest
// back keeps the order a client relies on: nothing is handled before initialize is done.
import { PassThrough, Writable } from "node:stream";
import { initializeResult } from "./identity.js";

export interface EarlyStdio {
  /** Streams for the SDK's StdioServerTransport: all of stdin so far and to come; stdout. */
  stdin: PassThrough;
  stdout: Writable;
}

/** `differs` hears of an SDK reply that says something else than the early one (a bug to log). */
export function answerInitializeEarly(instructions: string, differs: (early: string, sdk: string) => void): EarlyStdio {
  const stdin = new PassThrough();
  let head: Buffer | undefined = Buffer.alloc(0);
  let answered: { id: string | number; reply: string } | undefined;
  /** What arrived after the early-answered initialize, until the SDK has answered it too. */
  let held: Buffer[] | undefined;
  let ended = false;

  const release = () => {
    if (held) stdin.write(Buffer.concat(held));
    held = undefined;
    if (ended) stdin.end();
  };

  const answer = (line: Buffer): boolean => {
    try {
      const first = JSON.parse(line.toString("utf8")) as { id?: string | number; method?: string; params?: { protocolVersion?: unknown } };
      if (first.method !== "initialize" || first.id === undefined) return false;
      const result = initializeResult(first.params?.protocolVersion, instructions);
      process.stdout.write(`${JSON.stringify({ result, jsonrpc: "2.0", id: first.id })}\n`);
      answered = { id: first.id, reply: JSON.stringify(result) };
      return true;
    } catch {
      return false; // Not JSON: the SDK will say so.
    }
  };

  process.stdin.on("data", (chunk: Buffer) => {
    if (head === undefined) {
      if (held) held.push(chunk);
      else stdin.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const newline = head.indexOf(10);
    if (newline === -1) return;
    const first = head.subarray(0, newline + 1);
    const rest = head.subarray(newline + 1);
    head = undefined;
    stdin.write(first);
    if (answer(first)) held = [rest];
    else stdin.write(rest);
  });
  process.stdin.once("end", () => {
    ended = true;
    if (!held) stdin.end();
  });

  const stdout = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (answered && held) {
        const message = JSON.parse(chunk.toString("utf8")) as { id?: unknown; result?: unknown; error?: unknown };
        if (message.id === answered.id && (message.result !== undefined || message.error !== undefined)) {
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
  return { stdin, stdout };
}
