// read_package's core: nothing outside the package is readable (symlinks leading out, `..`,
// absolute paths, a neighbour in the same site-packages or pnpm store); files are paged by lines
// within a byte budget; binary files are not dumped; the tree lists code and skips junk.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { findPackage } from "../../src/pkglocal/lookup.js";
import { PackageIndex } from "../../src/pkglocal/package-index.js";
import { describePackage, readPackageFile } from "../../src/pkglocal/package-read.js";
import type { PackageRecord } from "../../src/pkglocal/types.js";
import { pnpmProject, venvProject } from "./fixtures.mjs";

// Installing the fixtures may take a while the first time; the tests themselves are quick.
beforeAll(() => {
  venvProject();
  pnpmProject();
}, 300_000);

function scan(projectRoot: string): PackageRecord[] {
  const cacheDir = mkdtempSync(join(tmpdir(), "pkglocal-cache-"));
  return new PackageIndex({ projectRoot, cacheDir, env: {}, pythonEnvs: [], nodeModules: [] }).scan().packages;
}

function write(path: string, text: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const read = (pkg: PackageRecord, path: string, options: { startLine?: number; endLine?: number; maxBytes?: number } = {}) =>
  readPackageFile(pkg, { path, maxBytes: 4096, ...options });

/** A hand-made package whose symlinks try every way out. */
function trapProject() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "pkglocal-trap-")));
  const pkg = join(root, "node_modules/trap");
  write(join(root, "secret.txt"), "secret\n");
  write(join(pkg, "package.json"), JSON.stringify({ name: "trap", version: "1.0.0", main: "index.js" }));
  write(join(pkg, "index.js"), `${Array.from({ length: 100 }, (_, index) => `line ${index + 1}`).join("\n")}\n`);
  write(join(pkg, "long.js"), `${"x".repeat(10_000)}\nshort\n`);
  write(join(pkg, "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
  write(join(pkg, "node_modules/dep/index.js"), "nested\n");
  write(join(pkg, "lib/__pycache__/x.pyc"), "junk");
  write(join(pkg, "lib/util.d.ts"), "export {};\n");
  symlinkSync(join(root, "secret.txt"), join(pkg, "leak.js"));
  symlinkSync(root, join(pkg, "up"));
  symlinkSync("index.js", join(pkg, "alias.js"));
  write(join(root, "node_modules/neighbour/package.json"), JSON.stringify({ name: "neighbour", version: "2.0.0" }));
  const packages = scan(root);
  return { root, trap: packages.find((each) => each.name === "trap")! };
}

describe("confinement", () => {
  let trap: PackageRecord;
  beforeAll(() => ({ trap } = trapProject()));

  it.each([
    ["leak.js", "a symlink to a file outside"],
    ["up/secret.txt", "a symlink to a directory outside"],
    ["../neighbour/package.json", "a neighbour by .."],
    ["lib/../../neighbour/package.json", ".. inside the path"],
    ["/etc/passwd", "an absolute path"],
  ])("refuses %s (%s)", async (path) => {
    await expect(read(trap, path)).rejects.toThrow(/outside|relative to the package/);
  });

  it("says a missing file is missing, and how to see what there is", async () => {
    await expect(read(trap, "lib/missing.js")).rejects.toMatchObject({
      message: "lib/missing.js: no such file in trap@1.0.0",
      hint: expect.stringContaining("lists its files"),
    });
  });

  it("allows a symlink that stays inside the package", async () => {
    const page = await read(trap, "alias.js", { endLine: 1 });
    expect(page.binary ? "" : page.text).toBe("line 1\n");
  });

  it("refuses a neighbour in the same site-packages and a Pillow symlink out of it", async () => {
    const packages = scan(venvProject());
    const pillow = findPackage(packages, "PIL").found!;
    expect(pillow.name).toBe("Pillow");
    await expect(read(pillow, "pip/__init__.py")).rejects.toThrow(/outside/);
    await expect(read(pillow, "PIL/../pip/__init__.py")).rejects.toThrow(/outside/);
    await expect(read(pillow, "PIL/leak.py")).rejects.toThrow(/outside/);
    const own = await read(pillow, "PIL/Image.py");
    expect(own.binary ? "" : own.text).toContain("def open");
    // A path given below the package's own directory, as agents give it, is read there.
    const bare = await read(pillow, "Image.py");
    expect(bare.binary ? "" : bare.text).toContain("def open");
  });

  it("keeps each half of a namespace package to itself", async () => {
    const protobuf = findPackage(scan(venvProject()), "protobuf").found!;
    expect((await read(protobuf, "google/protobuf/message.py")).binary).toBe(false);
    await expect(read(protobuf, "google/api/http_pb2.py")).rejects.toThrow(/outside/);
    const overview = await describePackage(protobuf, 100);
    expect(overview.tree.files.map((file) => file.path)).not.toContain("google/api/__init__.py");
  });

  it("reads pnpm packages through their symlinks but not their store neighbours", async () => {
    const debug = findPackage(scan(pnpmProject()), "debug").found!;
    const entry = await read(debug, "package.json");
    expect(entry.binary ? "" : entry.text).toContain('"version": "4.3.4"');
    await expect(read(debug, "../ms/package.json")).rejects.toThrow(/outside/);
  });
});

describe("hostile metadata", () => {
  it("never widens a package to its parent or to where a .pth points at large", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "pkglocal-hostile-")));
    const site = join(root, "site-packages");
    write(join(root, "secret.txt"), "secret\n");
    const dist = (name: string, files: Record<string, string>) => {
      write(join(site, `${name}-1.0.dist-info/METADATA`), `Name: ${name}\nVersion: 1.0\n`);
      for (const [file, text] of Object.entries(files)) write(join(site, `${name}-1.0.dist-info`, file), text);
    };
    write(join(site, "evil.py"), "x = 1\n");
    dist("evil", { RECORD: "..,,\n.,,\n../secret.txt,,\n/etc/passwd,,\nevil.py,,\n" });
    dist("topless", { "top_level.txt": "..\n" });
    write(join(site, "wide.pth"), "/\n");
    dist("wide", { RECORD: "wide.pth,,\n", "direct_url.json": JSON.stringify({ url: "file:///", dir_info: { editable: true } }) });
    const cacheDir = mkdtempSync(join(tmpdir(), "pkglocal-cache-"));
    const packages = new PackageIndex({ projectRoot: root, cacheDir, env: {}, pythonEnvs: ["site-packages"], nodeModules: [] }).scan()
      .packages;
    const named = (name: string) => packages.find((pkg) => pkg.name === name)!;
    expect(named("evil").members).toEqual(["evil.py", "evil-1.0.dist-info"]);
    expect(named("topless").members).toEqual(["topless-1.0.dist-info"]);
    expect(named("wide").members).toEqual([]);
    await expect(read(named("evil"), "../secret.txt")).rejects.toThrow(/outside/);
    await expect(read(named("topless"), "../secret.txt")).rejects.toThrow(/outside/);
    await expect(read(named("wide"), "etc/passwd")).rejects.toThrow(/outside/);
  });
});

describe("paging", () => {
  let trap: PackageRecord;
  beforeAll(() => ({ trap } = trapProject()));

  it("returns the asked lines and the file's length, counted on past the range in a file no larger than a read", async () => {
    expect(await read(trap, "index.js", { startLine: 10, endLine: 12 })).toEqual({
      binary: false,
      text: "line 10\nline 11\nline 12\n",
      startLine: 10,
      endLine: 12,
      totalLines: 100,
    });
    // Larger than a read: counted all the same (up to 64 MiB).
    expect(await read(trap, "index.js", { startLine: 10, endLine: 12, maxBytes: 100 })).toMatchObject({ totalLines: 100 });
    const tail = await read(trap, "index.js", { startLine: 99 });
    expect(tail).toMatchObject({ text: "line 99\nline 100\n", endLine: 100, totalLines: 100 });
  });

  it("stops at the byte budget and says where to go on", async () => {
    const page = await read(trap, "index.js", { maxBytes: 30 });
    expect(page).toMatchObject({ text: "line 1\nline 2\nline 3\nline 4\n", endLine: 4, nextStartLine: 5 });
  });

  it("cuts a line longer than the whole budget", async () => {
    const page = await read(trap, "long.js", { maxBytes: 100 });
    expect(page).toMatchObject({ endLine: 1, nextStartLine: 2, lineCut: true });
    expect(page.binary ? 0 : page.text.length).toBe(100);
  });

  it("cuts a long line between characters, never inside one", async () => {
    const { trap } = trapProject();
    write(join(trap.root, "wide.js"), `${"é".repeat(100)}\n`);
    const page = await read(trap, "wide.js", { maxBytes: 51 });
    expect(page.binary ? "" : page.text).toBe("é".repeat(25));
  });

  it("tells binary files apart", async () => {
    expect(await read(trap, "logo.png")).toEqual({ binary: true, size: 12 });
  });

  it("refuses a directory, a FIFO and a backwards range", async () => {
    await expect(read(trap, "lib")).rejects.toThrow(/is a directory/);
    execFileSync("mkfifo", [join(trap.root, "pipe.js")]);
    await expect(read(trap, "pipe.js")).rejects.toThrow(/not a regular file/);
    await expect(read(trap, "index.js", { startLine: 5, endLine: 2 })).rejects.toThrow(/before start_line/);
  });
});

describe("overview", () => {
  it("lists code files, skips junk and nested node_modules, counts what it caps", async () => {
    const { trap } = trapProject();
    const overview = await describePackage(trap, 3);
    expect(overview.tree.counts).toEqual({ ".js": 3, "package.json": 1, ".d.ts": 1 });
    expect(overview.tree.total).toBe(5);
    expect(overview.tree.files).toHaveLength(3);
    expect(overview.tree.other).toBe(1);
    const full = await describePackage(trap, 100);
    expect(full.tree.files.map((file) => file.path)).toEqual(["alias.js", "index.js", "lib/util.d.ts", "long.js", "package.json"]);
    expect(full.entryFile).toMatchObject({ path: "index.js", more: true });
  });

  it("shows a Python distribution's README from METADATA and its __init__.py", async () => {
    const pillow = findPackage(scan(venvProject()), "pillow").found!;
    const overview = await describePackage(pillow, 100);
    expect(overview.readme?.text).toContain("The README of Pillow.");
    expect(overview.entryFile).toMatchObject({ path: "PIL/__init__.py", more: false });
    expect(overview.tree.files.map((file) => file.path)).toEqual([
      "PIL/__init__.py",
      "PIL/Image.py",
      "Pillow-10.0.0.dist-info/METADATA",
      "Pillow-10.0.0.dist-info/RECORD",
      "Pillow-10.0.0.dist-info/top_level.txt",
    ]);
  });
});

describe("lookup", () => {
  it("finds by name, import name and name@version, and offers the closest names otherwise", () => {
    const packages = scan(venvProject());
    expect(findPackage(packages, "PILLOW").found?.name).toBe("Pillow");
    expect(findPackage(packages, "google.protobuf").found?.name).toBe("protobuf");
    expect(findPackage(packages, "googleapis_common_protos").found?.version).toBe("1.62.0");
    const wrongVersion = findPackage(packages, "pillow@9.0.0");
    expect(wrongVersion.found).toBeUndefined();
    expect(wrongVersion.closest).toEqual(["Pillow@10.0.0"]);
    expect(findPackage(packages, "pilow").closest[0]).toBe("Pillow");
    // A name near none installed offers none.
    expect(findPackage(packages, "tensorflow").closest).toEqual([]);
  });
});
