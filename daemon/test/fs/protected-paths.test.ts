import { describe, expect, it } from "vitest";
import { DEFAULT_PROTECTED_PATHS, protectedEntry } from "../../src/config/protected-paths.js";

const list = DEFAULT_PROTECTED_PATHS;

describe("protectedEntry", () => {
  it.each([
    [".git/hooks", ".git/hooks"],
    [".git/hooks/pre-commit", ".git/hooks"],
    [".git/config", ".git/config"],
    [".git/info/attributes", ".git/info"],
    [".envrc", ".envrc"],
    [".direnv/bin/x", ".direnv"],
    [".vscode/tasks.json", ".vscode"],
    [".mcp.json", ".mcp.json"],
    [".nixshed.toml", ".nixshed.toml"],
    ["./.claude/settings.json", ".claude"],
  ])("%s is protected by %s", (path, entry) => {
    expect(protectedEntry(path, list)).toBe(entry);
  });

  it.each([".GIT/Hooks/pre-commit", ".Git/CONFIG", ".EnvRC", ".git/hooks\u200c/x", ".envrc.", ".vscode ", "\u002egit/config"])(
    "%s is not a bypass by case, ignorable code points or trailing dots",
    (path) => expect(protectedEntry(path, list)).toBeDefined(),
  );

  it("a path containing a protected entry is protected (moving or deleting .git takes its hooks along)", () => {
    expect(protectedEntry(".git", list)).toBe(".git/hooks");
    expect(protectedEntry(".GIT", list)).toBe(".git/hooks");
  });

  it.each([
    ".git/objects/ab/cdef",
    ".git/refs/heads/main",
    ".git/HEAD",
    ".git/index",
    "src/.envrc.d",
    "envrc",
    "src/.git.txt",
    ".github/workflows/ci.yml",
    ".",
    "",
  ])("%s stays writable (git commit needs objects, refs, HEAD and index)", (path) => expect(protectedEntry(path, list)).toBeUndefined());

  it.each([
    "vendor/lib/.git/hooks/pre-commit",
    "vendor/lib/.git/config",
    "a/.GIT",
    ".git/modules/sub/hooks/post-checkout",
    ".git/worktrees/w/config.worktree",
  ])("%s: nested repositories', submodules' and worktrees' git metadata is protected whole", (path) =>
    expect(protectedEntry(path, list)).toBeDefined(),
  );

  it("uses the configured list", () => {
    expect(protectedEntry("a/.git/hooks/x", ["secrets"])).toBeUndefined();
  });

  it("uses the configured list", () => {
    expect(protectedEntry("secrets/key", ["secrets"])).toBe("secrets");
    expect(protectedEntry(".envrc", ["secrets"])).toBeUndefined();
  });
});
