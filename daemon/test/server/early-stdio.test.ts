// The early initialize reply over raw stdio: one reply per request even though the SDK answers
// initialize a second time, the request split across reads, the next messages pipelined.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI } from "../support/mcp-client.js";

const line = (message: object) => `${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`;

async function session(
  project: string,
  cache: string,
): Promise<{ id: unknown; result?: { tools?: unknown[]; protocolVersion?: string } }[]> {
  const child = spawn(process.execPath, [CLI, "serve", "--project", project], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CACHE_HOME: cache },
    stdio: ["pipe", "pipe", "ignore"],
  });
  const initialize = line({
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
  });
  child.stdin.write(initialize.slice(0, 40));
  await new Promise((resolve) => setTimeout(resolve, 50));
  child.stdin.write(initialize.slice(40) + line({ method: "notifications/initialized" }) + line({ id: 2, method: "tools/list" }));
  let out = "";
  await new Promise<void>((resolve) =>
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk;
      if (out.includes('"id":2')) resolve();
    }),
  );
  // Anything more (a second initialize reply) would come right behind.
  await new Promise((resolve) => setTimeout(resolve, 200));
  child.kill();
  return out
    .split("\n")
    .filter(Boolean)
    .map((text) => JSON.parse(text));
}

describe("early initialize over stdio", () => {
  it("answers each request once, in order, cold and warm", async () => {
    const project = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-early-")));
    const cache = join(project, ".cache");
    for (const start of ["cold", "warm"]) {
      const replies = await session(project, cache);
      expect(existsSync(join(cache, "nixshed", "initialize")), start).toBe(true);
      expect(
        replies.map((reply) => reply.id),
        start,
      ).toEqual([1, 2]);
      expect(replies[0]!.result!.protocolVersion).toBe("2025-06-18");
      expect(replies[1]!.result!.tools!.length).toBeGreaterThan(0);
    }
  });
});
