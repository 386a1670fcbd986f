import { mkdtempSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildIndex, writeIndex } from "../../src/nixpkgs/index-build.js";
import { parseCatalog } from "../../src/nixpkgs/catalog.js";
import { INDEX_FORMAT_VERSION } from "../../src/nixpkgs/index-file.js";
import { IndexProvider, planIndex } from "../../src/nixpkgs/index-provider.js";
import { CLI } from "../support/mcp-client.js";
import { NIX_ENV_CATALOG } from "./catalog-fixture.js";

const scratch = () => mkdtempSync(join(tmpdir(), "nixshed-provider-"));

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
  });

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
    expect(planIndex({ configured: catalog, cacheDir: join(dir, "cache") })).toMatchObject({ kind: "build", path: plan.kind === "build" ? plan.path : "" });
    expect(new IndexProvider(plan, () => {}).get().size).toBe(index.size);
  });

  it("reports an index of another format, or a damaged one, with what to do", () => {
    const dir = scratch();
    const good = buildIndex(parseCatalog(JSON.stringify(NIX_ENV_CATALOG), "f"), "f");
    const cases: [string, Buffer, RegExp][] = [
      ["old", Buffer.concat([Buffer.from("NIXSHEDX\x13\x00\x00\x00"), Buffer.from('{"formatVersion":1}')]), /index format 1/],
      ["corrupt", Buffer.concat([Buffer.from("NIXSHEDX\x05\x00\x00\x00"), Buffer.from('{"formatVersion":1}')]), /corrupt/],
      ["truncated", good.subarray(0, 2000), /truncated/],
    ];
    for (const [name, bytes, message] of cases) {
      writeFileSync(join(dir, name), bytes);
      const provider = new IndexProvider(planIndex({ configured: join(dir, name), cacheDir: dir }), () => {});
      expect(() => provider.get()).toThrow(message);
    }
  });

  it("keys the cache of a nixpkgs tree by its store hash, of another tree by its path and time", () => {
    const store = readdirSync("/nix/store").find((name) => /^[a-z0-9]{32}-/.test(name))!;
    const plan = planIndex({ configured: "", nixpkgs: `/nix/store/${store}`, cacheDir: "/tmp/c" });
    expect(plan).toMatchObject({ kind: "build", path: `/tmp/c/nixpkgs-index/${store.slice(0, 32)}.v${INDEX_FORMAT_VERSION}.idx` });
    const tree = scratch();
    const before = planIndex({ configured: "", nixpkgs: tree, cacheDir: "/tmp/c" });
    utimesSync(tree, new Date(), new Date(Date.now() + 5000));
    expect(planIndex({ configured: "", nixpkgs: tree, cacheDir: "/tmp/c" })).not.toEqual(before);
  });
});
