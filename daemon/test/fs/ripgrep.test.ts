import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FsError } from "../../src/fs/errors.js";
import { ripgrep } from "../../src/fs/ripgrep.js";
import { never } from "./fixture.js";

const path = process.env.PATH;
afterEach(() => {
  process.env.PATH = path;
});

async function collectWith(search: typeof ripgrep, args: string[], signal = never): Promise<string[]> {
  const records: string[] = [];
  for await (const record of search(args, { cwd: "/", signal, separator: "\n" })) records.push(record);
  return records;
}
const collect = (args: string[], signal = never) => collectWith(ripgrep, args, signal);
/** Where this machine has a program. */
const hostProgram = (name: string) => execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8", env: { PATH: path } }).trim();
/** A fresh directory holding links to the given programs, by name. */
function dirWith(programs: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "nixshed-path-"));
  for (const [name, target] of Object.entries(programs)) symlinkSync(target, join(dir, name));
  return dir;
}

describe("ripgrep", () => {
  it("yields no unfinished record when it is stopped: the abort is what the reader gets", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nixshed-rg-stop-"));
    // The second match is one record of about 160 MB: stopped at the first, rg has written only part of it.
    writeFileSync(join(dir, "a.txt"), `x\n${"x".repeat(3_000_000)}\n`);
    const controller = new AbortController();
    const records: string[] = [];
    const reading = (async () => {
      for await (const record of ripgrep(["--json", "x", join(dir, "a.txt")], { cwd: dir, signal: controller.signal, separator: "\n" })) {
        records.push(record);
        if (record.includes('"type":"match"')) controller.abort(new Error("enough"));
      }
    })();
    await expect(reading).rejects.toThrow("enough");
    for (const record of records) expect(() => JSON.parse(record)).not.toThrow();
  });

  it("says how to install ripgrep when it is missing", async () => {
    process.env.PATH = dirWith({ sh: hostProgram("sh") });
    const failure = collect(["--version"]);
    await expect(failure).rejects.toBeInstanceOf(FsError);
    await expect(failure).rejects.toThrow(/ripgrep \(rg\) is not installed/);
  });

  it("runs rg only under the memory limit of the first sh on PATH (the package's own), and not at all without one", async () => {
    const rg = hostProgram("rg");
    process.env.PATH = dirWith({ rg });
    vi.resetModules();
    const unlimited = await import("../../src/fs/ripgrep.js");
    // The start-up probe has nothing to jail, and no rejection nobody awaits (fs tools start it with `void`).
    await expect(unlimited.jailed()).resolves.toBeUndefined();
    await expect(collectWith(unlimited.ripgrep, ["--version"])).rejects.toThrow(/^no sh on PATH, which limits ripgrep's memory$/);
    // A shell of its own, found on PATH rather than at /bin/sh, says it ran before it limits rg.
    const marker = join(mkdtempSync(join(tmpdir(), "nixshed-rg-shell-")), "ran");
    const own = dirWith({ rg });
    writeFileSync(join(own, "sh"), `#!${hostProgram("sh")}\necho ran > ${marker}\nexec ${hostProgram("sh")} "$@"\n`, { mode: 0o755 });
    process.env.PATH = own;
    vi.resetModules();
    const limited = await import("../../src/fs/ripgrep.js");
    expect((await collectWith(limited.ripgrep, ["--version"]))[0]).toMatch(/^ripgrep \d+/);
    expect(readFileSync(marker, "utf8")).toBe("ran\n");
  });

  it("runs unjailed where there is no bwrap, the failed probe closing what it opened once", async () => {
    process.env.PATH = dirWith({ rg: hostProgram("rg"), sh: hostProgram("sh") });
    vi.resetModules();
    const fresh = await import("../../src/fs/ripgrep.js");
    expect(await fresh.jailed()).toBeUndefined();
    // The spawn failure's "error" and "close" both come; a second close of the probe's descriptor threw EBADF out of the event loop.
    await new Promise<void>((resolve) => fresh.jailed().then(() => setImmediate(resolve)));
    expect((await collectWith(fresh.ripgrep, ["--version"]))[0]).toMatch(/^ripgrep \d+/);
  });

  it("yields records as they come, and refuses to start when already aborted", async () => {
    expect((await collect(["--version"]))[0]).toMatch(/^ripgrep \d+/);
    const controller = new AbortController();
    controller.abort();
    await expect(collect(["--version"], controller.signal)).rejects.toThrow();
  });
});
