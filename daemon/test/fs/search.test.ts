import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cutLineNote, matchLines, searchFiles, type SearchRequest } from "../../src/fs/search.js";
import { fixture, never } from "./fixture.js";
import { mkfifoSync } from "./mkfifo.js";

/** For the kept rest's caps, not its clock: rg reads on as long as it needs (a loaded machine can take longer than a call's second). */
const UNHURRIED = 60_000;

const search = (f: Awaited<ReturnType<typeof fixture>>, request: Partial<SearchRequest>) =>
  searchFiles(f.confinement, { pattern: "x", maxResults: 100, ...request }, never);

describe("search_files", () => {
  it("finds literal text (literal: true) with line numbers, file by file", async () => {
    const f = await fixture({ "a.txt": "alpha\nneedle (1)\n", "sub/b.txt": "needle (1)\nnope\n", "c.txt": "needle 1\n" });
    const result = await search(f, { pattern: "needle (1)", literal: true });
    expect(result.matches).toBe(2);
    expect(result.truncated).toBe(false);
    expect(result.files.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: "a.txt", lines: [{ line: 2, text: "needle (1)", match: true }] },
      { path: "sub/b.txt", lines: [{ line: 1, text: "needle (1)", match: true }] },
    ]);
  });

  it("shows a Latin-1 file's matching line as the text it is", async () => {
    const f = await fixture({ "menu.txt": Buffer.from("caf\xe9 au lait\n", "latin1") });
    expect((await search(f, { pattern: "au lait" })).files).toEqual([
      { path: "menu.txt", lines: [{ line: 1, text: "café au lait", match: true }] },
    ]);
  });

  it("takes regexes by default, case rules, globs and a path", async () => {
    const f = await fixture({ "a.py": "Foo = 1\nfoo = 2\n", "b.js": "foo()\n" });
    expect((await search(f, { pattern: "fo+ =" })).matches).toBe(2);
    expect((await search(f, { pattern: "fo+ =", literal: true })).matches).toBe(0);
    expect((await search(f, { pattern: "Foo" })).matches).toBe(1);
    expect((await search(f, { pattern: "foo" })).matches).toBe(3);
    expect((await search(f, { pattern: "foo", caseSensitive: true })).matches).toBe(2);
    expect((await search(f, { pattern: "foo", glob: "*.js" })).files.map((file) => file.path)).toEqual(["b.js"]);
    expect((await search(f, { pattern: "foo", path: "a.py" })).files.map((file) => file.path)).toEqual(["a.py"]);
  });

  it("takes globs as agents write them for other tools: a comma list, a directory's name; a path that is a glob is told to go as glob", async () => {
    const f = await fixture({ "a.md": "foo\n", "b.ts": "foo\n", "c.py": "foo\n", "src/d.py": "foo\n" });
    const paths = async (request: Partial<SearchRequest>) =>
      (await search(f, { pattern: "foo", ...request })).files.map((file) => file.path).sort();
    expect(await paths({ glob: "*.md,*.ts" })).toEqual(["a.md", "b.ts"]);
    expect(await paths({ glob: "*.md, *.ts" })).toEqual(["a.md", "b.ts"]);
    expect(await paths({ glob: "src" })).toEqual(["src/d.py"]);
    expect(await paths({ glob: "src/" })).toEqual(["src/d.py"]);
    await expect(search(f, { pattern: "foo", path: "src/*.py" })).rejects.toMatchObject({
      hint: expect.stringMatching(/^"src\/\*\.py" is a glob: pass it as glob/),
    });
  });

  it("matches a pattern across lines, a line break or \\n in it, as rg does only when told", async () => {
    const f = await fixture({ "m.py": "def load(path):\n    with open(path) as f:\n" });
    const across = await search(f, { pattern: "def load\\(path\\):\\n    with" });
    expect(across.matches).toBe(1);
    // Each line of the match is shown as a line of its own, numbered.
    expect(matchLines(across.files)).toEqual(["m.py", "1:def load(path):", "2:    with open(path) as f:"]);
    expect((await search(f, { pattern: "load(path):\n    with", literal: true })).matches).toBe(1);
    // Finding nothing across lines says what such a search leaves out.
    expect((await search(f, { pattern: "load\\nnothing" })).hint).toBe("across lines; files over 256MiB are not searched so");
    // An escaped backslash before n is no line break.
    expect((await search(f, { pattern: "load\\\\n" })).matches).toBe(0);
  });

  it("shows a match across many lines by its first twenty, '…' where it goes on, and says how to read on", async () => {
    // Ten such files of four million lines each made forty million line objects: 4 GB, two minutes past the timeout.
    const f = await fixture({ "gap.txt": `a${"\n".repeat(100_000)}b\n` });
    const result = await search(f, { pattern: "a\\n+b" });
    const [match] = result.files[0]!.lines;
    expect(match!.text.split("\n")).toEqual(["a", ...Array(18).fill(""), "…"]);
    expect(match!.cut).toBe(true);
    expect(cutLineNote(result.files)).toBe(
      '[lines over 300 characters, and matches over 20 lines, are shown in part, "…" where they go on: read_content {"path":"gap.txt","start_line":1} reads on]',
    );
  });

  it("takes a glob under /project/ as the project, and refuses one that can only match outside", async () => {
    const f = await fixture({ "a.py": "foo\n", "etc/b.js": "foo\n" });
    expect((await search(f, { pattern: "foo", glob: "/project/etc/*.js" })).files.map((file) => file.path)).toEqual(["etc/b.js"]);
    await expect(search(f, { pattern: "foo", glob: "../../etc/*" })).rejects.toThrow(
      'glob "../../etc/*" can only match outside the project',
    );
    await expect(search(f, { pattern: "foo", glob: "/etc/*" })).rejects.toThrow('glob "/etc/*" can only match outside the project');
  });

  it("adds context lines around matches", async () => {
    const f = await fixture({ "a.txt": "1\n2\nhit\n4\n5\n" });
    const result = await search(f, { pattern: "hit", contextLines: 1 });
    expect(result.files[0]!.lines).toEqual([
      { line: 2, text: "2", match: false },
      { line: 3, text: "hit", match: true },
      { line: 4, text: "4", match: false },
    ]);
  });

  it("separates groups of context that are apart with --, as rg does, and only with context", async () => {
    const f = await fixture({ "a.txt": "hit\n2\n3\n4\n5\nhit\n7\nhit\n" });
    expect(matchLines((await search(f, { pattern: "hit", contextLines: 1 })).files)).toEqual([
      "a.txt",
      "1:hit",
      "2-2",
      "--",
      "5-5",
      "6:hit",
      "7-7",
      "8:hit",
    ]);
    expect(matchLines((await search(f, { pattern: "hit" })).files)).toEqual(["a.txt", "1:hit", "6:hit", "8:hit"]);
  });

  it("stops at max_results and says more exist", async () => {
    const f = await fixture({ "many.txt": "hit\n".repeat(1000) });
    const result = await search(f, { pattern: "hit", maxResults: 5 });
    expect(result).toMatchObject({ matches: 5, truncated: true });
    expect(result.files[0]!.lines).toHaveLength(5);
  });

  it("keeps up to ten thousand matches past max_results, as shown", async () => {
    const f = await fixture({ "a.txt": "hit\nctx\nhit\nctx\nhit\n", "many.txt": "hit\n".repeat(10_050) });
    const kept: string[] = [];
    const keep = async (text: string) => {
      kept.push(text);
      return { path: "/results/kept.txt" };
    };
    const one = await searchFiles(f.confinement, { pattern: "hit", path: "a.txt", contextLines: 1, maxResults: 2 }, never, keep);
    expect(one).toMatchObject({ matches: 2, truncated: true, all: { path: "/results/kept.txt", matches: 3, complete: true } });
    expect(one.files[0]!.lines.map((line) => line.line)).toEqual([1, 2, 3, 4]);
    expect(kept[0]).toBe("a.txt\n1:hit\n2-ctx\n3:hit\n4-ctx\n5:hit\n");
    const lots = await searchFiles(f.confinement, { pattern: "hit", path: "many.txt", maxResults: 5 }, never, keep, UNHURRIED);
    expect(lots.all).toEqual({ path: "/results/kept.txt", matches: 10_005, complete: false });
    expect(kept[1]!.split("\n").slice(-2)).toEqual(["10005:hit", ""]);
    await searchFiles(f.confinement, { pattern: "hit", path: "a.txt", maxResults: 3 }, never, keep);
    expect(kept).toHaveLength(2);
  });

  it("shows max_results matches when the cut falls inside a file, the kept rest going on from the next", async () => {
    const f = await fixture({ "a.txt": "HIT\nx\n".repeat(5), "b.txt": "HIT\nx\n".repeat(5), "c.txt": "HIT\n" });
    const kept: string[] = [];
    const keep = async (text: string) => {
      kept.push(text);
      return { path: "/results/kept.txt" };
    };
    const result = await searchFiles(f.confinement, { pattern: "HIT", maxResults: 3 }, never, keep);
    const shown = matchLines(result.files);
    expect(shown.filter((line) => line.endsWith(":HIT"))).toHaveLength(3);
    expect(result.all).toEqual({ path: "/results/kept.txt", matches: 11, complete: true });
    const whole = kept[0]!.split("\n").slice(0, -1);
    // The answer is the kept text's beginning, and the rest holds every other match once.
    expect(whole.slice(0, shown.length)).toEqual(shown);
    expect(whole.slice(shown.length).filter((line) => line.endsWith(":HIT"))).toHaveLength(8);
  });

  it("shows fewer than max_results matches where theirs would outgrow the answer, and keeps every one", async () => {
    const f = await fixture({
      "long.txt": Array.from({ length: 20 }, (_, i) => `HIT ${String(i).padStart(2, "0")} ${"y".repeat(90)}`).join("\n"),
    });
    const kept: string[] = [];
    const keep = async (text: string) => {
      kept.push(text);
      return { path: "/results/kept.txt" };
    };
    // Each match line is about 100 bytes: five fit in 550, with the file's name.
    const result = await searchFiles(f.confinement, { pattern: "HIT", maxResults: 100, maxBytes: 550 }, never, keep);
    expect(result).toMatchObject({
      matches: 5,
      truncated: true,
      full: true,
      all: { path: "/results/kept.txt", matches: 20, complete: true },
    });
    const shown = matchLines(result.files);
    expect(shown.reduce((sum, line) => sum + Buffer.byteLength(JSON.stringify(line)), 0)).toBeLessThanOrEqual(550);
    expect(kept[0]!.split("\n").slice(0, shown.length)).toEqual(shown);
    // Within the room, max_results alone stops it.
    expect(await searchFiles(f.confinement, { pattern: "HIT", maxResults: 3, maxBytes: 550 }, never)).toMatchObject({
      matches: 3,
      truncated: true,
    });
    expect((await searchFiles(f.confinement, { pattern: "HIT", maxResults: 3, maxBytes: 550 }, never)).full).toBeUndefined();
  });

  it("cuts a long line of other scripts around the match (rg counts bytes)", async () => {
    const f = await fixture({
      "cjk.txt": `${"中".repeat(700_000)}NEEDLE${"文".repeat(700_000)}\n`,
      "e.txt": `${"é".repeat(1000)}NEEDLE${"é".repeat(1000)}\n`,
    });
    for (const path of ["cjk.txt", "e.txt"]) {
      const [line] = (await search(f, { pattern: "NEEDLE", path })).files[0]!.lines;
      expect(line!.text).toMatch(/^….{100}NEEDLE.+…$/u);
    }
  });

  it("keeps no more than twenty thousand lines, context included", async () => {
    const f = await fixture({ "wide.txt": "hit\nc\nc\nc\nc\nc\nc\n".repeat(5000) });
    const kept: string[] = [];
    const keep = async (text: string) => {
      kept.push(text);
      return { path: "/results/kept.txt" };
    };
    const result = await searchFiles(f.confinement, { pattern: "hit", contextLines: 3, maxResults: 5 }, never, keep, UNHURRIED);
    expect(result.all).toMatchObject({ complete: false });
    expect(result.all!.matches).toBeLessThan(3000);
    const lines = kept[0]!.split("\n").length;
    expect(lines).toBeGreaterThan(19_000);
    expect(lines).toBeLessThan(20_100);
  });

  it("takes look-around and backreferences (rg's PCRE2), and refuses a NUL in one line", async () => {
    const f = await fixture({ "a.txt": "foo bar\nbaz bar\nxx yy\n" });
    expect((await search(f, { pattern: "(?<=foo )bar" })).files[0]!.lines.map((line) => line.line)).toEqual([1]);
    expect((await search(f, { pattern: "(\\w)\\1" })).files[0]!.lines.map((line) => line.line)).toEqual([1, 3]);
    await expect(search(f, { pattern: "a\0b" })).rejects.toThrow(/^pattern or glob has a NUL character/);
  });

  it("refuses a pattern longer than a program argument can be in one line, where spawn failed with E2BIG", async () => {
    const f = await fixture({ "a.txt": "foo\n" });
    await expect(search(f, { pattern: "x".repeat(140_000) })).rejects.toThrow(
      /^pattern and glob are 140000 bytes, over the 65536 a search takes$/,
    );
  });

  it("refuses to search one file that is a device or a FIFO, as read_content does: a copy of /dev/zero fed rg until the timeout", async () => {
    const f = await fixture({ "a.txt": "x\n" });
    execFileSync("mknod", [join(f.root, "zero"), "c", "1", "5"]);
    mkfifoSync(join(f.root, "pipe"));
    for (const path of ["zero", "pipe"]) {
      await expect(searchFiles(f.confinement, { pattern: "x", path, maxResults: 10 }, AbortSignal.timeout(20_000))).rejects.toThrow(
        `${path}: not a regular file`,
      );
    }
  });

  it("searches past a .gitignore that is a FIFO, which rg would wait on forever, as an empty one", async () => {
    const f = await fixture({ "a.txt": "needle\n", "sub/b.txt": "needle\n", "sub/c.log": "needle\n" });
    mkfifoSync(join(f.root, "sub/.gitignore"));
    const signal = AbortSignal.timeout(20_000);
    const result = await searchFiles(f.confinement, { pattern: "needle", maxResults: 100 }, signal);
    expect(result.files.map((file) => file.path).sort()).toEqual(["a.txt", "sub/b.txt", "sub/c.log"]);
  });

  it("honours .gitignore outside a git repository too", async () => {
    const f = await fixture({ ".gitignore": "ignored/\n*.log\n", "ignored/x.txt": "two", "a.log": "two", "kept.txt": "two" });
    expect((await search(f, { pattern: "two" })).files.map((file) => file.path)).toEqual(["kept.txt"]);
  });

  it("cuts long lines around the match", async () => {
    const f = await fixture({ "min.js": `${"a".repeat(5000)}NEEDLE${"b".repeat(5000)}\n` });
    const [line] = (await search(f, { pattern: "NEEDLE" })).files[0]!.lines;
    expect(line!.text.length).toBeLessThanOrEqual(302);
    expect(line!.text).toContain("NEEDLE");
  });

  it("cuts a line of megabytes around its first match, as a short one", async () => {
    const f = await fixture({
      "dump.json": `${"a".repeat(1_500_000)}NEEDLE${"b".repeat(100)}NEEDLE\n`,
      "x.txt": `${"x".repeat(2_000_000)}\n`,
    });
    const [line] = (await search(f, { pattern: "NEEDLE" })).files[0]!.lines;
    expect(line!.text).toMatch(/^…a+NEEDLEb{100}NEEDLE$/);
    const [repeats] = (await search(f, { pattern: "x", glob: "x.txt" })).files[0]!.lines;
    expect(repeats!.text).toBe(`${"x".repeat(300)}…`);
  });

  it("searches a pattern that is no valid regex as the text itself, saying so", async () => {
    const f = await fixture({ "a.py": "total = apply_discount(price)\n" });
    const result = await search(f, { pattern: "apply_discount(" });
    expect(result).toMatchObject({ matches: 1, note: "not a valid regular expression (unclosed group): searched as the text itself" });
    expect(result.files[0]!.lines[0]!.text).toBe("total = apply_discount(price)");
  });

  it("says when what found nothing is in files .gitignore excludes, and searches them with includeIgnored", async () => {
    const f = await fixture({
      ".gitignore": "logs/\n.env\n.venv/\nnode_modules/\n",
      "logs/app.log": "GET / status=500\n",
      ".env": "SECRET=x\n",
      "src/a.py": "",
      // Installed dependencies match most patterns somewhere, and sort first: named only when nothing else matches.
      ".venv/lib/python3.12/site-packages/pip/_vendor/chardet/sjisprober.py": "# status=500 also here\n",
      "node_modules/left-pad/index.js": "// deprecated: only here\n",
    });
    expect(await search(f, { pattern: "status=500" })).toMatchObject({
      matches: 0,
      hint: 'in files .gitignore excludes (logs/app.log): pass include_ignored: true, with path "logs/app.log" for that file alone',
    });
    expect((await search(f, { pattern: "deprecated" })).hint).toBe(
      "in files .gitignore excludes (node_modules/left-pad/index.js): pass include_ignored: true",
    );
    expect((await search(f, { pattern: "SECRET", includeIgnored: true })).files.map((file) => file.path)).toEqual([".env"]);
    expect((await search(f, { pattern: "nowhere" })).hint).toBeUndefined();
  });

  it("looks in what any file of rules leaves out: a repository's exclude file, a nested .gitignore, one above the path searched", async () => {
    const repository = await fixture({
      ".git/HEAD": "ref: refs/heads/main\n",
      ".git/info/exclude": "token.txt\n",
      "token.txt": "token=1\n",
    });
    expect((await search(repository, { pattern: "token=" })).hint).toContain("(token.txt)");
    const nested = await fixture({ "a/b/.ignore": "x.log\n", "a/b/x.log": "needle\n", "c.txt": "" });
    expect((await search(nested, { pattern: "needle" })).hint).toContain("(a/b/x.log)");
    const above = await fixture({ ".rgignore": "*.log\n", "sub/x.log": "needle\n" });
    expect((await search(above, { pattern: "needle", path: "sub" })).hint).toContain("(sub/x.log)");
  });

  it("finds an agent's first-guess regex", async () => {
    const f = await fixture({ "a.ts": "// TODO:   fix this\n// TODO later\n" });
    expect((await search(f, { pattern: "TODO:\\s+\\w+" })).matches).toBe(1);
  });

  it.each(["*.ts", "src/**/*.py", "*.{js,ts}", "**/*.md"])("says %s looks like a glob and points to list_files", async (pattern) => {
    const f = await fixture({ "a.ts": "x\n" });
    const outcome = await search(f, { pattern }).then(
      (result) => result.hint,
      (error: Error) => error.message,
    );
    expect(outcome).toMatch(/looks like a file-name glob.*list_files with glob/);
  });
});
