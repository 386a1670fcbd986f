// Python distributions in a real venv (python3 -m venv, pip in it) plus hand-made ones for what
// PyPI would bring: versions must equal what the venv's own importlib.metadata reports; import
// names come from RECORD/top_level.txt; editable installs point at their source.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { PackageIndex } from "../../src/pkglocal/package-index.js";
import { scanSitePackages } from "../../src/pkglocal/python/scan.js";
import type { PackageRecord } from "../../src/pkglocal/types.js";
import { pythonTruth, venvProject } from "./fixtures.mjs";

let project: string;
let packages: PackageRecord[];
const byName = (name: string) => packages.find((pkg) => pkg.name === name)!;

beforeAll(() => {
  project = venvProject();
  const cacheDir = mkdtempSync(join(tmpdir(), "pkglocal-cache-"));
  packages = new PackageIndex({ projectRoot: project, cacheDir, env: {}, pythonEnvs: [], nodeModules: [] }).scan().packages;
}, 300_000);

describe("a venv", () => {
  it("lists exactly the distributions importlib.metadata sees, at its versions", () => {
    const truth = pythonTruth(project) as Record<string, string>;
    expect(Object.keys(truth)).toContain("pip");
    expect(Object.fromEntries(packages.map((pkg) => [pkg.name, pkg.version]))).toEqual(truth);
  });

  it("takes import names from RECORD: Pillow is PIL, an extension module by its name", () => {
    expect(byName("Pillow").importNames).toEqual(["PIL"]);
    expect(byName("fastthing").importNames).toEqual(["fastthing"]);
    expect(byName("pip").importNames).toEqual(["pip"]);
  });

  it("agrees with importlib's packages_distributions for regular packages", () => {
    const script = "import importlib.metadata as m, json; print(json.dumps(m.packages_distributions()))";
    const truth = JSON.parse(execFileSync(join(project, ".venv/bin/python"), ["-c", script], { encoding: "utf8" })) as Record<
      string,
      string[]
    >;
    for (const name of ["PIL", "pip", "setuptools", "pkg_resources", "oldpkg"]) {
      const owner = packages.find((pkg) => pkg.importNames?.includes(name));
      expect(owner?.name, name).toBe(truth[name]![0]);
    }
  });

  it("names each half of a namespace package by its subpackage", () => {
    expect(byName("protobuf").importNames).toEqual(["google.protobuf"]);
    expect(byName("googleapis-common-protos").importNames).toEqual(["google.api"]);
    // Each owns only its half: the shared google/ directory belongs to neither.
    expect(byName("protobuf").members).toEqual(["google/protobuf", "protobuf-4.25.1.dist-info"]);
    expect(byName("googleapis-common-protos").members).toEqual(["google/api", "googleapis_common_protos-1.62.0.dist-info"]);
  });

  it("reads an editable install where setuptools' finder maps it", () => {
    const mylib = byName("mylib");
    expect(mylib.editable).toBe(project);
    expect(mylib.root).toBe(join(project, "src"));
    expect(mylib.members).toEqual(["mylib"]);
    expect(mylib.importNames).toEqual(["mylib"]);
  });

  it("reads a path .pth editable install from the directory it puts on sys.path", () => {
    const toolkit = byName("toolkit");
    expect(toolkit.root).toBe(join(project, "tools/src"));
    expect(toolkit.members).toEqual(["toolkit"]);
    expect(toolkit.importNames).toEqual(["toolkit"]);
  });

  it("points editable installs where Python itself imports them from", () => {
    for (const name of ["mylib", "toolkit"]) {
      const origin = execFileSync(join(project, ".venv/bin/python"), ["-c", `import ${name}; print(${name}.__file__)`], {
        encoding: "utf8",
      }).trim();
      expect(origin.startsWith(`${byName(name).root}/`), origin).toBe(true);
    }
  });

  it("lists a distribution that has both a dist-info and an egg-info once, from the dist-info", () => {
    const site = mkdtempSync(join(tmpdir(), "pkglocal-site-"));
    for (const dir of ["cryptography-38.0.4.dist-info", "cryptography.egg-info"]) {
      mkdirSync(join(site, dir));
      writeFileSync(join(site, dir, dir.endsWith("dist-info") ? "METADATA" : "PKG-INFO"), "Name: cryptography\nVersion: 38.0.4\n");
    }
    const found = scanSitePackages(site, "pip");
    expect(found.map((pkg) => [pkg.name, pkg.members])).toEqual([["cryptography", ["cryptography-38.0.4.dist-info"]]]);
  });

  it("reads an egg-info's installed files", () => {
    const old = byName("oldpkg");
    expect(old.version).toBe("0.9");
    expect(old.members).toEqual(expect.arrayContaining(["oldpkg", "oldpkg-0.9-py3.11.egg-info"]));
  });
});
