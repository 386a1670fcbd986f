import { execFileSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  linkSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Confinement, makeRoot } from "../../src/fs/confine.js";
import { createDirectories, writeContent } from "../../src/fs/write.js";
import { fixture, never } from "./fixture.js";

describe("write_content", () => {
  it("creates files with their parent directories", async () => {
    const f = await fixture();
    const [outcome] = await writeContent(f.confinement, [{ path: "a/b/c.txt", content: "hi\n" }], 1024, never);
    expect(outcome).toEqual({ path: "a/b/c.txt", bytes: 3, created: true });
    expect(readFileSync(join(f.root, "a/b/c.txt"), "utf8")).toBe("hi\n");
  });

  it("replaces atomically, keeps the mode and leaves no temp file behind", async () => {
    const f = await fixture();
    const path = f.write("run.sh", "old\n");
    chmodSync(path, 0o751);
    const inodeBefore = statSync(path).ino;
    const [outcome] = await writeContent(f.confinement, [{ path: "run.sh", content: "#!/bin/sh\nnew\n" }], 1024, never);
    expect(outcome!.created).toBe(false);
    expect(readFileSync(path, "utf8")).toBe("#!/bin/sh\nnew\n");
    expect(statSync(path).mode & 0o7777).toBe(0o751);
    // A new inode means a rename, not an in-place rewrite that a reader could see half done.
    expect(statSync(path).ino).not.toBe(inodeBefore);
    expect(readdirSync(f.root)).toEqual(["run.sh"]);
  });

  it("drops a set-user-ID or set-group-ID bit of a file it replaces, as the kernel does on a write by anyone but root", async () => {
    const f = await fixture();
    const path = f.write("tool", "old\n");
    chmodSync(path, 0o6755);
    await writeContent(f.confinement, [{ path: "tool", content: "new\n" }], 1024, never);
    expect(statSync(path).mode & 0o7777).toBe(0o755);
  });

  it("keeps the owner of a file it replaces (when running as root)", async () => {
    const f = await fixture();
    const path = f.write("theirs.txt", "old\n");
    if (process.getuid?.() === 0) chownSync(path, 4242, 4343);
    const before = statSync(path);
    await writeContent(f.confinement, [{ path: "theirs.txt", content: "new\n" }], 1024, never);
    expect([statSync(path).uid, statSync(path).gid]).toEqual([before.uid, before.gid]);
  });

  it("appends", async () => {
    const f = await fixture({ "log.txt": "one\n" });
    await writeContent(f.confinement, [{ path: "log.txt", content: "two\n", append: true }], 1024, never);
    expect(readFileSync(join(f.root, "log.txt"), "utf8")).toBe("one\ntwo\n");
  });

  it("appends to a file larger than one read chunk, keeping its mode, and counts the bytes", async () => {
    const head = "x".repeat(200_000);
    const f = await fixture({ "big.log": head });
    chmodSync(join(f.root, "big.log"), 0o640);
    const [outcome] = await writeContent(f.confinement, [{ path: "big.log", content: "tail\n", append: true }], 1024, never);
    expect(outcome).toEqual({ path: "big.log", bytes: 200_005, created: false });
    expect(readFileSync(join(f.root, "big.log"), "utf8")).toBe(`${head}tail\n`);
    expect(statSync(join(f.root, "big.log")).mode & 0o7777).toBe(0o640);
  });

  it("appends in place: a sparse file stays sparse, however large it says it is", async () => {
    const f = await fixture({ "TODO.md": "" });
    const path = join(f.root, "TODO.md");
    truncateSync(path, 1024 ** 3);
    const [outcome] = await writeContent(f.confinement, [{ path: "TODO.md", content: "more\n", append: true }], 1024, never);
    expect(outcome).toEqual({ path: "TODO.md", bytes: 1024 ** 3 + 5, created: false });
    expect(statSync(path).blocks * 512).toBeLessThan(1024 * 1024);
  });

  it("refuses to append to a file with other hard links, which would change too; drops a set-user-ID bit", async () => {
    const f = await fixture({ "notes.txt": "one\n", tool: "old\n" });
    linkSync(join(f.root, "notes.txt"), join(f.root, "other.txt"));
    const [linked] = await writeContent(f.confinement, [{ path: "notes.txt", content: "two\n", append: true }], 1024, never);
    expect(linked!.error).toMatch(/^notes\.txt: has other hard links, which an append would change too/);
    expect(readFileSync(join(f.root, "other.txt"), "utf8")).toBe("one\n");
    chmodSync(join(f.root, "tool"), 0o4755);
    await writeContent(f.confinement, [{ path: "tool", content: "new\n", append: true }], 1024, never);
    expect(statSync(join(f.root, "tool")).mode & 0o7777).toBe(0o755);
  });

  it("undoes an append that fails midway, leaving the file as it was", async () => {
    const f = await fixture({ "log.txt": "one\n" });
    // This test file's own process may write no file past 4 KiB (Node ignores SIGXFSZ: the write fails with EFBIG).
    execFileSync("prlimit", [`--pid=${process.pid}`, "--fsize=4096:"]);
    try {
      const [outcome] = await writeContent(f.confinement, [{ path: "log.txt", content: "x".repeat(10_000), append: true }], 1 << 20, never);
      expect(outcome!.error).toBe("log.txt: over the file size limit");
    } finally {
      execFileSync("prlimit", [`--pid=${process.pid}`, "--fsize=unlimited:"]);
    }
    expect(readFileSync(join(f.root, "log.txt"), "utf8")).toBe("one\n");
  });

  it("undoes an append that a full disk stops midway (ENOSPC, as a quota's EDQUOT), leaving the file as it was", async ({ skip }) => {
    // A filesystem of 64 KiB of its own: mounting one needs root (CI's), so elsewhere this is skipped.
    const disk = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-fs-full-")));
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", disk], { stdio: "ignore" });
    } catch {
      return skip("mounting a small tmpfs needs root");
    }
    try {
      writeFileSync(join(disk, "log.txt"), "one\n");
      const confinement = new Confinement(await makeRoot(disk));
      const [outcome] = await writeContent(confinement, [{ path: "log.txt", content: "x".repeat(200_000), append: true }], 1 << 20, never);
      expect(outcome!.error).toBe("log.txt: no space left on the device");
      expect(readFileSync(join(disk, "log.txt"), "utf8")).toBe("one\n");
      expect(readdirSync(disk)).toEqual(["log.txt"]);
    } finally {
      execFileSync("umount", [disk]);
    }
  });

  it("never follows a symlink at the target, even one pointing inside", async () => {
    const f = await fixture({ "real.txt": "real\n" });
    symlinkSync("real.txt", join(f.root, "alias.txt"));
    const [outcome] = await writeContent(f.confinement, [{ path: "alias.txt", content: "x" }], 1024, never);
    expect(outcome!.error).toMatch(/is a symlink/);
    expect(readFileSync(join(f.root, "real.txt"), "utf8")).toBe("real\n");
    expect(readlinkSync(join(f.root, "alias.txt"))).toBe("real.txt");
  });

  it("enforces the size limit per item and goes on with the others", async () => {
    const f = await fixture();
    const outcomes = await writeContent(
      f.confinement,
      [
        { path: "big.txt", content: "x".repeat(2000) },
        { path: "ok.txt", content: "ok" },
      ],
      1024,
      never,
    );
    expect(outcomes[0]!.error).toMatch(/over the 1024-byte limit/);
    expect(outcomes[1]).toEqual({ path: "ok.txt", bytes: 2, created: true });
  });

  it("refuses to replace a directory", async () => {
    const f = await fixture({ "d/x": "" });
    const [outcome] = await writeContent(f.confinement, [{ path: "d", content: "x" }], 1024, never);
    expect(outcome!.error).toBe("d: is a directory; name a file in it (list_files shows what it holds)");
  });
});

describe("create_directories", () => {
  it("creates nested directories and accepts existing ones", async () => {
    const f = await fixture({ "file.txt": "" });
    const outcomes = await createDirectories(f.confinement, ["x/y/z", "x", "file.txt"]);
    expect(outcomes).toEqual([
      { path: "x/y/z", created: true },
      { path: "x", created: false },
      { path: "file.txt", error: expect.stringMatching(/not a directory/) },
    ]);
    expect(lstatSync(join(f.root, "x/y/z")).isDirectory()).toBe(true);
  });
});
