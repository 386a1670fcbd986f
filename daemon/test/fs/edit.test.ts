import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { editFile } from "../../src/fs/edit.js";
import { fixture } from "./fixture.js";

const source = "function a() {\n  return 1;\n}\n\nfunction b() {\n  return 1;\n}\n";

describe("edit_file", () => {
  it("refuses replace_all growth past the limit before making it, edit after edit", async () => {
    const f = await fixture({ "a.txt": "a".repeat(1 << 16) });
    const grow = Array.from({ length: 8 }, () => ({ old_text: "a", new_text: "aaaa", replace_all: true }));
    await expect(editFile(f.confinement, "a.txt", grow, true, 1 << 20)).rejects.toThrow(/over the 1048576-byte limit/);
  });

  it("replaces text that occurs once and returns a unified diff", async () => {
    const f = await fixture({ "m.js": source });
    const result = await editFile(
      f.confinement,
      "m.js",
      [{ old_text: "function b() {\n  return 1;", new_text: "function b() {\n  return 2;" }],
      false,
      1 << 20,
    );
    expect(result.diff).toBe("--- a/m.js\n+++ b/m.js\n@@ -3,5 +3,5 @@\n }\n \n function b() {\n-  return 1;\n+  return 2;\n }\n");
    expect(readFileSync(join(f.root, "m.js"), "utf8")).toBe(source.replace("b() {\n  return 1;", "b() {\n  return 2;"));
  });

  it("refuses text that occurs several times, saying where, and writes nothing", async () => {
    const f = await fixture({ "m.js": source });
    await expect(editFile(f.confinement, "m.js", [{ old_text: "return 1;", new_text: "return 3;" }], false, 1 << 20)).rejects.toThrow(
      "edits[0].old_text matches 2 times (lines 2, 6)",
    );
    expect(readFileSync(join(f.root, "m.js"), "utf8")).toBe(source);
  });

  it("refuses text whose second occurrence overlaps the first, as ambiguous as any other", async () => {
    const f = await fixture({ "end.js": "  }\n}\n}\n" });
    await expect(editFile(f.confinement, "end.js", [{ old_text: "}\n}\n", new_text: "}\n// end\n" }], false, 1 << 20)).rejects.toThrow(
      "edits[0].old_text matches 2 times (lines 1, 2)",
    );
    // replace_all replaces what does not overlap, as split and join do.
    await editFile(f.confinement, "end.js", [{ old_text: "}\n}\n", new_text: "}\n// end\n", replace_all: true }], false, 1 << 20);
    expect(readFileSync(join(f.root, "end.js"), "utf8")).toBe("  }\n// end\n}\n");
  });

  it("shows the closest lines when the text is not found", async () => {
    const f = await fixture({ "m.js": source });
    const failure = editFile(f.confinement, "m.js", [{ old_text: "function b() {\n    return 1;", new_text: "x" }], false, 1 << 20);
    await expect(failure).rejects.toThrow(/not found\. The closest lines are:\n5: function b\(\) \{\n6: {3}return 1;/);
  });

  it("applies all edits or none", async () => {
    const f = await fixture({ "m.js": source });
    const edits = [
      { old_text: "function a", new_text: "function alpha" },
      { old_text: "no such text", new_text: "" },
    ];
    await expect(editFile(f.confinement, "m.js", edits, false, 1 << 20)).rejects.toThrow(/edits\[1\]/);
    expect(readFileSync(join(f.root, "m.js"), "utf8")).toBe(source);
  });

  it("dry_run shows the diff without writing", async () => {
    const f = await fixture({ "m.js": source });
    const result = await editFile(f.confinement, "m.js", [{ old_text: "function a", new_text: "function alpha" }], true, 1 << 20);
    expect(result.diff).toContain("+function alpha() {");
    expect(readFileSync(join(f.root, "m.js"), "utf8")).toBe(source);
  });

  it("matches LF text in a CRLF file and keeps CRLF", async () => {
    const f = await fixture({ "w.txt": "one\r\ntwo\r\nthree\r\n" });
    await editFile(f.confinement, "w.txt", [{ old_text: "one\ntwo", new_text: "uno\ndos" }], false, 1 << 20);
    expect(readFileSync(join(f.root, "w.txt"), "utf8")).toBe("uno\r\ndos\r\nthree\r\n");
    // One line replaced by several: the new lines end as the file's do.
    await editFile(f.confinement, "w.txt", [{ old_text: "three", new_text: "THREE\nfour" }], false, 1 << 20);
    expect(readFileSync(join(f.root, "w.txt"), "utf8")).toBe("uno\r\ndos\r\nTHREE\r\nfour\r\n");
  });

  it("names each line of several matches once", async () => {
    const f = await fixture({ "x.txt": "a a\nb\na a\n" });
    await expect(editFile(f.confinement, "x.txt", [{ old_text: "a", new_text: "z" }], false, 1 << 20)).rejects.toThrow(
      /matches 4 times \(lines 1, 3\)/,
    );
  });

  it("refuses edits that would grow the file past max_write_bytes, and writes nothing", async () => {
    const f = await fixture({ "m.js": source });
    const edits = [{ old_text: "function a", new_text: `function ${"a".repeat(2000)}` }];
    await expect(editFile(f.confinement, "m.js", edits, false, 1024)).rejects.toThrow(
      /^m\.js: 2\d{3} bytes, over the 1024-byte limit \(fs\.max_write_bytes\)$/,
    );
    expect(readFileSync(join(f.root, "m.js"), "utf8")).toBe(source);
  });

  it("refuses missing and binary files", async () => {
    const f = await fixture({ "b.bin": Buffer.from([0, 1, 2]) });
    await expect(editFile(f.confinement, "nope.txt", [{ old_text: "a", new_text: "b" }], false, 1 << 20)).rejects.toThrow(/no such file/);
    await expect(editFile(f.confinement, "b.bin", [{ old_text: "a", new_text: "b" }], false, 1 << 20)).rejects.toThrow(/binary/);
  });

  it("refuses a file of another encoding than UTF-8, whose other bytes a rewrite would change", async () => {
    const latin1 = Buffer.from("caf\xe9 latin1\nsecond\n", "latin1");
    const f = await fixture({ "l1.txt": latin1 });
    await expect(editFile(f.confinement, "l1.txt", [{ old_text: "second", new_text: "SECOND" }], false, 1 << 20)).rejects.toThrow(
      /^l1\.txt: is not UTF-8 text/,
    );
    expect(readFileSync(join(f.root, "l1.txt"))).toEqual(latin1);
  });
});
