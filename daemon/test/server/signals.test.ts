// A signal that ends the server ends it cleanly: sessions closed and its results directory gone,
// whether the client's terminal hung up (SIGHUP) or it was asked to stop (SIGTERM, SIGINT).
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, ONLY_FS } from "../support/mcp-client.js";

describe("a server ended by a signal", () => {
  it.each(["SIGHUP", "SIGTERM", "SIGINT"] as const)("removes its results directory on %s", async (signal) => {
    const project = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-signal-")));
    const cache = join(project, ".cache");
    const server = spawn(
      process.execPath,
      [CLI, "serve", ...ONLY_FS, "--project", project, "--set", `cache_dir=${cache}`, "--set", "log_level=info"],
      {
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let log = "";
    await new Promise<void>((serving) =>
      server.stderr.on("data", (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes("serving over stdio")) serving();
      }),
    );
    expect(readdirSync(join(cache, "results"))).toHaveLength(1);
    const exited = new Promise<number | null>((done) => server.once("exit", (code) => done(code)));
    server.kill(signal);
    expect(await exited).toBe(0);
    expect(readdirSync(join(cache, "results"))).toEqual([]);
  });
});
