import { afterEach, describe, expect, it } from "vitest";
import { FsError } from "../../src/fs/errors.js";
import { ripgrep } from "../../src/fs/ripgrep.js";
import { never } from "./fixture.js";

const path = process.env.PATH;
afterEach(() => {
  process.env.PATH = path;
});

async function collect(args: string[], signal = never): Promise<string[]> {
  const records: string[] = [];
  for await (const record of ripgrep(args, { cwd: "/", signal, separator: "\n" })) records.push(record);
  return records;
}

describe("ripgrep", () => {
  it("says how to install ripgrep when it is missing", async () => {
    process.env.PATH = "/nonexistent";
    const failure = collect(["--version"]);
    await expect(failure).rejects.toBeInstanceOf(FsError);
    await expect(failure).rejects.toThrow(/ripgrep \(rg\) is not installed/);
  });

  it("yields records as they come, and refuses to start when already aborted", async () => {
    expect((await collect(["--version"]))[0]).toMatch(/^ripgrep \d+/);
    const controller = new AbortController();
    controller.abort();
    await expect(collect(["--version"], controller.signal)).rejects.toThrow();
  });
});
