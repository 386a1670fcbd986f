// The fixture nixpkgs (tests/fixtures/nixpkgs: Debian binaries wrapped by the harness' stand-in),
// its search index built by `nixshed index build --nixpkgs`, and the config the end-to-end tests
// serve it with.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CLI } from "../../daemon/test/support/mcp-client.js";

/** The fixture nixpkgs and its search index, built into `dir`. */
export function fixtureNixpkgs(dir: string): { source: string; index: string } {
  const source = fileURLToPath(new URL("../fixtures/nixpkgs", import.meta.url));
  const index = join(dir, "fixture.idx");
  execFileSync(process.execPath, [CLI, "index", "build", "--nixpkgs", source, "--out", index], { stdio: "pipe" });
  return { source, index };
}

/**
 * `dir`/config.toml serving the fixture nixpkgs (indexed into `dir`, no substituters), with
 * `extraToml` appended inside its [nixpkgs] table (more keys, then further tables).
 */
export function fixtureNixpkgsConfig(dir: string, extraToml = ""): { config: string; source: string; index: string } {
  const { source, index } = fixtureNixpkgs(dir);
  const config = join(dir, "config.toml");
  writeFileSync(
    config,
    `[nixpkgs]\nsource = "${source}"\nindex = "${index}"\nnix_options = ["--option", "substituters", ""]\n${extraToml}`,
  );
  return { config, source, index };
}
