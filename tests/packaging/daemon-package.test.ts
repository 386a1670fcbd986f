// The real nix/package/ built by the real nix through the harness stand-in for nixpkgs
// (tests/harness/packaging-pkgs.nix): the npm fixed-output derivation must match its pinned hash,
// and the packaged daemon must run from the store with its runtime tools on PATH.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const repo = new URL("../..", import.meta.url).pathname;

function build(attr: string): string {
  try {
    const select = attr ? ["-A", attr] : [];
    return execFileSync("nix-build", ["--no-out-link", "--option", "substituters", "", "tests/harness/packaging.nix", ...select], {
      cwd: repo,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    }).trim();
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? "");
    throw new Error(`building ${attr || "the daemon"} failed:\n${stderr.slice(-3000)}\n` +
      "If the npm hash mismatched: nix/package/update-npm-deps-hash.sh --host");
  }
}

describe("nix/package through the harness", () => {
  it("fetches npm dependencies that match the pinned hash and the committed lockfile", { timeout: 300_000 }, () => {
    const deps = build("npmDeps");
    expect(readFileSync(`${deps}/package-lock.json`, "utf8")).toBe(readFileSync(`${repo}/package-lock.json`, "utf8"));
    expect(JSON.parse(readFileSync(`${deps}/node_modules/typescript/package.json`, "utf8")).name).toBe("typescript");
  });

  it("builds a daemon that runs from the store and keeps only production dependencies", { timeout: 300_000 }, () => {
    const daemon = build("");
    const version = JSON.parse(readFileSync(`${repo}/daemon/package.json`, "utf8")).version;
    expect(execFileSync(`${daemon}/bin/nixshed`, ["--version"], { encoding: "utf8", env: { PATH: "/usr/bin:/bin" } }).trim()).toBe(version);
    const wrapper = readFileSync(`${daemon}/bin/nixshed`, "utf8");
    expect(wrapper).toMatch(/ripgrep\/bin/);
    expect(() => readFileSync(`${daemon}/lib/nixshed/node_modules/typescript/package.json`)).toThrow();
    expect(JSON.parse(readFileSync(`${daemon}/lib/nixshed/node_modules/@modelcontextprotocol/sdk/package.json`, "utf8")).name).toBe(
      "@modelcontextprotocol/sdk",
    );
  });
});
