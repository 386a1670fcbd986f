// The scan cache: kept in the cache dir, never in the project; a warm scan reads nothing again; a
// package added or removed, a lockfile or pyvenv.cfg touched, a new environment: each is seen at once.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PackageIndex } from "../../src/pkglocal/package-index.js";

function nodePackage(nodeModules: string, name: string, version: string): void {
  mkdirSync(join(nodeModules, name), { recursive: true });
  writeFileSync(join(nodeModules, name, "package.json"), JSON.stringify({ name, version }));
}

/** Dates a whole tree a minute back: what was installed before the scan, not during it. */
function age(path: string): void {
  const earlier = new Date(Date.now() - 60_000);
  if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) age(join(path, entry));
  utimesSync(path, earlier, earlier);
}

function setup() {
  const root = mkdtempSync(join(tmpdir(), "pkglocal-project-"));
  const cacheDir = mkdtempSync(join(tmpdir(), "pkglocal-cache-"));
  writeFileSync(join(root, "package-lock.json"), "{}");
  nodePackage(join(root, "node_modules"), "left-pad", "1.3.0");
  nodePackage(join(root, "node_modules"), "@scope/util", "2.0.0");
  age(root);
  const index = () => new PackageIndex({ projectRoot: root, cacheDir, env: {}, pythonEnvs: [], nodeModules: [] });
  return { root, cacheDir, index };
}

const ids = (index: PackageIndex) => {
  const found = index.scan();
  return { cached: found.cached, ids: found.packages.map((pkg) => `${pkg.name}@${pkg.version}`).sort() };
};

/** Moves a path's mtime on, as a later write would: mtimes are the cache's evidence. */
function touch(path: string): void {
  const later = new Date(Date.now() + 5000);
  utimesSync(path, later, later);
}

describe("the scan cache", () => {
  it("lives in the cache dir, survives the process, and leaves the project untouched", () => {
    const { root, cacheDir, index } = setup();
    const before = readdirSync(root).sort();
    expect(ids(index()).cached).toBe(false);
    expect(readdirSync(root).sort()).toEqual(before);
    expect(readdirSync(join(cacheDir, "pkglocal"))).toHaveLength(1);
    // A new process (a new index) starts warm from the file.
    expect(ids(index())).toEqual({ cached: true, ids: ["@scope/util@2.0.0", "left-pad@1.3.0"] });
  });

  it("records what changed just before the scan as racy, and so reads it again next time", () => {
    const { root, index } = setup();
    const shared = index();
    nodePackage(join(root, "node_modules"), "fresh", "1.0.0");
    expect(ids(shared).cached).toBe(false);
    expect(ids(shared).cached).toBe(false);
    age(root);
    expect(ids(shared).cached).toBe(false);
    expect(ids(shared)).toEqual({ cached: true, ids: ["@scope/util@2.0.0", "fresh@1.0.0", "left-pad@1.3.0"] });
  });

  it("sees a package added to node_modules or to a scope", () => {
    const { root, index } = setup();
    const shared = index();
    shared.scan();
    nodePackage(join(root, "node_modules"), "@scope/extra", "0.1.0");
    expect(ids(shared)).toEqual({ cached: false, ids: ["@scope/extra@0.1.0", "@scope/util@2.0.0", "left-pad@1.3.0"] });
    rmSync(join(root, "node_modules/left-pad"), { recursive: true });
    expect(ids(shared).ids).toEqual(["@scope/extra@0.1.0", "@scope/util@2.0.0"]);
  });

  it("rescans when a lockfile changes, even if no directory did", () => {
    const { root, index } = setup();
    const shared = index();
    shared.scan();
    // An in-place edit: no directory mtime moves, but the lockfile says something changed.
    writeFileSync(join(root, "node_modules/left-pad/package.json"), JSON.stringify({ name: "left-pad", version: "1.3.1" }));
    expect(ids(shared).ids).toContain("left-pad@1.3.0");
    touch(join(root, "package-lock.json"));
    expect(ids(shared)).toEqual({ cached: false, ids: ["@scope/util@2.0.0", "left-pad@1.3.1"] });
  });

  it("rescans a venv when pyvenv.cfg or site-packages changes, and sees a new venv appear", () => {
    const { root, index } = setup();
    const shared = index();
    shared.scan();
    const site = join(root, ".venv/lib/python3.11/site-packages");
    mkdirSync(join(site, "six-1.16.0.dist-info"), { recursive: true });
    writeFileSync(join(site, "six-1.16.0.dist-info/METADATA"), "Name: six\nVersion: 1.16.0\n");
    writeFileSync(join(root, ".venv/pyvenv.cfg"), "version = 3.11.2\n");
    expect(ids(shared)).toEqual({ cached: false, ids: ["@scope/util@2.0.0", "left-pad@1.3.0", "six@1.16.0"] });
    age(root);
    shared.scan();
    expect(ids(shared).cached).toBe(true);
    // Rewritten in place: site-packages itself did not change; pyvenv.cfg, rewritten by a reinstall, did.
    writeFileSync(join(site, "six-1.16.0.dist-info/METADATA"), "Name: six\nVersion: 1.17.0\n");
    expect(ids(shared)).toEqual({ cached: true, ids: ["@scope/util@2.0.0", "left-pad@1.3.0", "six@1.16.0"] });
    touch(join(root, ".venv/pyvenv.cfg"));
    expect(ids(shared)).toEqual({ cached: false, ids: ["@scope/util@2.0.0", "left-pad@1.3.0", "six@1.17.0"] });
  });

  it("keys the cache by project", () => {
    const first = setup();
    const second = mkdtempSync(join(tmpdir(), "pkglocal-project-"));
    cpSync(first.root, second, { recursive: true });
    nodePackage(join(second, "node_modules"), "only-here", "1.0.0");
    new PackageIndex({ projectRoot: first.root, cacheDir: first.cacheDir, env: {}, pythonEnvs: [], nodeModules: [] }).scan();
    const other = new PackageIndex({ projectRoot: second, cacheDir: first.cacheDir, env: {}, pythonEnvs: [], nodeModules: [] });
    expect(ids(other).ids).toContain("only-here@1.0.0");
    expect(readdirSync(join(first.cacheDir, "pkglocal"))).toHaveLength(2);
  });
});

describe("a cache file that is not what a scan writes", () => {
  it("is scanned anew, never trusted: a forged package entry does not survive", () => {
    const { index } = setup();
    const first = index();
    first.scan();
    const cache = JSON.parse(readFileSync(first.cacheFile, "utf8"));
    cache.scans[0].packages[0] = { name: "evil", version: 1, language: "node", manager: "npm", root: "/" };
    writeFileSync(first.cacheFile, JSON.stringify(cache));
    const again = index().scan();
    expect(again.cached).toBe(false);
    expect(again.packages.map((pkg) => pkg.name).sort()).toEqual(["@scope/util", "left-pad"]);
  });
});
