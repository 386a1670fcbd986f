// The results store's spools: a stream written whole as it arrives, private to the server, never
// through a link, each up to a quarter of responses.keep_bytes, and the oldest kept texts going
// first when the whole store would hold more than that.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ResultStore } from "../../src/mcp/results.js";

const MiB = 1024 * 1024;
/** A file as if written two minutes ago, past the time an answer naming it is kept from pruning. */
const aged = (path: string) => utimesSync(path, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
const open = (bytes = 4 * MiB) =>
  ResultStore.open(mkdtempSync(join(tmpdir(), "nixshed-spool-")), { files: 100, seconds: 3600, bytes, answerBytes: 32_000 });

describe("a spool", () => {
  it("is a new private file that takes the bytes as they come", async () => {
    const store = await open();
    const spool = store.spooler("run")("stdout");
    spool!.write(Buffer.from("one\n"));
    spool!.write(Buffer.from("two\n"));
    spool!.close();
    expect(spool!.path.startsWith(store.dir)).toBe(true);
    expect(readFileSync(spool!.path, "utf8")).toBe("one\ntwo\n");
    expect(statSync(spool!.path).mode & 0o777).toBe(0o600);
    expect(spool!.stopped).toBeUndefined();
  });

  it("stops at a quarter of the store's bytes and says so", async () => {
    const store = await open(4 * MiB);
    const spool = store.spooler("run")("stderr")!;
    for (let i = 0; i < 3; i++) spool.write(Buffer.alloc(512 * 1024, 0x61));
    spool.close();
    expect(spool.written).toBe(MiB);
    expect(statSync(spool.path).size).toBe(MiB);
    expect(spool.stopped).toMatch(/a quarter of responses\.keep_bytes/);
  });

  it("is never written through a link planted at its name", async () => {
    const store = await open();
    const target = join(mkdtempSync(join(tmpdir(), "nixshed-spool-target-")), "victim");
    // The store numbers its files; plant links at the next few names.
    for (let n = 1; n <= 3; n++) symlinkSync(target, join(store.dir, `${String(n).padStart(4, "0")}-run-stdout.txt`));
    expect(store.spooler("run")("stdout")).toBeUndefined();
    expect(existsSync(target)).toBe(false);
  });
});

describe("the store's bytes", () => {
  it("are shared by the spools of calls running at once: together they hold no more than the whole, and none is removed while written", async () => {
    // Eight at a quarter each once held twice the whole (512 MiB against 256), and pruning removed spools still being written.
    const store = await open(4 * MiB);
    const spools = Array.from({ length: 8 }, () => store.spooler("run")("stdout")!);
    for (const spool of spools) spool.write(Buffer.alloc(MiB, 0x63));
    const size = () => readdirSync(store.dir).reduce((sum, name) => sum + statSync(join(store.dir, name)).size, 0);
    expect(size()).toBe(4 * MiB);
    expect(spools.map((spool) => spool.written)).toEqual([MiB, MiB, MiB, MiB, 0, 0, 0, 0]);
    expect(spools[4]!.stopped).toBe(
      "the results directory is full (responses.keep_bytes) with the output of calls running now or just ended",
    );
    // One just finished is named by its call's answer: that answer, cut and kept, finds the directory full, not the file gone.
    spools[0]!.close();
    expect(await store.keep("run", "x".repeat(MiB / 2))).toEqual({
      error: "the results directory is full (responses.keep_bytes) with the output of calls running now or just ended",
    });
    for (const spool of spools) expect(existsSync(spool.path)).toBe(true);
    // A minute on, it makes room.
    aged(spools[0]!.path);
    expect(await store.keep("run", "x".repeat(MiB / 2))).toHaveProperty("path");
    expect(existsSync(spools[0]!.path)).toBe(false);
    expect(size()).toBeLessThanOrEqual(4 * MiB);
  });

  it("keep the newest files when spools would outgrow them", async () => {
    const store = await open(4 * MiB);
    for (let i = 0; i < 6; i++) {
      const spool = store.spooler("run")("stdout")!;
      spool.write(Buffer.alloc(MiB, 0x62));
      spool.close();
      aged(spool.path);
    }

    const left = readdirSync(store.dir).sort();
    expect(left).toEqual(["0003-run-stdout.txt", "0004-run-stdout.txt", "0005-run-stdout.txt", "0006-run-stdout.txt"]);
  });
});

describe("a store whose directory cannot be made again", () => {
  it("says why it kept nothing, and gives no spool, instead of failing the call", async () => {
    const store = await open();
    rmSync(store.dir, { recursive: true });
    writeFileSync(store.dir, "in the way");
    expect(await store.keep("list_files", "a\n")).toEqual({ error: expect.stringMatching(/EEXIST|ENOTDIR/) });
    expect(store.spooler("run")("stdout")).toBeUndefined();
  });
});

describe("a kept text", () => {
  it("is refused over a quarter of the store's bytes, saying so, and nothing is written", async () => {
    const store = await open(4 * MiB);
    expect(await store.keep("list_files", "x".repeat(MiB + 1))).toEqual({
      error: `${MiB + 1} bytes, over a quarter of responses.keep_bytes`,
    });
    expect(readdirSync(store.dir)).toEqual([]);
    expect(await store.keep("list_files", "x".repeat(MiB))).toHaveProperty("path");
  });
});
