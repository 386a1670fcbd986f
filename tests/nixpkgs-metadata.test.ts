// The pinned path a user's flake takes: lib.mkNixpkgsIndex evaluates the (fixture) nixpkgs inside a
// Nix build, lib.mkMetadata pins that nixpkgs and carries the index, and the daemon serves search
// and execution from the metadata alone. Without any index: built in the background on first need,
// "index building" meanwhile. And a flake reference as the nixpkgs to realise from.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, startServer, textOf, type ServerHandle } from "../daemon/test/support/mcp-client.js";
import { harnessMountsFlag } from "./harness/extra-mounts.js";

const REPO = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
const NIX = ["--extra-experimental-features", "nix-command flakes", "--option", "substituters", ""];
const NO_SUBSTITUTERS = `nixpkgs.nix_options=["--option", "substituters", ""]`;

let server: ServerHandle | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const dirs = () => {
  const scratch = mkdtempSync(join(tmpdir(), "nixshed-pinned-"));
  return ["--state-dir", join(scratch, "state"), "--cache-dir", join(scratch, "cache"), "--project", scratch];
};

describe("a metadata path with the pinned nixpkgs and its prebuilt index", () => {
  it("serves search and execution from the metadata alone", async () => {
    const built = execFileSync(
      "nix",
      [
        ...NIX,
        "build",
        "--impure",
        "--no-link",
        "--json",
        "--expr",
        `import ${REPO}/tests/fixtures/nixpkgs-metadata.nix { repo = ${REPO}; }`,
      ],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
    const metadata = (JSON.parse(built) as { outputs: { out: string } }[])[0]!.outputs.out;
    const own = dirs();
    server = await startServer({
      args: ["--metadata", metadata, "--set", NO_SUBSTITUTERS, ...harnessMountsFlag(), "--set", "nixpkgs.common_tools=off", ...own],
    });
    const search = await server.call("nixpkgs_search", { query: "json processor" });
    expect(search.isError, textOf(search)).toBeFalsy();
    expect((search.structuredContent as { results: { attr: string }[] }).results[0]!.attr).toBe("jq");
    // More results than a page holds asks for a full page, not an error.
    const many = await server.call("nixpkgs_search", { query: "json processor", limit: 500 });
    expect(many.isError, textOf(many)).toBeFalsy();
    // jq was realised ahead by the metadata: it runs without realising anything (no cache entry).
    const ahead = await server.call("nixpkgs_execute", { package: "jq", args: ["-n", "1+1"] });
    expect(ahead.structuredContent, textOf(ahead)).toMatchObject({ stdout: "2\n" });
    expect(existsSync(join(own[3]!, "nixpkgs-tools"))).toBe(false);
    // doctor says which packages are realised ahead, and whether they are used as they are here (the jail's mounts are part of a package's artifact).
    const doctor = (flags: string[]) =>
      JSON.parse(
        spawnSync(process.execPath, [CLI, "doctor", "--json", "--metadata", metadata, ...flags, ...own], { encoding: "utf8" }).stdout,
      ).checks;
    expect(doctor(harnessMountsFlag())).toContainEqual({ name: "nixpkgs realised ahead", ok: true, detail: "jq" });
    expect(doctor([])).toContainEqual({
      name: "nixpkgs realised ahead",
      ok: true,
      detail: "jq (for another nixpkgs, permissions or mounts: realised again on first use)",
    });
    expect(doctor(harnessMountsFlag())).toContainEqual({ name: "nixpkgs realised in the cache", ok: true, detail: "none" });
    const run = await server.call("nixpkgs_execute", { package: "ripgrep", args: ["-c", "a"], stdin: "a\nb\na\n" });
    expect(run.isError, textOf(run)).toBeFalsy();
    expect(run.structuredContent).toMatchObject({ program: "rg", stdout: "2\n" });
  });
});

describe("no prebuilt index", () => {
  it("builds one from the configured nixpkgs in the background, answering 'index building' meanwhile", async () => {
    server = await startServer({
      args: ["--set", `nixpkgs.source=${REPO}/tests/fixtures/nixpkgs`, "--set", "nixpkgs.common_tools=off", ...dirs()],
    });
    const first = await server.call("nixpkgs_search", { query: "rg" });
    expect(first.isError).toBe(true);
    expect(textOf(first)).toMatch(/index building \(\d+ s so far\)/);
    let answer = first;
    for (const end = Date.now() + 60_000; answer.isError && Date.now() < end; await new Promise((r) => setTimeout(r, 200))) {
      answer = await server.call("nixpkgs_search", { query: "rg" });
    }
    expect(answer.isError, textOf(answer)).toBeFalsy();
    expect((answer.structuredContent as { results: { attr: string }[] }).results[0]!.attr).toBe("ripgrep");
  });
});

describe("a flake reference as nixpkgs.source", () => {
  it("realises packages from the flake's legacyPackages", async () => {
    const flake = mkdtempSync(join(tmpdir(), "nixshed-flake-"));
    writeFileSync(
      join(flake, "flake.nix"),
      `{ outputs = _: { legacyPackages.\${builtins.currentSystem} = import ${REPO}/tests/fixtures/nixpkgs { }; }; }`,
    );
    server = await startServer({
      args: [
        "--set",
        `nixpkgs.source=path:${flake}`,
        "--set",
        NO_SUBSTITUTERS,
        ...harnessMountsFlag(),
        "--set",
        "nixpkgs.common_tools=off",
        ...dirs(),
      ],
    });
    const run = await server.call("nixpkgs_execute", { package: "jq", args: ["-n", "1+1"] });
    expect(run.isError, textOf(run)).toBeFalsy();
    expect(run.structuredContent).toMatchObject({ stdout: "2\n" });
    // Nothing to index a flake ref from without evaluating it: no index, so no nixpkgs_search.
    expect((await server.client.listTools()).tools.map((tool) => tool.name)).not.toContain("nixpkgs_search");
  });
});
