import { mkfifoSync } from "./mkfifo.js";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Confinement, makeRoot } from "../../src/fs/confine.js";
import { cutLineHint, readContent, type ReadItem } from "../../src/fs/read.js";
import { fixture, never } from "./fixture.js";

const numbered = (count: number) => `${Array.from({ length: count }, (_, index) => `line ${index + 1}`).join("\n")}\n`;

describe("read_content", () => {
  it("reads several files, each with its line count", async () => {
    const f = await fixture({ "a.txt": "one\ntwo\n", "b.txt": "no newline at end" });
    const items = await readContent(f.confinement, { paths: ["a.txt", "b.txt"] }, 1024, never);
    expect(items).toEqual([
      { path: "a.txt", content: "one\ntwo\n", start_line: 1, end_line: 2, total_lines: 2 },
      { path: "b.txt", content: "no newline at end", start_line: 1, end_line: 1, total_lines: 1 },
    ]);
  });

  it("says a kept result is gone, of this server or of another run beside it, not that there is no such file", async () => {
    const f = await fixture();
    const results = join(f.base, "results");
    for (const run of ["1-now", "2-before"]) mkdirSync(join(results, run), { recursive: true });
    const confinement = new Confinement(await makeRoot(f.root), [], [], [await makeRoot(join(results, "1-now"))]);
    const [pruned, earlier] = await readContent(
      confinement,
      { paths: [join(results, "1-now", "0001-run.txt"), join(results, "2-before", "0001-run.txt")] },
      1024,
      never,
    );
    expect(pruned!.error).toMatch(/0001-run\.txt: this kept result is gone; run the call that made it again$/);
    expect(earlier!.error).toMatch(/0001-run\.txt: is a kept result of another server run, gone with it; run the call that made it again$/);
    // The results directory itself is only outside every served root.
    const [parent] = await readContent(confinement, { paths: [join(results, "1-now", "..")] }, 1024, never);
    expect(parent!.error).toMatch(/outside every served root/);
  });

  // Where the host has a /workspace of its own, it is just another path outside the served roots.
  it.skipIf(existsSync("/workspace"))("says /workspace is a jail's, seen only by run", async () => {
    const f = await fixture();
    const [item] = await readContent(f.confinement, { paths: ["/workspace/out.txt"] }, 1024, never);
    expect(item!.error).toBe(
      "/workspace/out.txt: /workspace is a jail's scratch space, seen only by run; read it there (cat, head) or copy it into the project",
    );
  });

  it("cuts to a line range, and says how many lines the file has", async () => {
    const f = await fixture({ "n.txt": numbered(100), "no-newline.txt": "a\nb\nc" });
    const [item] = await readContent(f.confinement, { paths: ["n.txt"], startLine: 10, endLine: 12 }, 4096, never);
    expect(item).toMatchObject({ content: "line 10\nline 11\nline 12\n", start_line: 10, end_line: 12, total_lines: 100 });
    const [last] = await readContent(f.confinement, { paths: ["no-newline.txt"], startLine: 1, endLine: 1 }, 4096, never);
    expect(last).toMatchObject({ content: "a\n", total_lines: 3 });
    expect(item!.next_start_line).toBeUndefined();
  });

  it("never returns more than the budget, and says where to continue", async () => {
    const f = await fixture({ "big.txt": numbered(200_000) });
    const [first] = await readContent(f.confinement, { paths: ["big.txt"] }, 2048, never);
    expect(Buffer.byteLength(first!.content!)).toBeLessThanOrEqual(2048);
    // Its lines are counted (a file of up to 64 MiB), so the last ones can be asked for.
    expect(first!.total_lines).toBe(200_000);
    const next = first!.next_start_line!;
    expect(next).toBe(first!.end_line! + 1);
    const [second] = await readContent(f.confinement, { paths: ["big.txt"], startLine: next }, 2048, never);
    expect(second!.content!.startsWith(`line ${next}\n`)).toBe(true);
  });

  it("shares the budget across files and reports the files it could not reach", async () => {
    const f = await fixture({ "a.txt": `${"x".repeat(1500)}\n`, "b.txt": `${"y".repeat(1500)}\n`, "c.txt": "z\n" });
    const items = await readContent(f.confinement, { paths: ["a.txt", "b.txt", "c.txt"] }, 2048, never);
    expect(items[0]!.total_lines).toBe(1);
    expect(items[1]!.error).toBe("b.txt: not read: line 1 is longer than what is left of this call's byte budget; read it in another call");
    expect(items[2]!.content).toBe("z\n");
  });

  it("cuts a single line longer than the whole budget instead of never returning it", async () => {
    const f = await fixture({ "min.js": `${"m".repeat(5000)}\nnext\n` });
    const [item] = await readContent(f.confinement, { paths: ["min.js"] }, 1024, never);
    expect(item).toMatchObject({ line_cut: true, end_line: 1, next_start_line: 2 });
    expect(item!.content!.length).toBe(1024);
  });

  it("cuts a long line between characters, never inside one", async () => {
    const f = await fixture({ "wide.txt": `${"é".repeat(1000)}\n` });
    const [item] = await readContent(f.confinement, { paths: ["wide.txt"] }, 51, never);
    expect(item).toMatchObject({ content: "é".repeat(25), line_cut: true });
  });

  it("reads a cut line on to its end, so the item says truly whether another line follows", async () => {
    const f = await fixture({ "one.txt": "x".repeat(5000), "mid.txt": `a\n${"y".repeat(200_000)}\nb\n` });
    const [one] = await readContent(f.confinement, { paths: ["one.txt"] }, 1024, never);
    expect(one).toEqual({ path: "one.txt", content: "x".repeat(1024), start_line: 1, end_line: 1, total_lines: 1, line_cut: true });
    const [mid] = await readContent(f.confinement, { paths: ["mid.txt"], startLine: 2 }, 1024, never);
    expect(mid).toEqual({
      path: "mid.txt",
      content: "y".repeat(1024),
      start_line: 2,
      end_line: 2,
      total_lines: 3,
      next_start_line: 3,
      line_cut: true,
    });
    const [last] = await readContent(f.confinement, { paths: ["mid.txt"], startLine: 3 }, 1024, never);
    expect(last).toMatchObject({ content: "b\n", total_lines: 3 });
  });

  it("says where a cut line was cut and how to read on: run sees the project at /project", () => {
    const cut = { content: "x".repeat(1024), start_line: 1, end_line: 1, line_cut: true };
    expect(cutLineHint({ ...cut, path: "min.js", next_start_line: 2 }, "shell")).toBe(
      "[line 1 cut after 1024 bytes: read on with run (env shell), 16000 bytes a call: tail -c +1025 /project/min.js | head -c 16000, then +17025 and so on; or skip to start_line 2]",
    );
    expect(cutLineHint({ ...cut, path: "it's here.txt", start_line: 7, end_line: 7, content: "é" }, "shell")).toBe(
      "[line 7 cut after 2 bytes: read on with run (env shell), 16000 bytes a call: tail -n +7 '/project/it'\\''s here.txt' | tail -c +3 | head -c 16000, then +16003 and so on]",
    );
    expect(cutLineHint({ ...cut, path: "/srv/data/dump.json" }, "shell")).toBe(
      "[line 1 cut after 1024 bytes: read_content reads no further into a line, and run sees only the project]",
    );
  });

  it("names the bash environment that sees the project, and no run where none does", () => {
    const cut = { path: "min.js", content: "x".repeat(1024), start_line: 1, end_line: 1, line_cut: true, next_start_line: 2 };
    expect(cutLineHint(cut, "bash-tools")).toMatch(/read on with run \(env bash-tools\), /);
    expect(cutLineHint(cut, undefined)).toBe(
      "[line 1 cut after 1024 bytes: read_content reads no further into a line, and no run environment here sees the project; or skip to start_line 2]",
    );
    expect(cutLineHint({ ...cut, path: "/srv/data/dump.json" }, undefined)).toMatch(/and no run environment here sees the project;/);
  });

  it("pages through a file of many chunks without losing or repeating a byte", async () => {
    const f = await fixture({ "big.txt": `${"x".repeat(300_000)}\n${numbered(50_000)}` });
    const [first] = await readContent(f.confinement, { paths: ["big.txt"] }, 100_000, never);
    expect(first).toMatchObject({ content: "x".repeat(100_000), line_cut: true, next_start_line: 2 });
    const pages: string[] = [];
    let last: ReadItem | undefined;
    for (let start = first!.next_start_line; start !== undefined; start = last!.next_start_line) {
      [last] = await readContent(f.confinement, { paths: ["big.txt"], startLine: start }, 100_000, never);
      pages.push(last!.content!);
    }
    expect(pages.length).toBeGreaterThan(3);
    expect(pages.join("")).toBe(numbered(50_000));
    expect(last!.total_lines).toBe(50_001);
  });

  it("knows the length when the range ends at the last line, with or without a final newline", async () => {
    const f = await fixture({ "a.txt": "a\nb\nc\n", "b.txt": "a\nb\nc" });
    const items = await readContent(f.confinement, { paths: ["a.txt", "b.txt"], startLine: 2, endLine: 3 }, 4096, never);
    expect(items).toEqual([
      { path: "a.txt", content: "b\nc\n", start_line: 2, end_line: 3, total_lines: 3 },
      { path: "b.txt", content: "b\nc", start_line: 2, end_line: 3, total_lines: 3 },
    ]);
    const [past] = await readContent(f.confinement, { paths: ["b.txt"], startLine: 5 }, 4096, never);
    expect(past!.error).toBe("b.txt: start_line 5 is past the end (3 lines)");
  });

  it("describes binary files instead of dumping them", async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), Buffer.alloc(100)]);
    // Random bytes with no NUL among them are binary too; Latin-1 text with an accent or two is not.
    const random = Buffer.from(Array.from({ length: 104 }, (_, i) => 1 + ((i * 151 + 7) % 255)));
    const latin1 = Buffer.from("Caf\xe9 cr\xe8me, na\xefve r\xe9sum\xe9: a line of plain text to read\n", "latin1");
    const f = await fixture({ "img.png": png, "blob.bin": Buffer.from([1, 2, 0, 3]), "random.bin": random, "menu.txt": latin1 });
    const items = await readContent(f.confinement, { paths: ["img.png", "blob.bin", "random.bin", "menu.txt"] }, 4096, never);
    expect(items.slice(0, 3)).toEqual([
      { path: "img.png", binary: { size: png.length, kind: "PNG image" } },
      { path: "blob.bin", binary: { size: 4, kind: "binary data" } },
      { path: "random.bin", binary: { size: 104, kind: "binary data" } },
    ]);
    expect(items[3]!.content).toMatch(/^Café crème, naïve résumé/);
  });

  it("reads Latin-1 text as the characters it spells, however short, curly quotes included", async () => {
    const f = await fixture({ "menu.txt": Buffer.from("caf\xe9\n", "latin1"), "quote.txt": Buffer.from([0x93, 0x68, 0x69, 0x94, 0x0a]) });
    const items = await readContent(f.confinement, { paths: ["menu.txt", "quote.txt"] }, 4096, never);
    expect(items.map((item) => item.content)).toEqual(["café\n", "“hi”\n"]);
  });

  it("reads the files a glob given as a path matches, as an agent means it, up to 20", async () => {
    const f = await fixture({ "src/app/a.py": "a\n", "src/app/b.py": "b\n", "src/app/c.txt": "c\n" });
    const items = await readContent(f.confinement, { paths: ["src/app/*.py"] }, 4096, never);
    expect(items.map((item) => [item.path, item.content])).toEqual([
      ["src/app/a.py", "a\n"],
      ["src/app/b.py", "b\n"],
    ]);
    const [none] = await readContent(f.confinement, { paths: ["src/*.rs"] }, 4096, never);
    expect(none!.error).toBe("src/*.rs: no such file; a glob here reads the files it matches, and it matches none");
    const many = await fixture(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`d/f${i}.txt`, ""])));
    await expect(readContent(many.confinement, { paths: ["d/*.txt"] }, 4096, never)).rejects.toThrow(/the glob matches over 20 files/);
    // Over the cap in several directories, the listing folds one: its files count all the same.
    const spread = await fixture(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`${i < 25 ? "a" : "b"}/f${i}.txt`, ""])));
    await expect(readContent(spread.confinement, { paths: ["**/*.txt"] }, 4096, never)).rejects.toThrow(/the glob matches over 20 files/);
  });

  it("refuses directories, missing files and FIFOs (which would block) per item", async () => {
    const f = await fixture({ "dir/x.txt": "x" });
    mkfifoSync(join(f.root, "pipe"));
    const items = await readContent(f.confinement, { paths: ["dir", "missing.txt", "pipe"] }, 4096, never);
    expect(items.map((item) => item.error)).toEqual([
      expect.stringMatching(/is a directory/),
      expect.stringMatching(/no such file/),
      expect.stringMatching(/not a regular file/),
    ]);
  });

  it("says when start_line is past the end", async () => {
    const f = await fixture({ "a.txt": "a\nb\n", "empty.txt": "" });
    const items = await readContent(f.confinement, { paths: ["a.txt", "empty.txt"], startLine: 3 }, 4096, never);
    expect(items[0]!.error).toBe("a.txt: start_line 3 is past the end (2 lines)");
    expect(items[1]!.error).toBe("empty.txt: start_line 3 is past the end (0 lines)");
    const [first] = await readContent(f.confinement, { paths: ["empty.txt"] }, 4096, never);
    expect(first).toMatchObject({ content: "", total_lines: 0 });
  });

  it("rejects an inverted range", async () => {
    const f = await fixture({ "a.txt": "a\n" });
    await expect(readContent(f.confinement, { paths: ["a.txt"], startLine: 5, endLine: 2 }, 4096, never)).rejects.toThrow(
      /before start_line/,
    );
  });
});
