// State and cache files are written where someone may have planted a link or a FIFO: the write
// replaces or refuses it, never writes through it, never waits on it.
import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { appendToFile, replaceFile } from "../../src/files/planted-safe-write.js";

function planted(): { dir: string; target: string } {
  const dir = mkdtempSync(join(tmpdir(), "planted-safe-write-"));
  const target = join(dir, "bashrc");
  writeFileSync(target, "# mine\n");
  return { dir, target };
}

describe("replaceFile", () => {
  it("replaces a link planted at the name with the file, leaving its target and nothing else behind", () => {
    const { dir, target } = planted();
    symlinkSync(target, join(dir, "state.json"));
    replaceFile(join(dir, "state.json"), "{}\n");
    expect(lstatSync(join(dir, "state.json")).isFile()).toBe(true);
    expect(readFileSync(join(dir, "state.json"), "utf8")).toBe("{}\n");
    expect(readFileSync(target, "utf8")).toBe("# mine\n");
    expect(readdirSync(dir).sort()).toEqual(["bashrc", "state.json"]);
  });

  it("leaves no temporary file when it cannot become the file (a directory there)", () => {
    const { dir } = planted();
    mkdirSync(join(dir, "state.json"));
    expect(() => replaceFile(join(dir, "state.json"), "{}\n")).toThrow();
    expect(readdirSync(dir).sort()).toEqual(["bashrc", "state.json"]);
  });
});

describe("appendToFile", () => {
  it("appends to a regular file, making it where none is", () => {
    const { dir } = planted();
    appendToFile(join(dir, "log"), "one\n");
    appendToFile(join(dir, "log"), "two\n");
    expect(readFileSync(join(dir, "log"), "utf8")).toBe("one\ntwo\n");
  });

  it("refuses a link planted at the name, and a FIFO, at once", () => {
    const { dir, target } = planted();
    symlinkSync(target, join(dir, "link"));
    expect(() => appendToFile(join(dir, "link"), "x\n")).toThrow(/ELOOP/);
    expect(readFileSync(target, "utf8")).toBe("# mine\n");
    execFileSync("mkfifo", [join(dir, "fifo")]);
    expect(() => appendToFile(join(dir, "fifo"), "x\n")).toThrow(/ENXIO/);
  });
});
