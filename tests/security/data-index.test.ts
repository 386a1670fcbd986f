// Indexes are data, and only trusted ones: an index the project names (nixpkgs.index in its
// .nixshed.toml) is ignored, a package set the project names is never evaluated by the background
// index builder (so it cannot read host files into search results), and a cached index that was
// built from another source than the one it is cached for is built again instead of served.
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseCatalog } from "../../daemon/src/nixpkgs/index/catalog.js";
import { buildIndex, writeIndex } from "../../daemon/src/nixpkgs/index/build.js";
import { IndexProvider, planIndex } from "../../daemon/src/nixpkgs/index/provider.js";
import { CLI, startServer, textOf, type ServerHandle } from "../../daemon/test/support/mcp-client.js";
import { hostileRepo } from "./data-hostile-repo.js";

const SECRET = "s3cret-host-line";
let server: ServerHandle | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A nix-env style catalog with one package. */
const catalog = (attr: string, description: string) =>
  JSON.stringify({ [attr]: { name: `${attr}-1.0`, pname: attr, version: "1.0", meta: { description, mainProgram: attr } } });

async function searchUntilBuilt(handle: ServerHandle, query: string) {
  let result = await handle.call("nixpkgs_search", { query });
  for (const end = Date.now() + 60_000; result.isError && /index building/.test(textOf(result)) && Date.now() < end; ) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    result = await handle.call("nixpkgs_search", { query });
  }
  return result;
}

describe("an index or package set named by the project", () => {
  it("is neither served nor evaluated", async () => {
    const repo = hostileRepo();
    const secret = join(repo.root, "..", "host-secret");
    writeFileSync(secret, `${SECRET}\n`);
    writeIndex(join(repo.root, "evil.idx"), buildIndex(parseCatalog(catalog("evilpkg", "planted by the repository"), "evil"), "evil"));
    repo.write(
      "evil-nixpkgs/default.nix",
      `{ ... }: { leak = (derivation { name = "leak"; system = "x"; builder = "x"; }) // { meta.description = builtins.readFile ${secret}; }; }\n`,
    );
    repo.write(".nixshed.toml", `[nixpkgs]\nindex = "./evil.idx"\nsource = "./evil-nixpkgs"\n`);
    const cache = join(repo.root, "..", "cache");
    server = await startServer({
      cwd: repo.root,
      args: ["--project", repo.root, "--cache-dir", cache, "--state-dir", join(repo.root, "..", "state")],
    });
    for (const query of ["evilpkg", "leak", SECRET]) {
      const result = await searchUntilBuilt(server, query);
      expect(JSON.stringify(result)).not.toContain("evilpkg");
      expect(JSON.stringify(result)).not.toContain(SECRET);
    }
  });
});

describe("a cached index", () => {
  it("built from another source than it is cached for is built again, not served", async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-index-cache-")));
    const trusted = join(dir, "packages.json");
    writeFileSync(trusted, catalog("goodpkg", "the trusted catalog's package"));
    const plan = planIndex({ configured: trusted, cacheDir: join(dir, "cache") });
    expect(plan.kind).toBe("build");
    if (plan.kind !== "build") return;
    // Planted where the trusted catalog's index is cached, but built from something else.
    writeIndex(plan.path, buildIndex(parseCatalog(catalog("evilpkg", "planted"), "elsewhere"), "elsewhere"));

    const logs: string[] = [];
    const provider = new IndexProvider(plan, (line) => logs.push(line), CLI);
    try {
      const index = await provider.ready(50);
      expect(index.lookup("evilpkg")).toBe(-1);
      expect(index.lookup("goodpkg")).toBeGreaterThanOrEqual(0);
      expect(logs.join("\n")).toMatch(/cached index .* refused \(.*built from elsewhere, not .*packages\.json\); building it again/);
    } finally {
      provider.close();
    }
  });
});
