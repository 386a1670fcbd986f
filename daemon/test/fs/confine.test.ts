// The confinement table: every trick the issue names (and the two CVEs of the official server),
// each with the intent it would be used with, and what must happen.
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { isInside } from "../../src/files/path-inside.js";
import { Confinement, makeRoot, type Intent } from "../../src/fs/confine.js";

let base: string;
let root: string;
let confinement: Confinement;

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-confine-")));
  root = join(base, "proj");
  mkdirSync(join(root, "sub"), { recursive: true });
  mkdirSync(join(base, "proj-evil"));
  mkdirSync(join(base, "outside", "dir"), { recursive: true });
  writeFileSync(join(root, "file.txt"), "inside\n");
  writeFileSync(join(base, "proj-evil", "secret.txt"), "sibling\n");
  writeFileSync(join(base, "outside", "secret.txt"), "outside\n");
  symlinkSync(join(base, "outside", "secret.txt"), join(root, "link-out-file"));
  symlinkSync(join(base, "outside"), join(root, "link-out-dir"));
  symlinkSync(join(base, "outside", "planted.txt"), join(root, "dangling-out"));
  symlinkSync("../../outside/secret.txt", join(root, "sub", "rel-climb"));
  symlinkSync("file.txt", join(root, "link-in"));
  symlinkSync("sub", join(root, "link-sub"));
  symlinkSync(root, join(base, "proj-link"));
  // The root is served through a symlink: its real path is what counts.
  confinement = new Confinement(await makeRoot(join(base, "proj-link")));
});

type Row = [
  name: string,
  input: () => string,
  intent: Intent,
  expected: { real: () => string; exists?: boolean; isSymlink?: boolean } | RegExp,
];

const rows: Row[] = [
  ["a file in the root", () => "file.txt", "follow", { real: () => join(root, "file.txt"), exists: true }],
  ["the root itself", () => ".", "follow", { real: () => root, exists: true }],
  ["`..` that stays inside", () => "sub/../file.txt", "follow", { real: () => join(root, "file.txt") }],
  ["`..` climbing out", () => "../outside/secret.txt", "follow", /climbs out of the project root/],
  ["`..` climbing out after a detour", () => "sub/../../proj-evil/secret.txt", "entry", /climbs out/],
  ["absolute `..` climbing out", () => join(root, "..", "outside", "secret.txt"), "follow", /outside every served root/],
  ["a sibling dir sharing the root's name prefix", () => join(base, "proj-evil", "secret.txt"), "follow", /outside every served root/],
  ["a sibling dir, for writing", () => join(base, "proj-evil", "new.txt"), "entry", /outside every served root/],
  ["an absolute path elsewhere", () => "/etc/passwd", "follow", /outside every served root/],
  ["a symlink to a file outside, read", () => "link-out-file", "follow", /symlink that leads outside/],
  ["a symlinked dir outside, listed", () => "link-out-dir", "follow", /symlink that leads outside/],
  ["a file under a symlinked dir outside", () => "link-out-dir/secret.txt", "follow", /through a symlink that leads outside/],
  ["a new file under a symlinked parent dir outside", () => "link-out-dir/new.txt", "entry", /through a symlink that leads outside/],
  [
    "a new nested path under a symlinked parent dir outside",
    () => "link-out-dir/a/b/c.txt",
    "entry",
    /through a symlink that leads outside/,
  ],
  ["a dangling symlink whose target is outside, read", () => "dangling-out", "follow", /symlink that leads outside/],
  // As an entry it is the link itself (which write_content then refuses, see write.test.ts).
  [
    "a dangling symlink whose target is outside, as an entry",
    () => "dangling-out",
    "entry",
    { real: () => join(root, "dangling-out"), isSymlink: true },
  ],
  ["a new file under a dangling symlink", () => "dangling-out/x.txt", "entry", /symlink that leads outside/],
  ["a relative symlink climbing out", () => "sub/rel-climb", "follow", /symlink that leads outside/],
  ["a symlink inside the root", () => "link-in", "follow", { real: () => join(root, "file.txt") }],
  ["a symlinked dir inside the root", () => "link-sub/rel-climb", "entry", { real: () => join(root, "sub", "rel-climb"), isSymlink: true }],
  [
    "the root reached through its symlink, absolute",
    () => join(base, "proj-link", "file.txt"),
    "follow",
    { real: () => join(root, "file.txt") },
  ],
  ["the root by its real path, absolute", () => join(root, "sub"), "follow", { real: () => join(root, "sub") }],
  ["a new file", () => "new/dir/file.txt", "entry", { real: () => join(root, "new", "dir", "file.txt"), exists: false }],
  ["a path through a file", () => "file.txt/x", "entry", /is not a directory/],
  ["an empty path", () => "", "follow", /^empty path$/],
  ["a NUL byte", () => "file.txt\0.png", "follow", /NUL byte/],
  ["an overlong path", () => "a/".repeat(2100), "entry", /longer than 4096 bytes/],
  ["an overlong component", () => "x".repeat(256), "entry", /longer than 255 bytes/],
];

describe("confinement", () => {
  it.each(rows)("%s", async (_name, input, intent, expected) => {
    const outcome = confinement.hold(input(), intent, async (held) => held);
    if (expected instanceof RegExp) {
      await expect(outcome).rejects.toThrow(expected);
      return;
    }
    const resolved = await outcome;
    expect(resolved.real).toBe(expected.real());
    if (expected.exists !== undefined) expect(resolved.exists).toBe(expected.exists);
    expect(resolved.isSymlink).toBe(expected.isSymlink ?? false);
  });

  it("compares by whole path components", () => {
    expect(isInside("/a/proj", "/a/proj")).toBe(true);
    expect(isInside("/a/proj/x", "/a/proj")).toBe(true);
    expect(isInside("/a/proj-evil", "/a/proj")).toBe(false);
    expect(isInside("/a/projx/y", "/a/proj")).toBe(false);
    expect(isInside("/anything", "/")).toBe(true);
  });

  it("serves extra and client roots, and forgets client roots when they change", async () => {
    const served = new Confinement(await makeRoot(root), [await makeRoot(join(base, "proj-evil"))]);
    await expect(served.hold(join(base, "proj-evil", "secret.txt"), "follow", async (held) => held)).resolves.toMatchObject({
      exists: true,
    });
    served.setClientRoots([await makeRoot(join(base, "outside"))]);
    await expect(served.hold("link-out-file", "follow", async (held) => held)).resolves.toMatchObject({
      real: join(base, "outside", "secret.txt"),
    });
    served.setClientRoots([]);
    await expect(served.hold("link-out-file", "follow", async (held) => held)).rejects.toThrow(/outside/);
  });

  it("shows paths relative to the project root, others absolute", () => {
    expect(confinement.shown(join(root, "sub", "x"))).toBe("sub/x");
    expect(confinement.shown(root)).toBe(".");
    expect(confinement.shown("/elsewhere/x")).toBe("/elsewhere/x");
  });
});
