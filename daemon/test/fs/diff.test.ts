import { describe, expect, it } from "vitest";
import { unifiedDiff } from "../../src/fs/diff.js";

const numbered = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}`);

describe("unifiedDiff", () => {
  it("gives separate hunks with three lines of context for distant changes", () => {
    const before = numbered(30);
    const after = [...before];
    after[4] = "line five";
    after.splice(19, 1);
    expect(unifiedDiff(`${before.join("\n")}\n`, `${after.join("\n")}\n`, "f")).toBe(
      [
        "--- a/f",
        "+++ b/f",
        "@@ -2,7 +2,7 @@",
        " line 2",
        " line 3",
        " line 4",
        "-line 5",
        "+line five",
        " line 6",
        " line 7",
        " line 8",
        "@@ -17,7 +17,6 @@",
        " line 17",
        " line 18",
        " line 19",
        "-line 20",
        " line 21",
        " line 22",
        " line 23",
        "",
      ].join("\n"),
    );
  });

  it("merges changes whose context overlaps into one hunk", () => {
    const before = numbered(20);
    const after = [...before];
    after[5] = "six";
    after[9] = "ten";
    const diff = unifiedDiff(`${before.join("\n")}\n`, `${after.join("\n")}\n`, "f");
    expect(diff.match(/^@@/gm)).toHaveLength(1);
    expect(diff).toContain("@@ -3,11 +3,11 @@");
  });

  it("handles creation, deletion and no change", () => {
    expect(unifiedDiff("", "a\nb\n", "n")).toBe("--- a/n\n+++ b/n\n@@ -0,0 +1,2 @@\n+a\n+b\n");
    expect(unifiedDiff("a\n", "", "n")).toBe("--- a/n\n+++ b/n\n@@ -1,1 +0,0 @@\n-a\n");
    expect(unifiedDiff("same\n", "same\n", "n")).toBe("");
  });

  it("stays within memory on a total rewrite of a large file", () => {
    const before = numbered(20_000).join("\n");
    const after = numbered(20_000)
      .map((line) => `${line}!`)
      .join("\n");
    const diff = unifiedDiff(before, after, "big");
    expect(diff.split("\n").filter((line) => line.startsWith("-line")).length).toBe(20_000);
  });
});
