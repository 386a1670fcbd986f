// Host-executed files stay host-owned: jailed code with the project read-write tries to plant what
// the host later runs or obeys (git hooks, core.fsmonitor / core.hooksPath, a redirected git
// common dir, .envrc, .vscode/tasks.json, .mcp.json, .nixshed.toml), by writing, creating, renaming
// over and swapping out the protected entries and `.git` itself, and by making the root a bare
// repository, through `run`, a session and `nixpkgs_execute`. Each attack is checked on the host afterwards; the same jail must still write
// the rest of the project and make git commits there.
import { execFileSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startServer, textOf, type ServerHandle } from "../../daemon/test/support/mcp-client.js";
import { harnessMountsFlag } from "../harness/extra-mounts.js";
import { harnessMetadata } from "../harness/metadata.js";
import { fixtureNixpkgsConfig } from "../support/fixture-nixpkgs.js";

let scratch: string;
let project: string;
let server: ServerHandle;

const git = (...args: string[]) => execFileSync("git", ["-C", project, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
/** What host git would obey: unset (exit 1) is the only safe answer. */
const hostGitConfig = (key: string) => {
  try {
    return git("config", "--get", key).trim();
  } catch {
    return undefined;
  }
};

/** A fresh repository as a user has it: committed, with git's own hooks and info, nothing else protected. */
function freshProject(): void {
  rmSync(project, { recursive: true, force: true });
  mkdirSync(project);
  writeFileSync(join(project, "data.txt"), "data\n");
  git("init", "-q");
  git("-c", "user.email=u@example.org", "-c", "user.name=u", "commit", "-q", "--allow-empty", "-m", "start");
}

/** Every way the jail could have left something the host executes or obeys. */
function expectNothingPlanted(before: { gitIno: number }): void {
  expect(hostGitConfig("core.fsmonitor")).toBeUndefined();
  expect(hostGitConfig("core.hooksPath")).toBeUndefined();
  expect(hostGitConfig("alias.st")).toBeUndefined();
  const git = lstatSync(join(project, ".git"));
  expect(git.isDirectory()).toBe(true);
  expect(git.ino).toBe(before.gitIno);
  expect(readdirSync(join(project, ".git", "hooks")).filter((name) => !name.endsWith(".sample"))).toEqual([]);
  expect(existsSync(join(project, ".git", "commondir"))).toBe(false);
  expect(existsSync(join(project, ".git", "config.worktree"))).toBe(false);
  expect(existsSync(join(project, ".git", "info", "attributes"))).toBe(false);
  for (const planted of [
    ".envrc",
    ".mcp.json",
    ".nixshed.toml",
    ".vscode",
    ".idea",
    ".zed",
    ".helix",
    ".cursor",
    ".claude",
    ".direnv",
    ".gemini",
    "opencode.json",
  ]) {
    expect(existsSync(join(project, planted)), planted).toBe(false);
  }
}

// Each line: an attack, then OK (it worked in the jail) or DENIED.
const PYTHON_ATTACKS = String.raw`
import os
P = "/project"
def attempt(name, f):
    try:
        f()
        print("OK", name)
    except Exception as e:
        print("DENIED", name, type(e).__name__)
def write(path, text, mode="w"):
    def f():
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, mode) as out:
            out.write(text)
    return f
def swap_config():
    os.rename(P + "/.git/config", P + "/.git/config.old")
    write(P + "/.git/config", "[core]\n\thooksPath = /project/evil\n")()
def swap_hooks():
    os.rename(P + "/.git/hooks", P + "/hooks.old")
    write(P + "/.git/hooks/pre-commit", "#!/bin/sh\necho pwned\n")()
def swap_git():
    os.rename(P + "/.git", P + "/git.old")
    write(P + "/.git/config", "[core]\n\tfsmonitor = echo pwned\n")()
def symlink_git():
    os.makedirs(P + "/evil", exist_ok=True)
    write(P + "/evil/config", "[core]\n\tfsmonitor = echo pwned\n")()
    os.symlink("evil", P + "/evil-link")
    os.replace(P + "/evil-link", P + "/.git")
def unlink_config():
    os.unlink(P + "/.git/config")
    write(P + "/.git/config", "[alias]\n\tst = !echo pwned\n")()
attempt("hook", write(P + "/.git/hooks/pre-commit", "#!/bin/sh\necho pwned\n"))
attempt("fsmonitor", write(P + "/.git/config", "[core]\n\tfsmonitor = echo pwned\n", "a"))
attempt("commondir", write(P + "/.git/commondir", "/project/evil\n"))
attempt("worktree-config", write(P + "/.git/config.worktree", "[core]\n\tfsmonitor = echo pwned\n"))
attempt("attributes", write(P + "/.git/info/attributes", "* filter=evil\n"))
attempt("envrc", write(P + "/.envrc", "echo pwned\n"))
attempt("tasks", write(P + "/.vscode/tasks.json", "{}\n"))
attempt("helix", write(P + "/.helix/languages.toml", "[language-server.x]\ncommand = \"sh\"\n"))
attempt("mcp", write(P + "/.mcp.json", "{}\n"))
attempt("nixshed", write(P + "/.nixshed.toml", "[sandbox]\n"))
attempt("claude", write(P + "/.claude/settings.json", "{}\n"))
attempt("gemini", write(P + "/.gemini/settings.json", '{"mcpServers": {"x": {"command": "sh"}}}\n'))
attempt("opencode", write(P + "/opencode.json", '{"mcp": {"x": {"type": "local", "command": ["sh"]}}}\n'))
attempt("swap-config", swap_config)
attempt("unlink-config", unlink_config)
attempt("swap-hooks", swap_hooks)
attempt("swap-git", swap_git)
attempt("symlink-git", symlink_git)
attempt("ordinary", write(P + "/out/result.txt", "written\n"))
`;

function deniedAll(stdout: string): void {
  const lines = stdout.trim().split("\n");
  expect(lines.filter((line) => line.startsWith("OK ") && line !== "OK ordinary")).toEqual([]);
  expect(lines).toContain("OK ordinary");
}

async function ok(name: string, args: Record<string, unknown>): Promise<{ stdout: string; stderr: string; exit_code: number | null }> {
  const result = await server.call(name, args);
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  return result.structuredContent as never;
}

beforeAll(async () => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-protected-")));
  project = join(scratch, "project");
  mkdirSync(project);
  const { config } = fixtureNixpkgsConfig(scratch, '\n[nixpkgs.permissions.coreutils]\nproject_access = "rw"\n');
  const state = ["--state-dir", join(scratch, "state"), "--cache-dir", join(scratch, "cache")];
  server = await startServer({
    args: [
      "--metadata",
      harnessMetadata({ testEnvironments: true }),
      "--config",
      config,
      "--project",
      project,
      ...state,
      ...harnessMountsFlag(),
    ],
  });
}, 600_000);

afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

let before: { gitIno: number };
beforeEach(() => {
  freshProject();
  before = { gitIno: statSync(join(project, ".git")).ino };
});

describe("a read-write jail cannot plant what the host executes", () => {
  it("through run", async () => {
    deniedAll((await ok("run", { env: "tight", code: PYTHON_ATTACKS })).stdout);
    expectNothingPlanted(before);
    expect(readFileSync(join(project, "out", "result.txt"), "utf8")).toBe("written\n");
  });

  it("through a session, while it lives and after it is closed", async () => {
    deniedAll((await ok("run", { env: "tight", session: "attacker", code: PYTHON_ATTACKS })).stdout);
    expect(hostGitConfig("core.fsmonitor")).toBeUndefined();
    expect(existsSync(join(project, ".git", "hooks", "pre-commit"))).toBe(false);
    // A second call of the same kernel: what it could not do before, it cannot do now.
    deniedAll((await ok("run", { env: "tight", session: "attacker", code: PYTHON_ATTACKS })).stdout);
    await ok("close_session", { session: "attacker" });
    expectNothingPlanted(before);
  });

  it("through nixpkgs_execute of a package with read-write access", async () => {
    const coreutils = (program: string, args: string[], stdin?: string) =>
      ok("nixpkgs_execute", { package: "coreutils", program, args, ...(stdin ? { stdin } : {}) });
    const refused = (result: { exit_code: number | null; stderr: string }) => {
      expect(result.exit_code).not.toBe(0);
      expect(result.stderr).toMatch(/Read-only file system|Device or resource busy/);
    };
    for (const path of [".envrc", ".mcp.json", ".nixshed.toml", ".git/hooks/pre-commit", ".git/commondir", ".vscode/tasks.json"]) {
      refused(await coreutils("tee", [`/project/${path}`], "echo pwned\n"));
    }
    refused(await coreutils("tee", ["-a", "/project/.git/config"], "[core]\n\tfsmonitor = echo pwned\n"));
    refused(await coreutils("mkdir", ["/project/.vscode/sub"]));
    refused(await coreutils("mv", ["/project/.git", "/project/git.old"]));
    refused(await coreutils("mv", ["/project/.git/config", "/project/config.old"]));
    const wrote = await coreutils("tee", ["/project/written-by-tee.txt"], "ordinary\n");
    expect(wrote.exit_code, wrote.stderr).toBe(0);
    expectNothingPlanted(before);
    expect(readFileSync(join(project, "written-by-tee.txt"), "utf8")).toBe("ordinary\n");
  });
});

describe("a read-write jail cannot make the project's root a repository of its own", () => {
  // git takes a directory holding HEAD, objects/ and refs/ for a bare repository when no valid .git is there first,
  // and obeys its config: a garbled .git/HEAD, or no .git at all, hands the root to what the jail wrote.
  const BARE_ROOT = String.raw`
import os, sys
os.chdir("/project")
if os.path.isdir(".git"):
    try:
        open(".git/HEAD", "w").write("garbage\n")
    except OSError as e:
        print("garbled", e.errno)
for name in ("objects", "refs"):
    os.makedirs(name, exist_ok=True)
for name, text in (("HEAD", "ref: refs/heads/main\n"), ("config", "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = \"touch " + sys.argv[0] + "; false\"\n")):
    try:
        open(name, "w").write(text)
    except OSError as e:
        print("DENIED", name, e.errno)
`;
  const marker = () => join(scratch, "fsmonitor-ran");
  /** git at the root as the host user runs it, with nothing above the scratch directory to find. */
  const hostGitStatus = () => {
    try {
      execFileSync("git", ["status"], { cwd: project, env: { ...process.env, GIT_CEILING_DIRECTORIES: scratch }, stdio: "ignore" });
    } catch {
      // No repository, or a broken one: git ran nothing either way.
    }
  };

  for (const [name, prepare] of [
    ["in a repository, with its .git/HEAD garbled", () => {}],
    ["in a project without a repository", () => rmSync(join(project, ".git"), { recursive: true, force: true })],
  ] as const) {
    it(name, async () => {
      prepare();
      rmSync(marker(), { force: true });
      const code = BARE_ROOT.replace("sys.argv[0]", JSON.stringify(marker()));
      const result = await ok("run", { env: "tight", code });
      hostGitStatus();
      expect(existsSync(marker()), result.stdout).toBe(false);
      expect(result.stdout, result.stderr).toMatch(/^DENIED HEAD \d+$/m);
      for (const planted of ["objects", "refs", "config"]) rmSync(join(project, planted), { recursive: true, force: true });
    });
  }
});

describe("a read-write jail still works on the project", () => {
  it("commits with git: objects, refs, index and logs stay writable", async () => {
    const code = `import subprocess
def git(*args):
    return subprocess.run(["/usr/bin/git", "-c", "user.email=j@example.org", "-c", "user.name=jail", *args], capture_output=True, text=True)
open("notes.txt", "w").write("from the jail\\n")
print(git("add", "notes.txt").returncode, git("commit", "-q", "-m", "jailed commit").returncode, git("branch", "topic").returncode)`;
    const result = await ok("run", { env: "tight", code });
    expect(result.stdout, result.stderr).toBe("0 0 0\n");
    expect(git("log", "--format=%s", "-1").trim()).toBe("jailed commit");
    expect(git("branch", "--list", "topic").trim()).toBe("topic");
    expectNothingPlanted(before);
  });

  it("leaves a project without a repository without one: the jail cannot create .git at its root", async () => {
    rmSync(join(project, ".git"), { recursive: true, force: true });
    const result = await ok("run", {
      env: "tight",
      code: `import os\ntry:\n    os.makedirs("/project/.git/hooks")\n    print("CREATED")\nexcept OSError as e:\n    print("DENIED", e.errno)`,
    });
    expect(result.stdout).toMatch(/^DENIED \d+\n$/);
    expect(existsSync(join(project, ".git"))).toBe(false);
  });
});
