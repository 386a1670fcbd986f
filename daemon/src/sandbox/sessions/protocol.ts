// The daemon's side of the session protocol spoken by agent/kernel.{py,mjs,bash}:
//   fd 3 (daemon -> kernel), per call: "<id> <marker> <code bytes> <stdin bytes>\n" code "\0" stdin "\0"
//   fd 4 (kernel -> daemon): "ready <pid>\n" once, then per call "done <id> <exit code> <state>\n"
//   fds 1 and 2 carry only the user's output; after each call the kernel writes the call's marker to
//   both, and the daemon cuts the call's output there (./marked-stream.ts).
// Markers are random per call, so neither user output nor a late reply can end the wrong call.
// Why markers on long-lived fds 1/2 rather than fresh pipes per call passed with SCM_RIGHTS: Node
// can neither receive descriptors nor dup2 one onto its fd 1, and bash cannot receive them either;
// markers work the same in all three kernels, cost one write per stream, and a child process or a
// raw write(1, …) needs nothing from the kernel to land in the right call.
import { randomBytes } from "node:crypto";

/** Descriptors of the kernel's process: requests in, replies out. */
export const REQUEST_FD = 3;
export const REPLY_FD = 4;

export interface KernelRequest {
  id: number;
  marker: string;
  code: Buffer;
  stdin: Buffer;
}

export type KernelReply = { kind: "ready"; pid: number } | { kind: "done"; id: number; exitCode: number; interrupted: boolean };

export function newMarker(): string {
  return `__nixshed_end_${randomBytes(16).toString("hex")}__`;
}

export function encodeRequest(request: KernelRequest): Buffer {
  const header = `${request.id} ${request.marker} ${request.code.length} ${request.stdin.length}\n`;
  return Buffer.concat([Buffer.from(header), request.code, Buffer.from([0]), request.stdin, Buffer.from([0])]);
}

/** The longest reply line ("done <id> <exit code> interrupted"): anything longer is no reply. */
const MAX_REPLY_LINE = 64;

/**
 * Splits fd 4's bytes into replies; a line that is not a reply means the kernel is broken. fd 4 is the
 * kernel's, and so the code's it runs (it can write there): a line is refused once longer than any
 * reply, before it is held, so a flood of bytes costs the daemon nothing beyond this chunk.
 */
export class ReplyParser {
  private pending = "";

  constructor(private readonly onReply: (reply: KernelReply) => void) {}

  push(chunk: Buffer): void {
    const text = chunk.toString("latin1");
    let from = 0;
    for (let newline = text.indexOf("\n"); newline >= 0; newline = text.indexOf("\n", from)) {
      const line = this.pending + text.slice(from, newline);
      this.pending = "";
      from = newline + 1;
      if (line.length > MAX_REPLY_LINE) throw malformed(line);
      this.onReply(parseReply(line));
    }
    // Enough of it to refuse, and to show in the refusal; never the rest of a flood.
    this.pending += text.slice(from, from + SHOWN_OF_MALFORMED);
    if (this.pending.length > MAX_REPLY_LINE) throw malformed(this.pending);
  }
}

/** How much of a line that is no reply its refusal shows. */
const SHOWN_OF_MALFORMED = 80;
const malformed = (line: string) =>
  new Error(`session kernel sent a malformed reply: ${JSON.stringify(line.slice(0, SHOWN_OF_MALFORMED))}`);

function parseReply(line: string): KernelReply {
  const ready = /^ready (\d+)$/.exec(line);
  if (ready) return { kind: "ready", pid: Number(ready[1]) };
  const done = /^done (\d+) (\d+) (-|interrupted)$/.exec(line);
  if (done) return { kind: "done", id: Number(done[1]), exitCode: Number(done[2]), interrupted: done[3] === "interrupted" };
  throw malformed(line);
}
