import { existsSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { deleteItems, moveItems } from "../../src/fs/manage.js";
import { statItems } from "../../src/fs/stat.js";
import { fixture, never } from "./fixture.js";

describe("move_items", () => {
  it("moves and renames, creating the destination's parents", async () => {
    const f = await fixture({ "a.txt": "a", "dir/b.txt": "b" });
    const outcomes = await moveItems(
      f.confinement,
      [
        { source: "a.txt", destination: "new/place/a.txt" },
        { source: "dir", destination: "renamed" },
      ],
      never,
    );
    expect(outcomes).toEqual([
      { source: "a.txt", destination: "new/place/a.txt" },
      { source: "dir", destination: "renamed" },
    ]);
    expect(readFileSync(join(f.root, "renamed/b.txt"), "utf8")).toBe("b");
  });

  it("refuses to move a directory into itself in one line, naming neither descriptors nor errno", async () => {
    const f = await fixture({ "d1/x.txt": "x" });
    const [outcome] = await moveItems(f.confinement, [{ source: "d1", destination: "d1/inner/d1" }], never);
    expect(outcome!.error).toBe("d1: cannot be moved into itself (d1/inner/d1 is inside it)");
    expect(readFileSync(join(f.root, "d1/x.txt"), "utf8")).toBe("x");
  });

  it("refuses to overwrite, to move what is missing and to move the root", async () => {
    const f = await fixture({ "a.txt": "a", "b.txt": "b" });
    const outcomes = await moveItems(
      f.confinement,
      [
        { source: "a.txt", destination: "b.txt" },
        { source: "nope", destination: "x" },
        { source: ".", destination: "x" },
      ],
      never,
    );
    expect(outcomes.map((outcome) => outcome.error)).toEqual([
      expect.stringMatching(/b\.txt: already exists/),
      expect.stringMatching(/nope: does not exist/),
      expect.stringMatching(/served root and cannot be moved/),
    ]);
    expect(readFileSync(join(f.root, "b.txt"), "utf8")).toBe("b");
  });
});

describe("delete_items", () => {
  it("deletes files, and directories only with recursive", async () => {
    const f = await fixture({ "a.txt": "a", "dir/b.txt": "b" });
    const first = await deleteItems(f.confinement, ["a.txt", "dir"], false, never);
    expect(first).toEqual([
      { path: "a.txt", deleted: true },
      { path: "dir", error: expect.stringMatching(/is a directory/) },
    ]);
    expect(existsSync(join(f.root, "dir/b.txt"))).toBe(true);
    expect(await deleteItems(f.confinement, ["dir"], true, never)).toEqual([{ path: "dir", deleted: true }]);
    expect(existsSync(join(f.root, "dir"))).toBe(false);
  });

  it("never deletes the root", async () => {
    const f = await fixture({ "a.txt": "a" });
    const [outcome] = await deleteItems(f.confinement, ["."], true, never);
    expect(outcome!.error).toMatch(/served root and cannot be deleted/);
    expect(existsSync(join(f.root, "a.txt"))).toBe(true);
  });
});

describe("stat_items", () => {
  it("describes files, directories and symlinks (not followed), each on its own", async () => {
    const f = await fixture({ "a.txt": "12345", "dir/x": "" });
    symlinkSync("a.txt", join(f.root, "link"));
    const items = await statItems(f.confinement, ["a.txt", "dir", "link", "missing", "/etc"], never);
    expect(items[0]).toMatchObject({ path: "a.txt", type: "file", size: 5, mode: "644" });
    expect(items[1]).toMatchObject({ path: "dir", type: "directory" });
    expect(items[2]).toMatchObject({ path: "link", type: "symlink", link_target: "a.txt" });
    expect(items[3]).toEqual({ path: "missing", error: "missing: does not exist" });
    expect(items[4]!.error).toMatch(/outside every served root/);
  });

  it("describes each file a glob given as a path matches, as read_content reads them", async () => {
    const f = await fixture({ "src/a.py": "1", "src/b.py": "22", "src/c.ts": "" });
    const items = await statItems(f.confinement, ["src/*.py"], never);
    expect(items.map(({ path, size }) => [path, size])).toEqual([
      ["src/a.py", 1],
      ["src/b.py", 2],
    ]);
  });
});
