// Building an index from a catalog file says what the catalog cannot tell: a channel's packages.json
// has no licences, so unfree packages show as free, which the user should hear once, at build time.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildIndexFrom } from "../../src/nixpkgs/index/source.js";
import { CHANNEL_CATALOG, NIX_ENV_CATALOG } from "./catalog-fixture.js";

const built = async (catalog: unknown) => {
  const dir = mkdtempSync(join(tmpdir(), "nixshed-source-"));
  writeFileSync(join(dir, "packages.json"), JSON.stringify(catalog));
  const said: string[] = [];
  await buildIndexFrom({ file: join(dir, "packages.json") }, join(dir, "index"), (message) => said.push(message));
  return said;
};

describe("building an index from a catalog file", () => {
  it("warns when the catalog has no licence data, and not when it has", async () => {
    expect(await built(CHANNEL_CATALOG)).toContainEqual(
      expect.stringMatching(/^warning: .* has no licence data .*unfree packages will be shown as free$/),
    );
    expect((await built(NIX_ENV_CATALOG)).filter((message) => message.startsWith("warning"))).toEqual([]);
  });
});
