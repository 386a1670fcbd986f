import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildIndex, writeIndex } from "../../src/nixpkgs/index/build.js";
import { parseCatalog } from "../../src/nixpkgs/index/catalog.js";
import { INDEX_FORMAT_VERSION } from "../../src/nixpkgs/index/file.js";
import { IndexProvider, planIndex } from "../../src/nixpkgs/index/provider.js";
import { CLI } from "../support/mcp-client.js";
import { NIX_ENV_CATALOG } from "./catalog-fixture.js";

const scratch = () => mkdtempSync(join(tmpdir(), "nixshed-provider-"));

async function waitFor(condition: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (condition()) return true;
  return condition();
}

/** Whether a process runs (a zombie left to a non-reaping init has stopped). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

describe("where the index comes from", () => {
  it("loads a given index file as it is", () => {
    const dir = scratch();
    writeIndex(join(dir, "index"), buildIndex(parseCatalog(JSON.stringify(NIX_ENV_CATALOG), "f"), "f"));
    expect(planIndex({ configured: join(dir, "index"), cacheDir: dir })).toEqual({ kind: "load", path: join(dir, "index") });
  });

  it("says what to do when there is nothing to index", () => {
    const plan = planIndex({ configured: "", cacheDir: scratch() });
    expect(plan.kind).toBe("none");
    expect(() => new IndexProvider(plan, () => {}).get()).toThrow(/nixpkgs\.index/);
    expect(() => planIndex({ configured: "/no/such/index", cacheDir: scratch() })).toThrow(/does not exist/);
    const directory = scratch();
    expect(() => planIndex({ configured: directory, cacheDir: scratch() })).toThrow(
      `nixpkgs index ${directory} is a directory, not an index file`,
    );
  });

  it("fails once, building no more, when the index it built is not one it reads (its nixshed replaced while it runs)", async () => {
    const dir = scratch();
    const catalog = join(dir, "packages.json");
    writeFileSync(catalog, JSON.stringify(NIX_ENV_CATALOG));
    // A CLI of another nixshed: it writes what this one cannot read, and counts its builds.
    const other = join(dir, "other-cli.js");
    const builds = join(dir, "builds");
    writeFileSync(
      other,
      [
        `const fs = require("node:fs");`,
        `const out = process.argv[process.argv.indexOf("--out") + 1];`,
        `fs.mkdirSync(require("node:path").dirname(out), { recursive: true });`,
        `fs.writeFileSync(out, "an index of another format");`,
        `fs.appendFileSync(${JSON.stringify(builds)}, "x");`,
      ].join("\n"),
    );
    const provider = new IndexProvider(planIndex({ configured: catalog, cacheDir: join(dir, "cache") }), () => {}, other);
    await expect(provider.ready(10)).rejects.toThrow(/not one this nixshed reads/);
    expect(() => provider.get()).toThrow(/not one this nixshed reads/);
    expect(readFileSync(builds, "utf8")).toBe("x");
  }, 20_000);

  it("builds a metadata file in the background, answering 'index building' meanwhile, then caches it", async () => {
    const dir = scratch();
    const catalog = join(dir, "packages.json");
    writeFileSync(catalog, JSON.stringify(NIX_ENV_CATALOG));
    const plan = planIndex({ configured: catalog, cacheDir: join(dir, "cache") });
    expect(plan).toMatchObject({ kind: "build", input: { file: catalog } });
    const provider = new IndexProvider(plan, () => {}, CLI);
    expect(() => provider.get()).toThrow(/index building/);
    const index = await provider.ready(50);
    expect(index.lookup("ripgrep")).toBeGreaterThanOrEqual(0);
    // The second time the cached index is loaded directly.
    expect(planIndex({ configured: catalog, cacheDir: join(dir, "cache") })).toMatchObject({
      kind: "build",
      path: plan.kind === "build" ? plan.path : "",
    });
    expect(new IndexProvider(plan, () => {}).get().size).toBe(index.size);
  });

  it("stops nix-env with a build stopped at shutdown, removing its scratch file", async () => {
    // A stand-in nix-env that never finishes, first saying its pid (written whole, then renamed).
    const dir = scratch();
    const bin = join(dir, "bin");
    mkdirSync(bin);
    mkdirSync(join(dir, "tmp"));
    writeFileSync(join(bin, "nix-env"), `#!/bin/sh\necho $$ > "${dir}/pid.tmp" && mv "${dir}/pid.tmp" "${dir}/pid"\nexec sleep 300\n`);
    chmodSync(join(bin, "nix-env"), 0o755);
    const nixpkgs = join(dir, "nixpkgs");
    mkdirSync(nixpkgs);
    const saved = { PATH: process.env.PATH, TMPDIR: process.env.TMPDIR };
    Object.assign(process.env, { PATH: `${bin}:${saved.PATH}`, TMPDIR: join(dir, "tmp") });
    let pid = 0;
    try {
      const plan = planIndex({ configured: "", nixpkgs, cacheDir: join(dir, "cache") });
      const provider = new IndexProvider(plan, () => {}, CLI);
      expect(() => provider.get()).toThrow(/index building/);
      expect(await waitFor(() => existsSync(join(dir, "pid")), 10_000)).toBe(true);
      pid = Number(readFileSync(join(dir, "pid"), "utf8"));
      expect(running(pid)).toBe(true);
      provider.close();
      expect(await waitFor(() => !running(pid), 5000)).toBe(true);
      await expect(provider.ready(50)).rejects.toMatchObject({
        message: "index build failed (exit 1)",
        hint: expect.stringMatching(/stopped/),
      });
      expect(readdirSync(join(dir, "tmp"))).toEqual([]);
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
      if (pid && running(pid)) process.kill(pid, "SIGKILL");
    }
  });

  it("reports an index of another format, or a damaged one, with what to do", () => {
    const headed = (header: object) => {
      const json = Buffer.from(JSON.stringify(header));
      const length = Buffer.alloc(4);
      length.writeUInt32LE(json.length);
      return Buffer.concat([Buffer.from("NIXSHEDX"), length, json]);
    };
    const dir = scratch();
    const good = buildIndex(parseCatalog(JSON.stringify(NIX_ENV_CATALOG), "f"), "f");
    const cases: [string, Buffer, RegExp][] = [
      ["old", Buffer.concat([Buffer.from("NIXSHEDX\x13\x00\x00\x00"), Buffer.from('{"formatVersion":1}')]), /index format 1/],
      ["corrupt", Buffer.concat([Buffer.from("NIXSHEDX\x05\x00\x00\x00"), Buffer.from('{"formatVersion":1}')]), /corrupt/],
      ["truncated", good.subarray(0, 2000), /truncated/],
      [
        "forged",
        headed({
          formatVersion: INDEX_FORMAT_VERSION,
          packageCount: 1,
          source: "f",
          builtAt: "",
          platforms: [],
          platformSets: [],
          families: [],
          sections: "all",
        }),
        /forged: index header: sections: /,
      ],
    ];
    const openFiles = () => readdirSync("/proc/self/fd").length;
    const before = openFiles();
    for (const [name, bytes, message] of cases) {
      writeFileSync(join(dir, name), bytes);
      const provider = new IndexProvider(planIndex({ configured: join(dir, name), cacheDir: dir }), () => {});
      // Each search asks again; a refused file is not left open.
      for (let call = 0; call < 3; call++) expect(() => provider.get()).toThrow(message);
    }
    expect(openFiles()).toBe(before);
  });

  it("keys the cache of a nixpkgs tree by its store hash, of another tree by its path and time", () => {
    // A store path of its own: a new machine's store may still be empty.
    const file = join(scratch(), "nixpkgs");
    writeFileSync(file, "");
    const store = execFileSync("nix-store", ["--add", file], { encoding: "utf8" }).trim();
    const plan = planIndex({ configured: "", nixpkgs: store, cacheDir: "/tmp/c" });
    const hash = store.slice("/nix/store/".length, "/nix/store/".length + 32);
    expect(plan).toMatchObject({ kind: "build", path: `/tmp/c/nixpkgs-index/${hash}.v${INDEX_FORMAT_VERSION}.idx` });
    const tree = scratch();
    const before = planIndex({ configured: "", nixpkgs: tree, cacheDir: "/tmp/c" });
    utimesSync(tree, new Date(), new Date(Date.now() + 5000));
    expect(planIndex({ configured: "", nixpkgs: tree, cacheDir: "/tmp/c" })).not.toEqual(before);
  });
});
