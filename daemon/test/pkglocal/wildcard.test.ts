import { describe, expect, it } from "vitest";
import { matchesWildcard } from "../../src/pkglocal/wildcard.js";

describe("matchesWildcard", () => {
  it.each([
    ["*", "", true],
    ["*", "anything", true],
    ["pkg", "pkg", true],
    ["pkg", "pkgs", false],
    ["pkg*", "pkgs", true],
    ["*-utils", "py-utils", true],
    ["*-utils", "py-utilsx", false],
    ["a*b*c", "abc", true],
    ["a*b*c", "a-b-b-c", true],
    ["a*b*c", "a-c-b", false],
    ["ab*ba", "aba", false],
    ["*a*a*", "a", false],
    ["*.*", "a.b", true],
    ["[x]*", "[x]y", true],
  ])("%s on %s: %s", (pattern, text, expected) => {
    expect(matchesWildcard(pattern, text)).toBe(expected);
  });

  it("answers a pattern made to backtrack at once, as a name of forty a's", () => {
    expect(matchesWildcard(`${"*a".repeat(20)}*b`, "a".repeat(40))).toBe(false);
  });
});
