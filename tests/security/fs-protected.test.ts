// Protected paths through the fs tools: files the host runs or obeys (git hooks and config,
// direnv, editor and agent config, nixshed's own) are never changed by a write, edit, create, move
// or delete — however the path is spelled (case, `..`, `/project/...`, a symlink to them) — while
// the rest of .git stays writable so a commit can still be made.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_PROTECTED_PATHS } from "../../daemon/src/config/protected-paths.js";
import { Confinement, makeRoot } from "../../daemon/src/fs/confine.js";
import { editFile } from "../../daemon/src/fs/edit.js";
import { deleteItems, moveItems } from "../../daemon/src/fs/manage.js";
import { createDirectories, writeContent } from "../../daemon/src/fs/write.js";
import { startServer, textOf, ONLY_FS } from "../../daemon/test/support/mcp-client.js";

const never = new AbortController().signal;
let project: string;
let confinement: Confinement;

beforeEach(async () => {
  project = join(realpathSync(mkdtempSync(join(tmpdir(), "nixshed-protected-"))), "project");
  mkdirSync(join(project, ".git", "hooks"), { recursive: true });
  mkdirSync(join(project, ".git", "objects"), { recursive: true });
  mkdirSync(join(project, ".git", "refs", "heads"), { recursive: true });
  writeFileSync(join(project, ".git", "config"), "[core]\n");
  writeFileSync(join(project, ".envrc"), "use flake\n");
  writeFileSync(join(project, "hook.sh"), "#!/bin/sh\ntouch /tmp/pwned\n");
  symlinkSync(".git", join(project, "git-link"));
  confinement = new Confinement(await makeRoot(project), [], DEFAULT_PROTECTED_PATHS);
});

const write = async (path: string) => (await writeContent(confinement, [{ path, content: "#!/bin/sh\necho pwned\n" }], 1 << 20, never))[0]!;

describe("protected paths, through the fs tools", () => {
  it.each([
    ".git/hooks/pre-commit",
    ".git/config",
    ".git/info/attributes",
    ".envrc",
    ".direnv/bin/x",
    ".vscode/tasks.json",
    ".idea/workspace.xml",
    ".zed/settings.json",
    ".helix/languages.toml",
    ".cursor/mcp.json",
    ".claude/settings.json",
    ".mcp.json",
    ".nixshed.toml",
    "src/../.git/hooks/post-checkout",
    "/project/.git/hooks/pre-push",
    "git-link/hooks/pre-commit",
    "git-link/config",
    ".git",
    "vendor/lib/.git/hooks/pre-commit",
    ".git/modules/sub/hooks/post-checkout",
    // It names the directory git reads its config from (a planted one with core.fsmonitor ran as the user's git).
    ".git/commondir",
    ".git/worktrees/wt/config",
    // Config git reads once extensions.worktreeConfig is on, as `git sparse-checkout` turns it.
    ".git/config.worktree",
  ])("write_content %s is refused, with one line saying why", async (path) => {
    const outcome = await write(path);
    expect(outcome.error).toMatch(
      /is protected \(.+ is in protected_paths: the host runs or obeys it\), so nixshed does not change it; ask the user/,
    );
    expect(outcome.error).not.toContain("\n");
  });

  it("refuses a differently-cased spelling too (a case-insensitive filesystem would take it)", async () => {
    expect((await write(".GIT/hooks/pre-commit")).error).toMatch(/protected/);
    expect((await write(".EnvRC")).error).toMatch(/protected/);
  });

  it("nothing was written: the hook, config and .envrc are as they were", async () => {
    await write(".git/hooks/pre-commit");
    await write("git-link/config");
    await write(".envrc");
    expect(existsSync(join(project, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(readFileSync(join(project, ".git", "config"), "utf8")).toBe("[core]\n");
    expect(readFileSync(join(project, ".envrc"), "utf8")).toBe("use flake\n");
  });

  it("refuses edits, creates, moves into and out of, and deletes", async () => {
    await expect(
      editFile(confinement, ".git/config", [{ old_text: "[core]", new_text: "[core]\n\tfsmonitor = ./hook.sh" }], false, 1 << 20),
    ).rejects.toThrow(/protected/);
    expect((await createDirectories(confinement, [".vscode", ".git/hooks/sub"]))[0]!.error).toMatch(/protected/);
    expect(existsSync(join(project, ".vscode"))).toBe(false);
    const moves = await moveItems(
      confinement,
      [
        { source: "hook.sh", destination: ".git/hooks/pre-commit" },
        { source: ".envrc", destination: "envrc.bak" },
        { source: ".git", destination: "dot-git" },
        { source: "hook.sh", destination: ".git/commondir" },
      ],
      never,
    );
    for (const move of moves) expect(move.error).toMatch(/protected/);
    const deletes = await deleteItems(confinement, [".envrc", ".git/config", ".git"], true, never);
    for (const deleted of deletes) expect(deleted.error).toMatch(/protected/);
    expect(existsSync(join(project, ".git", "hooks", "pre-commit"))).toBe(false);
    expect(existsSync(join(project, ".envrc"))).toBe(true);
  });

  it("refuses to make a bare repository anywhere in the project, whose config git run there obeys", async () => {
    // In any order, the write that completes HEAD + objects/ + refs/ in one directory is refused, and then any write in it.
    expect((await write("docs/HEAD")).error).toBeUndefined();
    expect((await write("docs/config")).error).toBeUndefined();
    expect((await write("docs/objects/info/.k")).error).toBeUndefined();
    expect((await write("docs/refs/heads/.k")).error).toMatch(/docs \(it would be a bare git repository, whose config git obeys\)/);
    expect((await createDirectories(confinement, ["docs/refs"]))[0]!.error).toMatch(/bare git repository/);
    expect(existsSync(join(project, "docs", "refs"))).toBe(false);
    mkdirSync(join(project, "planted", "objects"), { recursive: true });
    mkdirSync(join(project, "planted", "refs"));
    writeFileSync(join(project, "planted", "HEAD"), "ref: refs/heads/main\n");
    expect((await write("planted/config")).error).toMatch(/planted \(it would be a bare git repository/);
    expect((await write("planted/notes/readme.md")).error).toMatch(/bare git repository/);
    await expect(editFile(confinement, "planted/HEAD", [{ old_text: "main", new_text: "x" }], false, 1 << 20)).rejects.toThrow(/bare git/);
    // HEAD and a commondir naming where objects, refs and the config are make one too (git's is_git_directory).
    expect((await write("notes/HEAD")).error).toBeUndefined();
    expect((await write("notes/commondir")).error).toMatch(/notes \(it would be a bare git repository/);
  });

  it.each([
    "opencode.json",
    ".gemini/settings.json",
    ".codex/config.toml",
    ".kiro/settings/mcp.json",
    ".roo/mcp.json",
    ".amazonq/mcp.json",
    ".crush.json",
    ".qwen/settings.json",
    ".kilocode/mcp.json",
    "kilo.jsonc",
    ".clinerules/hooks/TaskStart",
  ])("refuses %s: another coding agent's project config, whose MCP servers it starts", async (path) => {
    expect((await write(path)).error).toMatch(/is protected/);
  });

  it("leaves objects, refs and the rest of the project writable", async () => {
    for (const path of [".git/objects/ab/cdef", ".git/refs/heads/main", ".git/HEAD", "src/main.ts", ".github/workflows/ci.yml"]) {
      expect((await write(path)).error, path).toBeUndefined();
    }
  });
});

describe("protected paths over MCP", () => {
  it("are refused with an error result, and protected_paths from trusted config adds to them", async () => {
    const server = await startServer({
      cwd: project,
      args: ["--project", project, ...ONLY_FS, "--set", 'protected_paths=[".git/hooks", "secrets"]'],
    });
    try {
      const hook = await server.call("write_content", { items: [{ path: ".git/hooks/pre-commit", content: "x" }] });
      expect(textOf(hook)).toMatch(/\.git\/hooks\/pre-commit: is protected/);
      expect(textOf(await server.call("write_content", { items: [{ path: "secrets/key", content: "x" }] }))).toMatch(/is protected/);
      expect(textOf(await server.call("write_content", { items: [{ path: "src/ok.ts", content: "x" }] }))).toMatch(/created src\/ok.ts/);
    } finally {
      await server.close();
    }
  });
});
