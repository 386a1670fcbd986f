// "Did you mean …" for a name this nixpkgs lacks: close names from the index, and Nix's own.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nixFailure } from "../../src/nixpkgs/errors.js";
import { buildIndex, writeIndex } from "../../src/nixpkgs/index/build.js";
import { parseCatalog } from "../../src/nixpkgs/index/catalog.js";
import { NixpkgsIndex } from "../../src/nixpkgs/index/index.js";
import { closeNames } from "../../src/nixpkgs/search/close-names.js";

/** A Python library of a set, as nix-env names it. */
function member(python: string, name: string, description: string) {
  return { name: `python${python}-${name}-1`, pname: `python${python}-${name}`, version: "1", meta: { description } };
}
const established = { maintainers: [{ github: "a" }, { github: "b" }], homepage: "https://example.org" };
const catalog = {
  ripgrep: { name: "ripgrep-14", pname: "ripgrep", version: "14", meta: { description: "Search", mainProgram: "rg" } },
  jq: { name: "jq-1.8", pname: "jq", version: "1.8", meta: { description: "JSON processor", ...established } },
  jqp: { name: "jqp-0.7", pname: "jqp", version: "0.7", meta: { description: "TUI playground for jq" } },
  jc: { name: "jc-1", pname: "jc", version: "1", meta: { description: "JSONifies commands" } },
  pandoc: { name: "pandoc-3", pname: "pandoc", version: "3", meta: { description: "Document converter" } },
  imagemagick: { name: "imagemagick-7", pname: "imagemagick", version: "7", meta: { description: "Bitmap images" } },
  imagemagickBig: { name: "imagemagick-7", pname: "imagemagick", version: "7", meta: { description: "Bitmap images" } },
  request: { name: "request-1", pname: "request", version: "1", meta: { description: "A top-level request tool" } },
  "python312Packages.requests": member("3.12", "requests", "HTTP"),
  "python313Packages.requests": member("3.13", "requests", "HTTP"),
  "python313Packages.requests-toolbelt": member("3.13", "requests-toolbelt", "Utilities for requests"),
};
const path = join(mkdtempSync(join(tmpdir(), "nixshed-close-")), "index");
writeIndex(path, buildIndex(parseCatalog(JSON.stringify(catalog), "fixture"), "fixture"));
const index = NixpkgsIndex.load(path);

describe("close names from the index", () => {
  it("finds a name a typo or two away: a letter missing, doubled, swapped or wrong", () => {
    expect(closeNames(index, "ripgrp")[0]).toBe("ripgrep");
    expect(closeNames(index, "pandco")).toEqual(["pandoc"]);
    expect(closeNames(index, "jqq")[0]).toBe("jq");
    // One result for a package's builds (imagemagickBig is imagemagick's).
    expect(closeNames(index, "imagemagik")).toEqual(["imagemagick"]);
  });

  it("looks in the set a name is in, and names the member in that set", () => {
    expect(closeNames(index, "python3Packages.requestz")).toEqual(["python3Packages.requests"]);
    expect(closeNames(index, "nosuchPackages.requestz")).toEqual([]);
  });

  it("ranks closer names first, then top-level ones, then the likelier", () => {
    expect(closeNames(index, "requestz")).toEqual(["request", "python313Packages.requests"]);
    expect(closeNames(index, "jqz")).toEqual(["jq", "jqp"]);
  });

  it("allows fewer typos in a short name, and suggests nothing far away", () => {
    expect(closeNames(index, "jk")).toEqual([]);
    expect(closeNames(index, "jcq")).toEqual(["jq", "jc"]);
    expect(closeNames(index, "zzzzzzzz")).toEqual([]);
  });
});

describe("close names among many", () => {
  /** Optimal string alignment distance, the plain way: what closeNames must find, however it prunes. */
  function typos(a: string, b: string): number {
    const d = Array.from({ length: a.length + 1 }, (_, i) =>
      Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
    );
    for (let i = 1; i <= a.length; i++) {
      for (let j = 1; j <= b.length; j++) {
        d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
      }
    }
    return d[a.length]![b.length]!;
  }
  // Names of a few letters and digits, so that many lie within a typo or two of each other.
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const word = (length: number) => Array.from({ length }, () => "abcde12"[Math.floor(next() * 7)]).join("");
  const names = [...new Set(Array.from({ length: 400 }, () => `n${word(3 + Math.floor(next() * 6))}`))];
  const many = join(mkdtempSync(join(tmpdir(), "nixshed-close-many-")), "index");
  writeIndex(
    many,
    buildIndex(
      parseCatalog(JSON.stringify(Object.fromEntries(names.map((name) => [name, { name: `${name}-1`, pname: name, version: "1" }]))), "f"),
      "f",
    ),
  );
  const manyIndex = NixpkgsIndex.load(many);

  it("finds every name within the typos allowed, as comparing each name with the key would", () => {
    for (let i = 0; i < 60; i++) {
      const key = `n${word(3 + Math.floor(next() * 6))}`;
      const allowed = Math.min(2, Math.floor(key.length / 3));
      const expected = names.filter((name) => name !== key && typos(key, name) <= allowed).sort();
      expect(closeNames(manyIndex, key, 1000).sort(), key).toEqual(expected);
    }
  });
});

describe("Nix's own suggestions", () => {
  const trace = (missing: string, suggestion: string) =>
    `error: attribute '${missing}' missing\n\n       at «string»:1:74:\n\n       Did you mean ${suggestion}?`;

  it("make the one line, as attribute paths of the name asked for", () => {
    const one = nixFailure("evaluating ripgrp", "ripgrp", trace("ripgrp", "ripgrep"));
    expect(one).toMatchObject({ kind: "missing", suggestions: ["ripgrep"] });
    expect(one.message).toBe("no package `ripgrp` in this nixpkgs; did you mean ripgrep?");
    const several = nixFailure("evaluating", "python3Packages.requestz", trace("requestz", "one of requests, grequests or requests-mock"));
    expect(several.suggestions).toEqual(["python3Packages.requests", "python3Packages.grequests", "python3Packages.requests-mock"]);
    const set = nixFailure("evaluating", "python3Pakages.requests", trace("python3Pakages", "python3Packages"));
    expect(set.suggestions).toEqual(["python3Packages.requests"]);
  });

  it("leave the hint to search when Nix has none", () => {
    const none = nixFailure("evaluating", "zzz", "error: attribute 'zzz' missing");
    expect(none).toMatchObject({ kind: "missing", suggestions: [], message: "no package `zzz` in this nixpkgs" });
    expect(none.hint).toMatch(/nixpkgs_search/);
  });
});
