import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildIndex, writeIndex } from "../../src/nixpkgs/index-build.js";
import { parseCatalog } from "../../src/nixpkgs/catalog.js";
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

  it("keys the cache of a nixpkgs tree by its store hash", () => {
    const plan = planIndex({ configured: "", nixpkgs: "/nix/store", cacheDir: "/tmp/c" });
    expect(plan.kind).toBe("build");
  });
});
