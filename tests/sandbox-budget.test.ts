// The global jail budget through the daemon: with sandbox.max_jails = 1, a second `run` (one-off
// or in a session) waits with MCP progress and runs once the first ends; one more beyond
// sandbox.max_queued_jails is refused at once; a waiting call can be cancelled.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, textOf, type ServerHandle } from "../daemon/test/support/mcp-client.js";
import { harnessMetadata } from "./harness/metadata.js";

let server: ServerHandle;
let project: string;

/** Code that runs until the test creates `name` in the project (the jail polls; the test waits for events). */
const holdUntil = (name: string) => `while [ ! -e ${name} ]; do sleep 0.02; done; echo released`;

function call(args: Record<string, unknown>, onProgress?: (message: string) => void, signal?: AbortSignal): Promise<CallToolResult> {
  return server.client.callTool({ name: "run", arguments: args }, undefined, {
    ...(onProgress ? { onprogress: (p) => onProgress(p.message ?? "") } : {}),
    ...(signal ? { signal } : {}),
  }) as Promise<CallToolResult>;
}

beforeAll(async () => {
  project = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-budget-")));
  const args = [
    "--metadata",
    harnessMetadata(),
    "--project",
    project,
    "--set",
    "sandbox.max_jails=1",
    "--set",
    "sandbox.max_queued_jails=1",
  ];
  server = await startServer({ args });
});

afterAll(async () => {
  await server?.close();
  rmSync(project, { recursive: true, force: true });
});

describe("sandbox.max_jails", () => {
  it("queues the next call with progress, refuses one beyond the queue, and runs the queued one when a jail is free", async () => {
    const holder = call({ env: "shell", code: holdUntil("go-1") });
    // The holder is running once a second call has to wait.
    let queued!: () => void;
    const heardWaiting = new Promise<void>((resolve) => (queued = resolve));
    const waiting = call({ env: "shell", session: "budget", code: "echo from the session" }, (message) => {
      if (message.startsWith("waiting for a free jail")) queued();
    });
    await heardWaiting;
    const refused = await call({ env: "shell", code: "echo never" });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^too many jails: 1 running and 1 waiting \(sandbox\.max_jails = 1, sandbox\.max_queued_jails = 1\)/);
    writeFileSync(join(project, "go-1"), "");
    expect((await holder).structuredContent).toMatchObject({ stdout: "released\n", exit_code: 0 });
    const waited = await waiting;
    expect(waited.structuredContent).toMatchObject({ stdout: "from the session\n", exit_code: 0, waited_ms: expect.any(Number) });
    // The wait counts in the call's timeout, so the result says it.
    expect(textOf(waited)).toMatch(/^exit 0 · \d+ ms · session budget · waited \d+ ms for a free jail\n/);
  });

  it("lets a waiting call be cancelled; the next call still gets the jail", async () => {
    const holder = call({ env: "shell", code: holdUntil("go-2") });
    const controller = new AbortController();
    let queued!: () => void;
    const heardWaiting = new Promise<void>((resolve) => (queued = resolve));
    const cancelled = call({ env: "shell", code: "echo never" }, () => queued(), controller.signal);
    await heardWaiting;
    controller.abort();
    await expect(cancelled).rejects.toThrow();
    writeFileSync(join(project, "go-2"), "");
    expect((await holder).structuredContent).toMatchObject({ stdout: "released\n" });
    expect((await call({ env: "shell", code: "echo next" })).structuredContent).toMatchObject({ stdout: "next\n" });
  });
});
