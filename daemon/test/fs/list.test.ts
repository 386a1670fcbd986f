import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { describe, expect, it, vi } from "vitest";
import { foldDensest, listFiles } from "../../src/fs/list.js";
import { jailed } from "../../src/fs/ripgrep.js";
import { fixture, never } from "./fixture.js";

async function gitProject() {
  const f = await fixture({
    ".gitignore": "node_modules/\n*.log\n",
    "src/a.ts": "a",
    "src/b.js": "b",
    "src/deep/c.ts": "c",
    "debug.log": "x",
    "node_modules/pkg/index.js": "x",
    ".github/ci.yml": "x",
  });
  execFileSync("git", ["init", "-q", f.root]);
  mkdirSync(join(f.root, "empty"));
  symlinkSync("src", join(f.root, "src-link"));
  return f;
}

const paths = (result: { entries: { path: string }[] }) => result.entries.map((entry) => entry.path);
/** At most `entries` entries, of any length. */
const cap = (entries: number) => ({ entries, bytes: Number.POSITIVE_INFINITY });

describe("list_files", () => {
  it("lists one directory with types, honouring .gitignore and hiding .git", async () => {
    const f = await gitProject();
    const result = await listFiles(f.confinement, {}, cap(100), never);
    expect(result.entries).toEqual([
      { path: ".github", type: "directory" },
      { path: ".gitignore", type: "file" },
      { path: "empty", type: "directory" },
      { path: "src", type: "directory" },
      { path: "src-link", type: "symlink" },
    ]);
    expect(result.more).toBe(0);
  });

  it("keeps the whole listing the cap cuts short, one entry per line as shown, and says where", async () => {
    const f = await gitProject();
    const kept: string[] = [];
    const keep = async (text: string) => {
      kept.push(text);
      return { path: "/results/0001-list_files.txt" };
    };
    const result = await listFiles(f.confinement, {}, cap(2), never, keep);
    expect(result).toMatchObject({ more: 3, all: "/results/0001-list_files.txt" });
    expect(paths(result)).toEqual([".github", ".gitignore"]);
    expect(kept).toEqual([".github/\n.gitignore\nempty/\nsrc/\nsrc-link@\n"]);
    expect(await listFiles(f.confinement, {}, cap(5), never, keep)).not.toHaveProperty("all");
    expect(kept).toHaveLength(1);
  });

  it("stops where the text would outgrow its bytes, and keeps the rest as it keeps what the entry cap leaves out", async () => {
    const f = await fixture(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`${"n".repeat(40)}${i}.txt`, ""])));
    const kept: string[] = [];
    // Each line is 45 bytes and its line break 2 (escaped): three fit in 150.
    const result = await listFiles(f.confinement, {}, { entries: 100, bytes: 150 }, never, async (text) => {
      kept.push(text);
      return { path: "/r" };
    });
    expect(result.entries).toHaveLength(3);
    expect(result).toMatchObject({ more: 7, all: "/r" });
    expect(kept[0]!.split("\n")).toHaveLength(11);
  });

  it("keeps a name with a line break on one line, so line numbers hold", async () => {
    const f = await fixture({ "a\nx.txt": "", "b.txt": "", "c.txt": "" });
    const kept: string[] = [];
    const result = await listFiles(f.confinement, {}, cap(1), never, async (text) => {
      kept.push(text);
      return { path: "/r" };
    });
    expect(paths(result)).toEqual(["a\nx.txt"]);
    expect(kept).toEqual(["a\\nx.txt\nb.txt\nc.txt\n"]);
  });

  it("refuses a NUL in a glob in one line", async () => {
    const f = await gitProject();
    await expect(listFiles(f.confinement, { glob: "a\0b" }, cap(100), never)).rejects.toThrow(/^glob has a NUL character/);
    // Longer than a program argument may be, it failed with spawn's E2BIG.
    await expect(listFiles(f.confinement, { glob: "*".repeat(140_000) }, cap(100), never)).rejects.toThrow(
      /^glob is 140000 bytes, over the 65536 a listing takes/,
    );
  });

  it("honours .gitignore in a tree outside a git repository too", async () => {
    const f = await fixture({ ".gitignore": "ignored/\n*.log\n", "ignored/x.txt": "", "a.log": "", "src/kept.txt": "" });
    expect(paths(await listFiles(f.confinement, { recursive: true }, cap(100), never))).toEqual([".gitignore", "src/kept.txt"]);
  });

  it("honours .gitignore at one level outside a git repository, the root's and the directory's own", async () => {
    const f = await fixture({
      ".gitignore": "ignored/\n*.log\n",
      "ignored/x.txt": "",
      "a.log": "",
      "src/.gitignore": "generated/\n",
      "src/generated/g.ts": "",
      "src/kept.log": "",
      "src/kept.ts": "",
    });
    expect(paths(await listFiles(f.confinement, {}, cap(100), never))).toEqual([".gitignore", "src"]);
    expect(paths(await listFiles(f.confinement, { path: "src" }, cap(100), never))).toEqual(["src/.gitignore", "src/kept.ts"]);
    expect(paths(await listFiles(f.confinement, { includeIgnored: true }, cap(100), never))).toEqual([
      ".gitignore",
      "a.log",
      "ignored",
      "src",
    ]);
  });

  it("takes a comma list of globs, and tells a glob given as the path to go as glob", async () => {
    const f = await fixture({ "a.md": "", "b.ts": "", "c.py": "" });
    expect(paths(await listFiles(f.confinement, { glob: "*.md,*.ts" }, cap(100), never))).toEqual(["a.md", "b.ts"]);
    // A name with a comma in it is that name.
    writeFileSync(join(f.root, "a,b.txt"), "");
    expect(paths(await listFiles(f.confinement, { glob: "a,b.txt" }, cap(100), never))).toEqual(["a,b.txt"]);
    await expect(listFiles(f.confinement, { path: "*.py" }, cap(100), never)).rejects.toMatchObject({
      hint: expect.stringMatching(/^"\*\.py" is a glob: pass it as glob/),
    });
  });

  it("lists a directory .gitignore excludes whole when it is the one named, at one level as in a tree", async () => {
    const f = await fixture({ ".gitignore": "ignored/\n", "ignored/deps/x.js": "", "ignored/y.txt": "", "src/z.txt": "" });
    expect(paths(await listFiles(f.confinement, { path: "ignored" }, cap(100), never))).toEqual(["ignored/deps", "ignored/y.txt"]);
    expect(paths(await listFiles(f.confinement, { path: "ignored/deps" }, cap(100), never))).toEqual(["ignored/deps/x.js"]);
    expect(paths(await listFiles(f.confinement, { path: "ignored", recursive: true }, cap(100), never))).toEqual([
      "ignored/deps/x.js",
      "ignored/y.txt",
    ]);
    // Not named, it stays out.
    expect(paths(await listFiles(f.confinement, {}, cap(100), never))).toEqual([".gitignore", "src"]);
  });

  it("reads a .gitignore that is a symlink as none, as git does, even to a file in the project", async () => {
    const f = await fixture({ patterns: "*.log\n", "a.log": "", "src/b.log": "", "src/.gitignore": "*.tmp\n", "src/c.tmp": "" });
    symlinkSync("patterns", join(f.root, ".gitignore"));
    expect(paths(await listFiles(f.confinement, {}, cap(100), never))).toEqual([".gitignore", "a.log", "patterns", "src"]);
    expect(paths(await listFiles(f.confinement, { path: "src" }, cap(100), never))).toEqual(["src/.gitignore", "src/b.log"]);
  });

  it("lists unfiltered, not failing, when a cleaner took its private directory, and makes it again for the next listing", async () => {
    const f = await fixture({ ".gitignore": "*.log\n", "a.log": "", "kept.ts": "" });
    const own = mkdtempSync(join(tmpdir(), "nixshed-own-tmp-"));
    const tmp = process.env.TMPDIR;
    process.env.TMPDIR = own;
    try {
      vi.resetModules();
      const fresh = await import("../../src/fs/list.js");
      expect(paths(await fresh.listFiles(f.confinement, {}, cap(100), never))).toEqual([".gitignore", "kept.ts"]);
      for (const made of readdirSync(own)) rmSync(join(own, made), { recursive: true });
      expect(paths(await fresh.listFiles(f.confinement, {}, cap(100), never))).toEqual([".gitignore", "a.log", "kept.ts"]);
      expect(paths(await fresh.listFiles(f.confinement, {}, cap(100), never))).toEqual([".gitignore", "kept.ts"]);
    } finally {
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
    }
  });

  it("counts a .gitignore that is a FIFO (which would stall git) or over 1 MiB (which git reads whole into memory) as empty; the others still count", async () => {
    const f = await fixture({ "a.log": "", "src/b.log": "", "src/c.tmp": "", "src/kept.ts": "", "src/.gitignore": "*.tmp\n" });
    execFileSync("mkfifo", [join(f.root, ".gitignore")]);
    expect(paths(await listFiles(f.confinement, {}, cap(100), never))).toEqual([".gitignore", "a.log", "src"]);
    expect(paths(await listFiles(f.confinement, { path: "src" }, cap(100), never))).toEqual(["src/.gitignore", "src/b.log", "src/kept.ts"]);
    const g = await fixture({ "src/b.log": "", "src/kept.ts": "" });
    writeFileSync(join(g.root, ".gitignore"), "*.log\n");
    truncateSync(join(g.root, ".gitignore"), 2 * 1024 * 1024);
    expect(paths(await listFiles(g.confinement, { path: "src" }, cap(100), never))).toEqual(["src/b.log", "src/kept.ts"]);
  });

  it("walks git past a .gitignore swapped for a FIFO after it was checked, as a jail writing the project could", async () => {
    const f = await fixture({ "a.log": "", "kept.ts": "", "file/.gitignore": "*.log\n" });
    execFileSync("mkfifo", [join(f.root, "fifo")]);
    // Another thread flips .gitignore between the file and the FIFO (each rename atomic) as fast as it can, so that
    // some listings find a plain file where they check and a FIFO where git opens it.
    const swapper = new Worker(
      `const { linkSync, renameSync } = require("node:fs");
       const root = require("node:worker_threads").workerData;
       for (let i = 0; ; i++) {
         linkSync(root + (i % 2 ? "/fifo" : "/file/.gitignore"), root + "/swap");
         renameSync(root + "/swap", root + "/.gitignore");
       }`,
      { eval: true, workerData: f.root },
    );
    try {
      for (let call = 0; call < 20; call++) {
        // Without the release, git waits on the FIFO until this signal ends it.
        const signal = AbortSignal.timeout(15_000);
        const listed = paths(await listFiles(f.confinement, {}, cap(100), signal));
        expect(signal.aborted, `call ${call}`).toBe(false);
        expect(listed).toContain("kept.ts");
      }
    } finally {
      await swapper.terminate();
    }
  });

  it("stops rg at 1 GiB: a sparse .gitignore of 3 GB (nothing on disk) is one line of error, not the host's memory", async () => {
    const f = await fixture({ "sub/a.txt": "" });
    writeFileSync(join(f.root, "sub/.gitignore"), "");
    truncateSync(join(f.root, "sub/.gitignore"), 3 * 1024 ** 3);
    await expect(listFiles(f.confinement, { recursive: true }, cap(100), never)).rejects.toThrow(
      /^ripgrep needed more than 1 GiB \(a file it reads whole, such as a \.gitignore, is that large\)$/,
    );
  });

  it("stops a listing past 64 MiB of file names, asking for max_depth, which counts them instead of holding them", async () => {
    // 54,000 names of 1.25 KB: 300,000 such once held 1.3 GB of the daemon for one call.
    const f = await fixture({});
    const deep = join(f.root, ...["a", "b", "c", "d"].map((letter) => letter.repeat(250)));
    mkdirSync(deep, { recursive: true });
    // Each in a directory of its own: max_depth 5 would hold every one of those instead.
    for (let i = 0; i < 54_000; i++) {
      const own = join(deep, `${String(i).padStart(6, "0")}${"f".repeat(240)}`);
      mkdirSync(own);
      writeFileSync(join(own, "x"), "");
    }
    const listing = (request: { recursive?: boolean; maxDepth?: number }) => listFiles(f.confinement, request, cap(100), never);
    await expect(listing({ recursive: true })).rejects.toThrow(/^over 64 MiB of file names to list$/);
    await expect(listing({ maxDepth: 5 })).rejects.toMatchObject({
      message: "over 64 MiB of file names to list",
      hint: expect.stringMatching(/smaller max_depth/),
    });
    expect((await listing({ maxDepth: 2 })).entries).toEqual([expect.objectContaining({ type: "directory", files: 54_000 })]);
  }, 120_000);

  it("stops a one-level listing past 64 MiB of names too, asking for a glob: a directory of a million names held 1.55 GB", async () => {
    const f = await fixture({ "big/keep.json": "" });
    // 265,000 names of 255 characters, made quickly.
    execFileSync("python3", [
      "-c",
      "import os, sys\nfor i in range(265000): os.close(os.open(os.path.join(sys.argv[1], '%06d' % i + 'f' * 249), os.O_CREAT | os.O_WRONLY))",
      join(f.root, "big"),
    ]);
    await expect(listFiles(f.confinement, { path: "big" }, cap(100), never)).rejects.toMatchObject({
      message: "over 64 MiB of file names to list",
      hint: "give a glob, which lists only the names it matches",
    });
    expect(paths(await listFiles(f.confinement, { glob: "big/*.json" }, cap(100), never))).toEqual(["big/keep.json"]);
  }, 120_000);

  it("gives git at most 2 MiB of .gitignore from the root down, however many nested ones there are: past it they count as empty", async () => {
    // Six directories deep, each .gitignore nearly 1 MiB (a 1 MiB pattern per line costs git some twenty times that),
    // each ignoring its own hidden-N: two hundred such had one git reach 3.9 GB outside any jail.
    const filler = `${"#".repeat(1000)}\n`.repeat(900);
    const files: Record<string, string> = {};
    let dir = "";
    for (let depth = 1; depth <= 6; depth++) {
      files[`${dir}.gitignore`] = `${filler}hidden-${depth}\n`;
      dir += `d${depth}/`;
    }
    for (let depth = 1; depth <= 6; depth++) files[`${dir}hidden-${depth}`] = "";
    const f = await fixture(files);
    const listed = paths(await listFiles(f.confinement, { path: dir.slice(0, -1) }, cap(100), never));
    expect(listed.map((path) => path.slice(dir.length))).toEqual(["hidden-3", "hidden-4", "hidden-5", "hidden-6"]);
  });

  it("walks past ignore files that are FIFOs, which rg opens and would wait on forever: each reads as empty", async () => {
    const f = await fixture({
      "a.txt": "",
      "deep/er/b.txt": "",
      "deep/er/still/c.txt": "",
      "deep/.gitignore": "*.log\n",
      "deep/x.log": "",
      "other/d.txt": "",
    });
    execFileSync("git", ["init", "-q", f.root]);
    rmSync(join(f.root, ".git/info/exclude"));
    for (const fifo of [".git/info/exclude", ".rgignore", "deep/er/.gitignore", "deep/er/still/.ignore", "other/.gitignore"]) {
      execFileSync("mkfifo", [join(f.root, fifo)]);
    }
    // Without the release, rg waits on the first FIFO until the call's time is up.
    const signal = AbortSignal.timeout(20_000);
    expect(paths(await listFiles(f.confinement, { recursive: true }, cap(100), signal))).toEqual([
      "a.txt",
      "deep/.gitignore",
      "deep/er/b.txt",
      "deep/er/still/c.txt",
      "other/d.txt",
    ]);
    expect(paths(await listFiles(f.confinement, { path: "deep/er", recursive: true }, cap(100), signal))).toEqual([
      "deep/er/b.txt",
      "deep/er/still/c.txt",
    ]);
  });

  it("walks past an ignore file that is a symlink to a FIFO inside the project, relative or as rg sees the root", async () => {
    const f = await fixture({ "a.txt": "", "rel/b.txt": "", "abs/c.txt": "", "pipes/kept.txt": "" });
    execFileSync("mkfifo", [join(f.root, "pipes/one")]);
    execFileSync("mkfifo", [join(f.root, "pipes/two")]);
    symlinkSync("../pipes/one", join(f.root, "rel/.gitignore"));
    // Jailed, rg sees the root at /search; else where the host has it.
    symlinkSync(join((await jailed()) ? "/search" : f.root, "pipes/two"), join(f.root, "abs/.ignore"));
    // Symlinks on the way count too: a directory of the path, .git, .git/info.
    mkdirSync(join(f.root, "hidden/inner"), { recursive: true });
    execFileSync("mkfifo", [join(f.root, "hidden/inner/three")]);
    symlinkSync("hidden", join(f.root, "dirlink"));
    mkdirSync(join(f.root, "via"));
    writeFileSync(join(f.root, "via/d.txt"), "");
    symlinkSync("../dirlink/inner/three", join(f.root, "via/.rgignore"));
    mkdirSync(join(f.root, "gitdir/info"), { recursive: true });
    execFileSync("mkfifo", [join(f.root, "gitdir/info/exclude")]);
    mkdirSync(join(f.root, "repo"));
    symlinkSync("../gitdir", join(f.root, "repo/.git"));
    writeFileSync(join(f.root, "repo/e.txt"), "");
    const signal = AbortSignal.timeout(20_000);
    expect(paths(await listFiles(f.confinement, { recursive: true }, cap(100), signal))).toEqual([
      "a.txt",
      "abs/c.txt",
      "pipes/kept.txt",
      "rel/b.txt",
      "repo/e.txt",
      "via/d.txt",
    ]);
  });

  it("reads no configuration of the project's repository: a core.excludesFile naming a FIFO stalls nothing", async () => {
    const f = await gitProject();
    execFileSync("mkfifo", [join(f.root, "excludes")]);
    execFileSync("git", ["-C", f.root, "config", "core.excludesFile", join(f.root, "excludes")]);
    expect(paths(await listFiles(f.confinement, {}, cap(100), never))).toContain("src");
    // The project's .gitignore still counts.
    expect(paths(await listFiles(f.confinement, {}, cap(100), never))).not.toContain("debug.log");
  });

  it("includes ignored entries on request", async () => {
    const f = await gitProject();
    expect(paths(await listFiles(f.confinement, { includeIgnored: true }, cap(100), never))).toEqual([
      ".github",
      ".gitignore",
      "debug.log",
      "empty",
      "node_modules",
      "src",
      "src-link",
    ]);
  });

  it("lists a tree, filtered by a glob, depth-limited", async () => {
    const f = await gitProject();
    expect(paths(await listFiles(f.confinement, { recursive: true }, cap(100), never))).toEqual([
      ".github/ci.yml",
      ".gitignore",
      "src/a.ts",
      "src/b.js",
      "src/deep/c.ts",
    ]);
    expect(paths(await listFiles(f.confinement, { glob: "*.ts" }, cap(100), never))).toEqual(["src/a.ts", "src/deep/c.ts"]);
    expect((await listFiles(f.confinement, { path: "src", glob: "*.ts", maxDepth: 1 }, cap(100), never)).entries).toEqual([
      { path: "src/a.ts", type: "file" },
      { path: "src/deep", type: "directory", files: 1 },
    ]);
    expect(paths(await listFiles(f.confinement, { glob: "**/index.js", includeIgnored: true }, cap(100), never))).toEqual([
      "node_modules/pkg/index.js",
    ]);
  });

  it("takes an absolute glob as a path in the project's world, anchored where it points", async () => {
    const f = await gitProject();
    expect(paths(await listFiles(f.confinement, { glob: "/project/src/*.ts" }, cap(100), never))).toEqual(["src/a.ts"]);
    expect(paths(await listFiles(f.confinement, { glob: `${f.root}/src/**` }, cap(100), never))).toEqual([
      "src/a.ts",
      "src/b.js",
      "src/deep/c.ts",
    ]);
    expect(paths(await listFiles(f.confinement, { path: "src", glob: "/project/src/deep/*" }, cap(100), never))).toEqual(["src/deep/c.ts"]);
    expect(paths(await listFiles(f.confinement, { glob: "!/project/src/**" }, cap(100), never))).toEqual([".github/ci.yml", ".gitignore"]);
  });

  it.each([
    [".", "../**", "the project"],
    [".", "src/../../*", "the project"],
    [".", "/etc/*", "the project"],
    [".", "/*.ts", "the project"],
    [".", "!/project/../*", "the project"],
    ["src", "/project/.github/*", "src"],
  ])("refuses in %s the glob %s, which can only match outside %s", async (path, glob, where) => {
    const f = await gitProject();
    // ripgrep alone would take "/etc/*" as the project's own etc/.
    f.write("etc/passwd", "");
    const listed = listFiles(f.confinement, { path, glob }, cap(100), never);
    await expect(listed).rejects.toThrow(`glob "${glob}" can only match outside ${where}`);
    await expect(listed).rejects.toMatchObject({ hint: expect.stringMatching(/relative to .*\/project\//) });
  });

  it("lists, depth-limited, the directories at the limit with the files below them, not only the files above it", async () => {
    const f = await fixture({
      "README.md": "",
      "src/app/main.py": "",
      "src/app/util/io.py": "",
      "src/setup.py": "",
      "web/src/server.js": "",
    });
    const result = await listFiles(f.confinement, { maxDepth: 2 }, cap(100), never);
    expect(result.entries).toEqual([
      { path: "README.md", type: "file" },
      { path: "src/app", type: "directory", files: 2 },
      { path: "src/setup.py", type: "file" },
      { path: "web/src", type: "directory", files: 1 },
    ]);
    expect(result.more).toBe(0);
  });

  it("shows the densest directories of a tree over the cap as their file counts, so the rest stays listed", async () => {
    const many = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`data/many/f${i}.json`, ""]));
    const f = await fixture({ ...many, "data/people.json": "", "package.json": "", "src/index.ts": "", "src/lib/util.ts": "" });
    const kept: string[] = [];
    const result = await listFiles(f.confinement, { recursive: true }, cap(10), never, async (text) => {
      kept.push(text);
      return { path: "/kept/list.txt" };
    });
    expect(result.entries).toEqual([
      { path: "data/many", type: "directory", files: 30 },
      { path: "data/people.json", type: "file" },
      { path: "package.json", type: "file" },
      { path: "src/index.ts", type: "file" },
      { path: "src/lib/util.ts", type: "file" },
    ]);
    expect(result).toMatchObject({ more: 0, all: "/kept/list.txt", total: 34 });
    expect(kept[0]!.split("\n")).toHaveLength(35);
  });

  it("shows a tree of many small directories over the cap to the deepest level that fits", async () => {
    const tree = Object.fromEntries(
      Array.from({ length: 60 }, (_, i) => [`pkg/m${i}/a.py`, `pkg/m${i}/b.py`]).flatMap((pair) => pair.map((path) => [path, ""])),
    );
    const f = await fixture({ ...tree, "README.md": "" });
    const result = await listFiles(f.confinement, { recursive: true }, cap(70), never, async () => ({ path: "/kept" }));
    expect(result.entries).toHaveLength(61);
    expect(result.entries[0]).toEqual({ path: "README.md", type: "file" });
    expect(result.entries).toContainEqual({ path: "pkg/m7", type: "directory", files: 2 });
    expect(result).toMatchObject({ more: 0, total: 121 });
  });

  it("folds a tree of hundreds of thousands of entries without running out of stack", () => {
    const flat = Array.from({ length: 200_000 }, (_, i) => ({ name: `f${i}`, type: "file" as const }));
    expect(foldDensest(flat, 1000)).toHaveLength(200_000);
    const nested = Array.from({ length: 200_000 }, (_, i) => ({ name: `d${i % 500}/e${i % 7}/f${i}`, type: "file" as const }));
    const folded = foldDensest(nested, 1000);
    expect(folded).toHaveLength(500);
    expect(folded[0]).toEqual({ name: "d0", type: "directory", files: 400 });
  });

  it("caps the listing and counts what it left out", async () => {
    const f = await fixture(Object.fromEntries(Array.from({ length: 25 }, (_, index) => [`f${String(index).padStart(2, "0")}.txt`, ""])));
    const result = await listFiles(f.confinement, { recursive: true }, cap(10), never);
    expect(paths(result)).toEqual(Array.from({ length: 10 }, (_, index) => `f${String(index).padStart(2, "0")}.txt`));
    expect(result.more).toBe(15);
  });

  it("adds sizes and times on request", async () => {
    const f = await fixture({ "a.txt": "12345" });
    const [entry] = (await listFiles(f.confinement, { includeStats: true }, cap(10), never)).entries;
    expect(entry).toMatchObject({ path: "a.txt", type: "file", size: 5, mtime: expect.stringMatching(/^\d{4}-/) });
  });

  it("says what is wrong with the path", async () => {
    const f = await fixture({ "a.txt": "" });
    await expect(listFiles(f.confinement, { path: "a.txt" }, cap(10), never)).rejects.toThrow(/not a directory/);
    await expect(listFiles(f.confinement, { path: "nope" }, cap(10), never)).rejects.toThrow(/no such directory/);
  });
});
