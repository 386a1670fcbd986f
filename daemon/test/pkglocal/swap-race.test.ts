// A jail that writes the project can swap a directory of an installed package for a symlink to the
// host between pkg-local's check of a path and its use of it. The swap is made here exactly in that
// window (after the path is checked, before it is opened or listed), so what a racing attacker wins
// sometimes is tried every time: pkg-local must refuse what it opened outside the package.
import { mkdirSync, mkdtempSync, realpathSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { describePackage, readPackageFile } from "../../src/pkglocal/package-read.js";
import { PackageIndex } from "../../src/pkglocal/package-index.js";
import { packageTree } from "../../src/pkglocal/package-tree.js";
import type { PackageRecord } from "../../src/pkglocal/types.js";

/** The swap, made once right after the check `when` picks: "resolved <path>" in a package, or "real <path>" taken. */
let inTheWindow: { when: (check: string) => boolean; swap: () => void } | undefined;
function checked<T>(check: string, result: T): T {
  if (inTheWindow?.when(check)) {
    const { swap } = inTheWindow;
    inTheWindow = undefined;
    swap();
  }
  return result;
}
vi.mock("../../src/pkglocal/package-confine.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../src/pkglocal/package-confine.js")>();
  return {
    ...actual,
    resolveInPackage: (pkg: PackageRecord, path: string) => checked(`resolved ${path}`, actual.resolveInPackage(pkg, path)),
  };
});
vi.mock("../../src/pkglocal/quiet-fs.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../src/pkglocal/quiet-fs.js")>();
  return { ...actual, realpathOf: (path: string) => checked(`real ${path}`, actual.realpathOf(path)) };
});
/** After the next path resolved in a package. */
const afterResolving = (swap: () => void) => ({ when: (check: string) => check.startsWith("resolved "), swap });
afterEach(() => {
  inTheWindow = undefined;
});

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A package whose `dir` a racing jail swaps for a symlink to a host directory holding the same names. */
function racedPackage(dir: string, files: Record<string, string>) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "pkglocal-race-")));
  const pkg = join(root, "node_modules/raced");
  write(join(pkg, "package.json"), JSON.stringify({ name: "raced", version: "1.0.0", main: "lib/index.js" }));
  for (const [name, text] of Object.entries(files)) {
    write(join(pkg, dir, name), text);
    write(join(root, "host", name), "HOST SECRET\n");
  }
  const index = new PackageIndex({ projectRoot: root, cacheDir: join(root, "cache"), env: {}, pythonEnvs: [], nodeModules: [] });
  const record = index.scan().packages.find((each) => each.name === "raced")!;
  const swap = () => {
    renameSync(join(pkg, dir), join(pkg, `${dir}.moved`));
    symlinkSync(join(root, "host"), join(pkg, dir));
  };
  return { record, swap };
}

describe("a directory swapped for a symlink between check and read", () => {
  it("read_package refuses the file it opened outside the package", async () => {
    const { record, swap } = racedPackage("lib", { "util.js": "export const util = 1;\n" });
    inTheWindow = afterResolving(swap);
    const read = readPackageFile(record, { path: "lib/util.js", maxBytes: 4096 });
    await expect(read).rejects.toThrow(/leads outside raced@1\.0\.0/);
  });

  it("a Python package's METADATA (its README in the overview) is not read from outside", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "pkglocal-race-")));
    const site = join(root, ".venv/lib/python3.11/site-packages");
    write(join(root, ".venv/pyvenv.cfg"), "version = 3.11.2\n");
    write(join(site, "raced/__init__.py"), "x = 1\n");
    write(join(site, "raced-1.0.0.dist-info/METADATA"), "Name: raced\nVersion: 1.0.0\n\nThe README.\n");
    write(join(site, "raced-1.0.0.dist-info/RECORD"), "raced/__init__.py,,\nraced-1.0.0.dist-info/METADATA,,\n");
    write(join(root, "host/METADATA"), "Name: raced\nVersion: 1.0.0\n\nHOST SECRET\n");
    const index = new PackageIndex({ projectRoot: root, cacheDir: join(root, "cache"), env: {}, pythonEnvs: [], nodeModules: [] });
    const record = index.scan().packages.find((each) => each.name === "raced")!;
    inTheWindow = afterResolving(() => {
      renameSync(join(site, "raced-1.0.0.dist-info"), join(site, "moved"));
      symlinkSync(join(root, "host"), join(site, "raced-1.0.0.dist-info"));
    });
    const overview = await describePackage(record, 50);
    expect(JSON.stringify(overview)).not.toContain("HOST SECRET");
  });

  it("the overview's entry excerpt is not read from outside", async () => {
    const { record, swap } = racedPackage("lib", { "index.js": "export default 1;\n" });
    inTheWindow = afterResolving(swap);
    const overview = await describePackage(record, 50);
    expect(JSON.stringify(overview)).not.toContain("HOST SECRET");
  });

  it("a package's tree lists nothing of the host directory swapped in after the walk checked it", () => {
    const { record, swap } = racedPackage("lib", { "util.js": "export {};\n" });
    inTheWindow = { when: (check) => check.startsWith("real ") && check.endsWith("/raced/lib"), swap };
    const tree = packageTree(record, 50, "lib");
    expect(tree.total).toBe(0);
  });
  it("a package's tree lists no size of a host file reached through a symlink whose target's directory was swapped after its check", () => {
    const { record, swap } = racedPackage("real", { "index.js": "x".repeat(100) });
    mkdirSync(join(record.root, "lib"), { recursive: true });
    symlinkSync(join(record.root, "real/index.js"), join(record.root, "lib/link.js"));
    inTheWindow = { when: (check) => check.startsWith("real ") && check.endsWith("/lib/link.js"), swap };
    const tree = packageTree(record, 50, "lib");
    expect(tree.files).toEqual([]);
  });
});
