// The jail policy for each kind of caller: what a one-off run, a session's kernel and
// nixpkgs_execute (with and without per-package permissions) get, and how the trusted
// configuration caps each of them.
import { describe, expect, it } from "vitest";
import { decideJail, jailSettings, packageDeclared, type Declared, type JailPolicy } from "../../src/jail/policy.js";
import { configSchema, type Config } from "../../src/config/schema.js";

const ROOT = "/home/u/project";
const config = (patch: Record<string, unknown> = {}): Config => configSchema.parse(patch);
const environment = (projectAccess: Declared["projectAccess"], network: Declared["network"] = false): Declared => ({
  projectAccess,
  network,
  timeoutSeconds: 30,
});
const RW_PROTECTED = expect.arrayContaining([
  ".envrc",
  ".mcp.json",
  ".nixshed.toml",
  ".vscode",
  ".git/config",
  ".git/hooks",
  ".git/info",
  ".git/commondir",
  ".git/config.worktree",
  ".git/modules",
  ".git/worktrees",
]);

const table: [caller: string, declared: Declared, settings: Config, asks: { timeoutSeconds?: number }, policy: Partial<JailPolicy>][] = [
  [
    "run, env ro",
    environment("ro"),
    config(),
    {},
    { project: { dir: ROOT, access: "ro", protect: [] }, cwd: "/project", network: false, timeoutMs: 30_000 },
  ],
  [
    "run, env rw: protected paths",
    environment("rw"),
    config(),
    { timeoutSeconds: 5 },
    { project: { dir: ROOT, access: "rw", protect: RW_PROTECTED }, cwd: "/project", timeoutMs: 5_000 },
  ],
  [
    "run, env without project access: starts in the scratch dir",
    environment("none"),
    config(),
    {},
    { project: undefined, cwd: "/workspace" },
  ],
  ["run, env with network", environment("ro", true), config(), {}, { network: true }],
  ["run, env with an empty allow-list: no network", environment("ro", []), config(), {}, { network: false }],
  ["run, env with an allow-list", environment("ro", ["example.org"]), config(), {}, { network: { allow: ["example.org"] } }],
  ["session kernel (no call): the env's default timeout", environment("rw"), config(), {}, { cwd: "/project", timeoutMs: 30_000 }],
  [
    "trusted cap: sandbox.project_access = ro over an rw env",
    environment("rw"),
    config({ sandbox: { project_access: "ro" } }),
    {},
    { project: { dir: ROOT, access: "ro", protect: [] } },
  ],
  [
    "trusted cap: sandbox.project_access = none",
    environment("rw"),
    config({ sandbox: { project_access: "none" } }),
    {},
    { project: undefined, cwd: "/workspace" },
  ],
  [
    "trusted cap: the default timeout capped by max_timeout_seconds",
    environment("ro"),
    config({ sandbox: { max_timeout_seconds: 10 } }),
    {},
    { timeoutMs: 10_000 },
  ],
  [
    "trusted protected_paths: a project-relative list, no way out",
    environment("rw"),
    config({ protected_paths: ["secrets", "../../etc/shadow", "a/../../b"] }),
    {},
    { project: { dir: ROOT, access: "rw", protect: ["secrets"] } },
  ],
  [
    "nixpkgs_execute without permissions: nixpkgs defaults",
    packageDeclared("jq", config().nixpkgs),
    config(),
    {},
    { project: { dir: ROOT, access: "ro", protect: [] }, cwd: "/project", network: false, timeoutMs: 60_000 },
  ],
  [
    "nixpkgs_execute with permissions",
    packageDeclared("curl", config({ nixpkgs: { permissions: { curl: { network: true, project_access: "rw" } } } }).nixpkgs),
    config(),
    {},
    { project: { dir: ROOT, access: "rw", protect: RW_PROTECTED }, network: true },
  ],
  [
    "nixpkgs_execute with permissions, capped by sandbox.project_access",
    packageDeclared("curl", config({ nixpkgs: { permissions: { curl: { project_access: "rw" } } } }).nixpkgs),
    config({ sandbox: { project_access: "none" } }),
    {},
    { project: undefined, cwd: "/workspace" },
  ],
];

describe("decideJail", () => {
  it.each(table)("%s", (_caller, declared, settings, asks, policy) => {
    const { project, ...rest } = policy;
    const decided = decideJail(declared, jailSettings(settings), ROOT, asks);
    expect(decided).toMatchObject({ ...rest, maxOutputBytes: settings.sandbox.max_output_bytes });
    if ("project" in policy) expect(decided.project).toEqual(project);
  });

  it("protects parents before what lies in them, so bin/run binds them in order", () => {
    const { project } = decideJail(environment("rw"), jailSettings(config()), ROOT);
    const protect = project!.protect;
    expect(protect.indexOf(".envrc")).toBeLessThan(protect.indexOf(".git/config"));
  });

  it("refuses a timeout or stdin above the trusted limits, naming each", () => {
    const settings = jailSettings(config({ sandbox: { max_timeout_seconds: 10, max_stdin_bytes: 1024 } }));
    expect(() => decideJail(environment("ro"), settings, ROOT, { timeoutSeconds: 11 })).toThrow(
      "timeout_seconds 11 is above the limit of 10",
    );
    expect(() => decideJail(environment("ro"), settings, ROOT, { stdin: "x".repeat(1025) })).toThrow(
      "stdin is 1025 bytes, above the limit of 1024",
    );
  });
});
