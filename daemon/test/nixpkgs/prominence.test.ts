import { describe, expect, it } from "vitest";
import { catalogYear, establishment } from "../../src/nixpkgs/index/prominence.js";
import { catalogEntry } from "./catalog-fixture.js";

/** The year the catalog was taken. */
const YEAR = 2025;
const plain = establishment(catalogEntry({}), 1, YEAR);

describe("how established a package looks", () => {
  it("rises with a site of its own, not with a page on a code host or registry", () => {
    expect(establishment(catalogEntry({ homepage: "https://sometool.example.org/" }), 1, YEAR)).toBeGreaterThan(plain);
    expect(establishment(catalogEntry({ homepage: "https://someone.github.io/sometool" }), 1, YEAR)).toBe(plain);
    expect(establishment(catalogEntry({ homepage: "https://pypi.org/project/sometool" }), 1, YEAR)).toBe(plain);
  });

  it("rises with a 1.0 release and falls for an unreleased snapshot", () => {
    expect(establishment(catalogEntry({ version: "3.1" }), 1, YEAR)).toBeGreaterThan(plain);
    expect(establishment(catalogEntry({ version: "0-unstable-2025-01-01" }), 1, YEAR)).toBeLessThan(plain);
  });

  it("falls for a version dated two years or more before the catalog, a snapshot's or a dated release's, not a current one", () => {
    const dated = (version: string) => establishment(catalogEntry({ version }), 1, YEAR);
    expect(dated("2020-12-08")).toBeLessThan(dated("2025-08-25"));
    expect(dated("2021.07.28")).toBeLessThan(dated("2024.07.28"));
    expect(dated("0-unstable-2019-01-01")).toBeLessThan(dated("0-unstable-2025-01-01"));
    expect(dated("1.20231015")).toBe(dated("1.2"));
  });

  it("reads the catalog's year from the dates its versions carry, not from one dated in the future", () => {
    const versions = [...Array(150).fill("2025-01-01"), ...Array(50).fill("2019.03.02"), "2099-01-01", "1.2.3"];
    expect(catalogYear(versions)).toBe(2025);
    expect(catalogYear(["1.0", "2.3"])).toBe(0);
  });

  it("prefers a short name of its own to an add-on's name of several parts, and ignores version suffixes", () => {
    expect(establishment(catalogEntry({ attr: "tool" }), 1, YEAR)).toBeGreaterThan(plain);
    expect(establishment(catalogEntry({ attr: "sometool-lsp-plugin" }), 1, YEAR)).toBeLessThan(plain);
    expect(establishment(catalogEntry({ attr: "sometool_0_26_0" }), 1, YEAR)).toBe(plain);
  });

  it("falls for a short expression of one package, and reads no length from a file of many", () => {
    const at = (position: string) => establishment(catalogEntry({ position }), 1, YEAR);
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
        YEAR,
      );
    const memberPlain = establishment(catalogEntry({ attr: "python313Packages.somelib" }), 1, YEAR);
    expect(member(50)).toBe(memberPlain);
    expect(member(100)).toBeGreaterThan(memberPlain);
    expect(member(200)).toBeGreaterThan(member(100));
    expect(member(800)).toBe(member(200));
  });

  it("falls for a package built for Linux alone, not for one that runs on more, nor one that says nothing", () => {
    const on = (platforms: string[] | null) => establishment(catalogEntry({ platforms }), 1, YEAR);
    expect(on(["x86_64-linux", "aarch64-linux"])).toBeLessThan(plain);
    expect(on(["x86_64-linux", "aarch64-darwin"])).toBe(plain);
    expect(on([])).toBe(plain);
  });
});
