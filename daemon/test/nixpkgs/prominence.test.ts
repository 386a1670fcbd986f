import { describe, expect, it } from "vitest";
import { establishment } from "../../src/nixpkgs/index/prominence.js";
import { catalogEntry } from "./catalog-fixture.js";

const plain = establishment(catalogEntry({}), 1);

describe("how established a package looks", () => {
  it("rises with a site of its own, not with a page on a code host or registry", () => {
    expect(establishment(catalogEntry({ homepage: "https://sometool.example.org/" }), 1)).toBeGreaterThan(plain);
    expect(establishment(catalogEntry({ homepage: "https://someone.github.io/sometool" }), 1)).toBe(plain);
    expect(establishment(catalogEntry({ homepage: "https://pypi.org/project/sometool" }), 1)).toBe(plain);
  });

  it("rises with a 1.0 release and falls for an unreleased snapshot", () => {
    expect(establishment(catalogEntry({ version: "3.1" }), 1)).toBeGreaterThan(plain);
    expect(establishment(catalogEntry({ version: "0-unstable-2025-01-01" }), 1)).toBeLessThan(plain);
  });

  it("prefers a short name of its own to an add-on's name of several parts, and ignores version suffixes", () => {
    expect(establishment(catalogEntry({ attr: "tool" }), 1)).toBeGreaterThan(plain);
    expect(establishment(catalogEntry({ attr: "sometool-lsp-plugin" }), 1)).toBeLessThan(plain);
    expect(establishment(catalogEntry({ attr: "sometool_0_26_0" }), 1)).toBe(plain);
  });

  it("falls for a short expression of one package, and reads no length from a file of many", () => {
    const at = (position: string) => establishment(catalogEntry({ position }), 1);
    expect(at("pkgs/by-name/so/sometool/package.nix:24")).toBeLessThan(at("pkgs/by-name/so/sometool/package.nix:40"));
    expect(at("pkgs/by-name/so/sometool/package.nix:40")).toBeLessThan(plain);
    expect(at("pkgs/tools/misc/sometool/default.nix:180")).toBe(plain);
    expect(at("pkgs/development/haskell-modules/hackage-packages.nix:12")).toBe(plain);
    expect(at("pkgs/by-name/so/sometool/package.nix")).toBe(plain);
  });

  it("rises for a set's member with a long expression, up to a cap, where its set's builder makes lengths comparable", () => {
    const member = (line: number) =>
      establishment(
        catalogEntry({ attr: "python313Packages.somelib", position: `pkgs/development/python-modules/somelib/default.nix:${line}` }),
        1,
      );
    const memberPlain = establishment(catalogEntry({ attr: "python313Packages.somelib" }), 1);
    expect(member(50)).toBe(memberPlain);
    expect(member(100)).toBeGreaterThan(memberPlain);
    expect(member(200)).toBeGreaterThan(member(100));
    expect(member(800)).toBe(member(200));
  });

  it("falls for a package built for Linux alone, not for one that runs on more, nor one that says nothing", () => {
    const on = (platforms: string[] | null) => establishment(catalogEntry({ platforms }), 1);
    expect(on(["x86_64-linux", "aarch64-linux"])).toBeLessThan(plain);
    expect(on(["x86_64-linux", "aarch64-darwin"])).toBe(plain);
    expect(on([])).toBe(plain);
  });
});
