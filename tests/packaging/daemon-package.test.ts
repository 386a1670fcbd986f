// The real nix/package/ built by the real nix through the harness stand-in for nixpkgs
// (tests/harness/packaging-pkgs.nix): the npm fixed-output derivation must match its pinned hash,
// the packaged daemon must run from the store with its runtime tools on PATH, and the server of
// server.nix (packages.default's recipe) must serve its own metadata without any configuration:
// the presets, and the index that mkNixpkgsIndex built of its nixpkgs with the packaged daemon.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const repo = new URL("../..", import.meta.url).pathname;

function build(attr: string): string {
  try {
    return execFileSync("nix-build", ["--no-out-link", "--option", "substituters", "", "tests/harness/packaging.nix", "-A", attr], {
      cwd: repo,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    }).trim();
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? "");
    throw new Error(
      `building ${attr} failed:\n${stderr.slice(-3000)}\nIf the npm hash mismatched: nix/package/update-npm-deps-hash.sh --host`,
    );
  }
}

describe("nix/package through the harness", () => {
  it("fetches npm dependencies that match the pinned hash and the committed lockfile", { timeout: 300_000 }, () => {
    const deps = build("npmDeps");
    expect(readFileSync(`${deps}/package-lock.json`, "utf8")).toBe(readFileSync(`${repo}/package-lock.json`, "utf8"));
    expect(JSON.parse(readFileSync(`${deps}/node_modules/typescript/package.json`, "utf8")).name).toBe("typescript");
  });

  it("builds a daemon that runs from the store and keeps only production dependencies", { timeout: 300_000 }, () => {
    const daemon = build("daemon");
    const version = JSON.parse(readFileSync(`${repo}/daemon/package.json`, "utf8")).version;
    expect(execFileSync(`${daemon}/bin/nixshed`, ["--version"], { encoding: "utf8", env: { PATH: "/usr/bin:/bin" } }).trim()).toBe(version);
    expect(execFileSync(`${daemon}/bin/nixshed`, ["config", "--example"], { encoding: "utf8", env: { PATH: "/usr/bin:/bin" } })).toBe(
      readFileSync(`${repo}/config.example.toml`, "utf8"),
    );
    const wrapper = readFileSync(`${daemon}/bin/nixshed`, "utf8");
    expect(wrapper).toMatch(/ripgrep\/bin/);
    // The sh that limits rg's memory is the package's own, not whatever /bin/sh the host has.
    expect(wrapper).toMatch(/-bash\/bin/);
    expect(() => readFileSync(`${daemon}/lib/nixshed/node_modules/typescript/package.json`)).toThrow();
    // nixpkgs' stdenv fails a build whose output holds a dangling symlink (noBrokenSymlinks).
    expect(execFileSync("find", [daemon, "-xtype", "l"], { encoding: "utf8" })).toBe("");
    expect(JSON.parse(readFileSync(`${daemon}/lib/nixshed/node_modules/@modelcontextprotocol/sdk/package.json`, "utf8")).name).toBe(
      "@modelcontextprotocol/sdk",
    );
  });

  it("wraps the daemon with its metadata: the store's server runs code and searches its index unconfigured", {
    timeout: 300_000,
  }, async () => {
    const server = build("server");
    const home = mkdtempSync(join(tmpdir(), "nixshed-server-"));
    const transport = new StdioClientTransport({
      command: `${server}/bin/nixshed`,
      args: ["serve"],
      cwd: home,
      env: { PATH: "/usr/bin:/bin", HOME: home, XDG_CONFIG_HOME: join(home, ".config") },
      stderr: "pipe",
    });
    const client = new Client({ name: "packaging-test", version: "0" });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: "run", arguments: { env: "shell", code: "echo packaged" } });
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as { stdout: string }).stdout).toBe("packaged\n");
      const found = await client.callTool({ name: "nixpkgs_search", arguments: { query: "json processor" } });
      expect(found.isError).toBeFalsy();
      expect((found.structuredContent as { results: { attr: string }[] }).results[0]?.attr).toBe("jq");
    } finally {
      await client.close();
    }
  });
});
