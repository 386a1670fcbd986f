// The confinement cases again, end to end through the tool cores: nothing outside is read,
// listed, searched or written, and a refused write leaves no trace.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { editFile } from "../../src/fs/edit.js";
import { listFiles } from "../../src/fs/list.js";
import { deleteItems, moveItems } from "../../src/fs/manage.js";
import { readContent } from "../../src/fs/read.js";
import { searchFiles } from "../../src/fs/search.js";
import { createDirectories, writeContent } from "../../src/fs/write.js";
import { fixture, never, type Fixture } from "./fixture.js";

let f: Fixture;
let outside: string;

beforeAll(async () => {
  f = await fixture({ "inside.txt": "SECRET? no, inside\n" });
  outside = join(f.base, "outside");
  mkdirSync(outside);
  writeFileSync(join(outside, "secret.txt"), "SECRET outside\n");
  mkdirSync(join(f.base, "root-evil"));
  writeFileSync(join(f.base, "root-evil", "secret.txt"), "SECRET sibling\n");
  symlinkSync(join(outside, "secret.txt"), join(f.root, "link-file"));
  symlinkSync(outside, join(f.root, "link-dir"));
  symlinkSync(join(outside, "planted.txt"), join(f.root, "dangling"));
  symlinkSync("../outside/secret.txt", join(f.root, "rel-climb"));
});

describe("no tool escapes", () => {
  it("read_content refuses every way out, per item", async () => {
    const paths = [
      "link-file",
      "link-dir/secret.txt",
      "rel-climb",
      "../outside/secret.txt",
      join(f.base, "root-evil", "secret.txt"),
      "dangling",
    ];
    const items = await readContent(f.confinement, { paths }, 1 << 20, never);
    for (const item of items) {
      expect(item.error, item.path).toBeDefined();
      expect(item.content).toBeUndefined();
    }
  });

  it("list_files and search_files neither enter nor follow outward symlinks", async () => {
    await expect(listFiles(f.confinement, { path: "link-dir" }, { entries: 100, bytes: Number.POSITIVE_INFINITY }, never)).rejects.toThrow(
      /outside/,
    );
    const tree = await listFiles(
      f.confinement,
      { recursive: true, includeIgnored: true },
      { entries: 100, bytes: Number.POSITIVE_INFINITY },
      never,
    );
    expect(tree.entries.map((entry) => entry.path)).toEqual(["inside.txt"]);
    const found = await searchFiles(f.confinement, { pattern: "SECRET", maxResults: 10 }, never);
    expect(found.files.map((file) => file.path)).toEqual(["inside.txt"]);
    await expect(searchFiles(f.confinement, { pattern: "SECRET", path: "link-dir", maxResults: 10 }, never)).rejects.toThrow(/outside/);
  });

  it("write_content does not write through a dangling symlink, a symlinked dir or a symlink to a file", async () => {
    const items = await writeContent(
      f.confinement,
      ["dangling", "link-dir/planted.txt", "link-file", "link-dir/deep/er.txt"].map((path) => ({ path, content: "pwned" })),
      1 << 20,
      never,
    );
    for (const item of items) expect(item.error, item.path).toBeDefined();
    expect(existsSync(join(outside, "planted.txt"))).toBe(false);
    expect(existsSync(join(outside, "deep"))).toBe(false);
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("SECRET outside\n");
  });

  it("edit_file, create_directories, move_items and delete_items stay inside", async () => {
    await expect(editFile(f.confinement, "link-file", [{ old_text: "SECRET", new_text: "x" }], false, 1 << 20)).rejects.toThrow(/symlink/);
    expect((await createDirectories(f.confinement, ["link-dir/made"]))[0]!.error).toBeDefined();
    expect(existsSync(join(outside, "made"))).toBe(false);
    const moved = await moveItems(f.confinement, [{ source: "inside.txt", destination: "link-dir/stolen.txt" }], never);
    expect(moved[0]!.error).toBeDefined();
    expect(existsSync(join(outside, "stolen.txt"))).toBe(false);
    // Deleting a symlink removes the link, never its target.
    const deleted = await deleteItems(f.confinement, ["link-file", "link-dir/secret.txt"], false, never);
    expect(deleted.map((item) => item.error === undefined)).toEqual([true, false]);
    expect(existsSync(join(outside, "secret.txt"))).toBe(true);
  });
});
