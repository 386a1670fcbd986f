// Node packages as npm and pnpm really install them: exact versions (checked against the
// lockfiles the installers wrote), scoped packages, nested versions, pnpm's symlinked store and
// workspace links; yarn and bun told apart by their lockfiles.
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { PackageIndex } from "../../src/pkglocal/package-index.js";
import type { PackageRecord } from "../../src/pkglocal/types.js";
import { npmProject, pnpmProject } from "./fixtures.mjs";

function scan(projectRoot: string) {
  const cacheDir = mkdtempSync(join(tmpdir(), "pkglocal-cache-"));
  return new PackageIndex({ projectRoot, cacheDir, env: {}, pythonEnvs: [], nodeModules: [] }).scan();
}

const ids = (packages: PackageRecord[]) => packages.map((pkg) => `${pkg.name}@${pkg.version}`);

/** A real install, made (once, it takes the registry) and scanned before the tests of a describe block. */
function scanned(make: () => string): { project: string; packages: PackageRecord[] } {
  const fixture = { project: "", packages: [] as PackageRecord[] };
  beforeAll(() => {
    fixture.project = make();
    fixture.packages = scan(fixture.project).packages;
  }, 300_000);
  return fixture;
}

describe("npm node_modules", () => {
  const npm = scanned(npmProject);

  it("lists every installed package at the version package-lock.json records", () => {
    const lock = JSON.parse(readFileSync(join(npm.project, "package-lock.json"), "utf8")) as {
      packages: Record<string, { name?: string; version: string; optional?: boolean; os?: string[] }>;
    };
    const expected = new Set(
      Object.entries(lock.packages)
        .filter(([path, entry]) => path !== "" && !(entry.optional && entry.os && !entry.os.includes(process.platform)))
        .map(([path, entry]) => `${entry.name ?? path.split("node_modules/").pop()}@${entry.version}`),
    );
    expect(expected.size).toBeGreaterThan(250);
    expect(new Set(ids(npm.packages))).toEqual(expected);
  });

  it("finds scoped packages and both versions of a nested dependency, the top-level one first", () => {
    expect(ids(npm.packages)).toContain("@sindresorhus/is@4.6.0");
    const ms = npm.packages.filter((pkg) => pkg.name === "ms");
    expect(ms.map((pkg) => [pkg.version, pkg.root.slice(npm.project.length + 1)])).toEqual([
      ["2.1.3", "node_modules/ms"],
      ["2.0.0", "node_modules/debug/node_modules/ms"],
    ]);
    expect(npm.packages.every((pkg) => pkg.manager === "npm")).toBe(true);
  });

  it("records entry points from package.json", () => {
    const types = npm.packages.find((pkg) => pkg.name === "@types/node")!;
    expect(types.entry?.types).toBe("index.d.ts");
    const express = npm.packages.find((pkg) => pkg.name === "express")!;
    expect(express.entry?.main ?? "index.js").toBeTruthy();
  });
});

describe("pnpm workspace", () => {
  const pnpm = scanned(pnpmProject);

  it("lists every package of pnpm-lock.yaml once, from the symlinked .pnpm store", () => {
    const lock = readFileSync(join(pnpm.project, "pnpm-lock.yaml"), "utf8");
    const section = lock.slice(lock.indexOf("\npackages:"), lock.indexOf("\nsnapshots:"));
    const expected = [...section.matchAll(/^ {2}'?(@?[^@\s']+@[^:'\s]+)'?:$/gm)].map((match) => match[1]!);
    expect(expected).toContain("ms@2.1.2");
    const store = pnpm.packages.filter((pkg) => !pkg.name.startsWith("@fixture/"));
    expect(ids(store).sort()).toEqual(expected.sort());
    expect(store.every((pkg) => pkg.manager === "pnpm")).toBe(true);
  });

  it("reads direct dependencies through their top-level symlinks and finds workspace links", () => {
    const ms = pnpm.packages.find((pkg) => pkg.name === "ms" && pkg.version === "2.1.3")!;
    expect(ms.root).toBe(join(pnpm.project, "node_modules/ms"));
    const lib = pnpm.packages.find((pkg) => pkg.name === "@fixture/lib")!;
    expect(lib.version).toBe("0.3.0");
    expect(lib.root).toBe(join(pnpm.project, "packages/app/node_modules/@fixture/lib"));
  });
});

function nodePackage(nodeModules: string, name: string, version: string): void {
  mkdirSync(join(nodeModules, name), { recursive: true });
  writeFileSync(join(nodeModules, name, "package.json"), JSON.stringify({ name, version }));
}

describe("manager detection", () => {
  function layout(lockfile: string): string {
    const project = mkdtempSync(join(tmpdir(), "pkglocal-layout-"));
    writeFileSync(join(project, lockfile), "");
    mkdirSync(join(project, "node_modules/left-pad"), { recursive: true });
    writeFileSync(join(project, "node_modules/left-pad/package.json"), JSON.stringify({ name: "left-pad", version: "1.3.0" }));
    return project;
  }

  it.each([
    ["yarn.lock", "yarn"],
    ["bun.lock", "bun"],
    ["bun.lockb", "bun"],
    ["package-lock.json", "npm"],
    ["pnpm-lock.yaml", "pnpm"],
  ])("%s means %s", (lockfile, manager) => {
    const found = scan(layout(lockfile));
    expect(found.environments[0]!.manager).toBe(manager);
    expect(ids(found.packages)).toEqual(["left-pad@1.3.0"]);
  });

  it("reads bun's isolated store the way it reads pnpm's", () => {
    const project = layout("bun.lock");
    const store = join(project, "node_modules/.bun");
    const write = (dir: string, name: string, version: string) => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name, version }));
    };
    write(join(store, "@scope+pkg@1.0.0+a1b2c3/node_modules/@scope/pkg"), "@scope/pkg", "1.0.0");
    write(join(store, "unusual-id/node_modules/thing"), "thing", "0.0.1");
    symlinkSync(join(store, "unusual-id/node_modules/thing"), join(store, "@scope+pkg@1.0.0+a1b2c3/node_modules/thing"));
    const found = scan(project);
    expect(ids(found.packages).sort()).toEqual(["@scope/pkg@1.0.0", "left-pad@1.3.0", "thing@0.0.1"]);
    expect(found.packages.every((pkg) => pkg.manager === "bun")).toBe(true);
  });

  it("follows Node resolution up to a workspace root's hoisted node_modules", () => {
    const root = layout("yarn.lock");
    const member = join(root, "packages/web");
    nodePackage(join(member, "node_modules"), "react", "18.3.1");
    const found = scan(member);
    expect(found.environments.map((environment) => [environment.kind, environment.manager])).toEqual([
      ["node_modules", "npm"],
      ["ancestor", "yarn"],
    ]);
    expect(ids(found.packages)).toEqual(["react@18.3.1", "left-pad@1.3.0"]);
  });

  it("expands ** workspace globs, skipping node_modules and dot directories", () => {
    const project = layout("package-lock.json");
    writeFileSync(join(project, "package.json"), JSON.stringify({ workspaces: { packages: ["libs/**"] } }));
    nodePackage(join(project, "libs/ui/buttons/node_modules"), "clsx", "2.1.1");
    nodePackage(join(project, "libs/.hidden/node_modules"), "hidden", "1.0.0");
    const found = scan(project);
    expect(found.environments.map((environment) => environment.packagesDir.slice(project.length + 1))).toEqual([
      "node_modules",
      "libs/ui/buttons/node_modules",
    ]);
  });

  it("finds the node_modules of a package one or two levels down, with no workspace naming it (a front end in web/)", () => {
    const project = mkdtempSync(join(tmpdir(), "pkglocal-subdirs-"));
    for (const dir of ["web", "apps/site", "deep/er/still"]) {
      mkdirSync(join(project, dir), { recursive: true });
      writeFileSync(join(project, dir, "package.json"), "{}");
      nodePackage(join(project, dir, "node_modules"), `in-${dir.split("/")[0]}`, "1.0.0");
    }
    writeFileSync(join(project, "web", "yarn.lock"), "");
    // node_modules with no package.json beside it is no package's.
    nodePackage(join(project, "backend/node_modules"), "stray", "1.0.0");
    const found = scan(project);
    expect(found.environments.map(({ kind, packagesDir, manager }) => [kind, packagesDir.slice(project.length + 1), manager])).toEqual([
      ["subdirectory", "web/node_modules", "yarn"],
      ["subdirectory", "apps/site/node_modules", "npm"],
    ]);
    expect(ids(found.packages)).toEqual(["in-web@1.0.0", "in-apps@1.0.0"]);
  });

  it("finds npm workspace members' own node_modules", () => {
    const project = layout("package-lock.json");
    writeFileSync(join(project, "package.json"), JSON.stringify({ workspaces: ["apps/*"] }));
    mkdirSync(join(project, "apps/web/node_modules/left-pad"), { recursive: true });
    writeFileSync(join(project, "apps/web/node_modules/left-pad/package.json"), JSON.stringify({ name: "left-pad", version: "1.1.0" }));
    const found = scan(project);
    expect(found.environments.map((environment) => environment.kind)).toEqual(["node_modules", "workspace"]);
    expect(ids(found.packages)).toEqual(["left-pad@1.3.0", "left-pad@1.1.0"]);
  });
});
