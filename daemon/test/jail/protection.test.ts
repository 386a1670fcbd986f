// What a read-write jail's protections need on the host: binds for existing entries and the
// directories on the way, placeholders for missing ones that are shared between jails and removed
// after the last one (unless the host user took them over), and read-only where a symlink is.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { guardProject, jailProtectedEntries } from "../../src/jail/protection.js";
import { DEFAULT_PROTECTED_PATHS } from "../../src/config/protected-paths.js";

const entries = jailProtectedEntries(DEFAULT_PROTECTED_PATHS);

function project(withGit: boolean): string {
  const root = mkdtempSync(join(tmpdir(), "nixshed-guard-"));
  if (withGit) {
    mkdirSync(join(root, ".git", "hooks"), { recursive: true });
    mkdirSync(join(root, ".git", "objects"));
    writeFileSync(join(root, ".git", "config"), "[core]\n");
  }
  return root;
}

describe("guardProject", () => {
  it("binds existing entries read-only and pins .git itself; placeholders stand in for the missing ones", () => {
    const root = project(true);
    const guard = guardProject(root, entries);
    if (guard.readOnly) throw new Error(guard.reason);
    const mounts = Object.fromEntries(guard.mounts.map(({ path, mode }) => [path, mode]));
    expect(mounts).toMatchObject({
      ".git": "pin",
      ".git/config": "ro",
      ".git/hooks": "ro",
      ".git/info": "ro",
      ".git/commondir": "ro",
      ".envrc": "ro",
      ".vscode": "ro",
    });
    expect(guard.mounts.findIndex((m) => m.path === ".git")).toBeLessThan(guard.mounts.findIndex((m) => m.path === ".git/config"));
    // Placeholders: what git reads from them means what their absence meant.
    expect(readFileSync(join(root, ".git", "commondir"), "utf8")).toBe(".\n");
    expect(readFileSync(join(root, ".mcp.json"), "utf8")).toBe("{}\n");
    expect(existsSync(join(root, ".vscode"))).toBe(true);
    expect(readFileSync(join(root, ".git", "config"), "utf8")).toBe("[core]\n");
    guard.release();
    for (const placeholder of [".git/commondir", ".git/info", ".git/modules", ".envrc", ".mcp.json", ".vscode", ".nixshed.toml"]) {
      expect(existsSync(join(root, placeholder)), placeholder).toBe(false);
    }
    expect(readFileSync(join(root, ".git", "config"), "utf8")).toBe("[core]\n");
  });

  it("covers a missing .git whole: nothing below it can be created", () => {
    const root = project(false);
    const guard = guardProject(root, entries);
    if (guard.readOnly) throw new Error(guard.reason);
    expect(guard.mounts.filter((m) => m.path.startsWith(".git"))).toEqual([{ mode: "ro", path: ".git" }]);
    guard.release();
    expect(existsSync(join(root, ".git"))).toBe(false);
  });

  it("keeps a placeholder while any jail uses it, and leaves one the host user has written to", () => {
    const root = project(true);
    const first = guardProject(root, entries);
    const second = guardProject(root, entries);
    first.release();
    expect(existsSync(join(root, ".envrc"))).toBe(true);
    writeFileSync(join(root, ".envrc"), "use flake\n");
    second.release();
    expect(readFileSync(join(root, ".envrc"), "utf8")).toBe("use flake\n");
    expect(existsSync(join(root, ".vscode"))).toBe(false);
  });

  it("gives the project read-only when a protected entry or a directory on the way is a symlink", () => {
    const root = project(true);
    symlinkSync("/etc/passwd", join(root, ".envrc"));
    const guard = guardProject(root, entries);
    expect(guard).toMatchObject({ readOnly: true, reason: ".envrc is a symlink where a protected path is" });
    expect(existsSync(join(root, ".vscode"))).toBe(false);

    const other = project(false);
    mkdirSync(join(other, "elsewhere"));
    symlinkSync("elsewhere", join(other, ".git"));
    expect(guardProject(other, entries)).toMatchObject({ readOnly: true, reason: ".git is a symlink where a protected path is" });
  });

  it("protects a gitfile (.git naming a git directory elsewhere) whole", () => {
    const root = project(false);
    writeFileSync(join(root, ".git"), "gitdir: /elsewhere\n");
    const guard = guardProject(root, entries);
    if (guard.readOnly) throw new Error(guard.reason);
    expect(guard.mounts.filter((m) => m.path.startsWith(".git"))).toEqual([{ mode: "ro", path: ".git" }]);
    guard.release();
  });
});
