// A hostile repository's .nixshed.toml against the trust boundary of the configuration: an untrusted
// project file may narrow what nixshed does, never widen it or choose what runs on the host; only a
// trust record for its exact content (written by `nixshed trust`, in a store the project cannot
// name) lifts that, and editing the file drops it again.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "smol-toml";
import { beforeEach, describe, expect, it } from "vitest";
import { loadConfig, type LoadOptions } from "../../daemon/src/config/load.js";
import { CLI } from "../../daemon/test/support/mcp-client.js";
import { configSchema } from "../../daemon/src/config/schema.js";
import { leafPatterns } from "../../daemon/src/config/shape.js";
import { TRUST_RULES } from "../../daemon/src/config/trust.js";
import { sha256, trustStoreDir, writeTrust } from "../../daemon/src/config/trust-store.js";

const HOSTILE = new URL("./trust-hostile.nixshed.toml", import.meta.url).pathname;

/** The user's own configuration: every key the hostile file touches restricted, so each of its values widens. */
const USER_CONFIG = `log_level = "warn"
[fs]
enabled = false
read_only = true
use_client_roots = false
[sandbox]
enabled = false
project_access = "ro"
[nixpkgs]
enabled = false
project_access = "none"
[pkglocal]
enabled = false
`;

let base: string;
let project: string;
let xdg: string;
let state: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-trust-")));
  project = join(base, "project");
  xdg = join(base, "config");
  state = join(base, "state");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(join(xdg, "nixshed"), { recursive: true });
  writeFileSync(join(xdg, "nixshed", "config.toml"), USER_CONFIG);
});

const load = (options: Partial<LoadOptions> = {}) =>
  loadConfig({
    cwd: project,
    systemConfig: join(base, "none.toml"),
    ...options,
    env: { XDG_CONFIG_HOME: xdg, XDG_STATE_HOME: state, ...options.env },
  });

const plant = (text = readFileSync(HOSTILE, "utf8")) => writeFileSync(join(project, ".nixshed.toml"), text);

const leaves = (node: unknown, prefix: string[] = []): string[] =>
  typeof node === "object" && node !== null && !Array.isArray(node)
    ? Object.entries(node).flatMap(([key, value]) => leaves(value, [...prefix, key]))
    : [prefix.join(".")];

describe("an untrusted project file", () => {
  it("changes nothing by setting every key to a widening value, and the server still loads", () => {
    const baseline = load();
    plant();
    const loaded = load();
    expect(loaded.config).toEqual(baseline.config);
    expect(loaded.stateDir).toBe(baseline.stateDir);
    expect(loaded.cacheDir).toBe(baseline.cacheDir);
    expect(loaded.trust).toMatchObject({ file: join(project, ".nixshed.toml"), trusted: false, command: `nixshed trust ${project}` });
    const set = leaves(parse(readFileSync(HOSTILE, "utf8")));
    expect(loaded.trust!.ignored.map((each) => each.key).sort()).toEqual(set.sort());
    for (const each of loaded.trust!.ignored) expect(each.reason, each.key).toMatch(/only trusted configuration|may set only/);
  });

  it("the hostile fixture covers every key that is not plain data (a new key needs a hostile value here)", () => {
    const set = new Set(
      leaves(parse(readFileSync(HOSTILE, "utf8"))).map((key) => key.replace(/^nixpkgs\.permissions\.[^.]+/, "nixpkgs.permissions.*")),
    );
    const notData = leafPatterns(configSchema).filter((pattern) => TRUST_RULES[pattern]?.allows !== "any value");
    expect(notData.filter((pattern) => !set.has(pattern))).toEqual([]);
  });

  it("may narrow: smaller limits, less access, tools off, its own paths, environments as data", () => {
    writeFileSync(join(xdg, "nixshed", "config.toml"), '[fs]\nallow_delete = true\nextra_roots = ["/srv/a", "/srv/b"]\n');
    plant(`log_level = "debug"
[fs]
read_only = true
allow_delete = false
extra_roots = ["/srv/b"]
max_read_bytes = 2048
[sandbox]
project_access = "none"
[sandbox.sessions]
max_sessions = 2
[nixpkgs]
enabled = false
common_tools = "off"
[nixpkgs.permissions.curl]
network = false
project_access = "none"
[pkglocal]
python_envs = [".venv-ci", "sub/../env"]
[environments.data]
preset = "python"
packages = ["python3Packages.pandas"]
network = true
`);
    const loaded = load();
    expect(loaded.trust?.ignored).toEqual([]);
    expect(loaded.config.log_level).toBe("debug");
    expect(loaded.config.fs).toMatchObject({ read_only: true, allow_delete: false, extra_roots: ["/srv/b"], max_read_bytes: 2048 });
    expect(loaded.config.sandbox).toMatchObject({ project_access: "none", sessions: { max_sessions: 2 } });
    expect(loaded.config.nixpkgs).toMatchObject({
      enabled: false,
      common_tools: "off",
      permissions: { curl: { network: false, project_access: "none" } },
    });
    expect(loaded.config.pkglocal.python_envs).toEqual([".venv-ci", "sub/../env"]);
    expect(loaded.config.environments.data).toMatchObject({ preset: "python", network: true });
  });

  it("keeps a value equal to the trusted one and drops one just above it, naming the trusted value", () => {
    plant("[fs]\nmax_read_bytes = 262144\nmax_list_entries = 1001\n");
    const loaded = load();
    expect(loaded.config.fs.max_list_entries).toBe(1000);
    expect(loaded.trust?.ignored).toEqual([
      { key: "fs.max_list_entries", value: 1001, reason: "an untrusted project may set only a number ≤ the trusted value; trusted: 1000" },
    ]);
  });

  it("cannot hang the server with a FIFO or a device as its file: such a file counts for nothing", () => {
    execFileSync("mkfifo", [join(project, ".nixshed.toml")]);
    expect(load().trust?.invalid).toBe(`${join(project, ".nixshed.toml")}: cannot read: not a regular file`);
    rmSync(join(project, ".nixshed.toml"));
    symlinkSync("/dev/zero", join(project, ".nixshed.toml"));
    expect(load().trust?.invalid).toMatch(/cannot read: leads outside where it must lie$/);
    // Nor a sparse file of gigabytes, which took as much memory to read.
    rmSync(join(project, ".nixshed.toml"));
    writeFileSync(join(project, ".nixshed.toml"), "");
    truncateSync(join(project, ".nixshed.toml"), 3 * 1024 ** 3);
    expect(load().trust?.invalid).toBe(`${join(project, ".nixshed.toml")}: cannot read: over ${16 * 1024 * 1024} bytes`);
  });

  it("cannot stop the server starting with a file in error: it counts for nothing, and the warning says why", () => {
    const file = join(project, ".nixshed.toml");
    const without = load().config;
    for (const [text, why] of [
      ["[fs]\nread_only = tru\n", /\.nixshed\.toml:2:\d+: invalid TOML/],
      ["[fs]\nread_only = true\nreadonly = true\n", /unknown key `fs\.readonly` \(did you mean `fs\.read_only`\?/],
      ["[environments.shell]\nnetwork = true\n", /environments\.shell/],
      // Names every object has: no key of the schema, where they crashed the load with a TypeError.
      ["constructor = 2\n[fs]\ntoString = 1\n", /unknown key `constructor`/],
    ] as const) {
      writeFileSync(file, text);
      const loaded = load();
      expect(loaded.trust?.invalid).toMatch(why);
      expect(loaded.trust?.ignored).toEqual([]);
      // None of it counts, its narrowing values included.
      expect(loaded.config).toEqual(without);
    }
  });

  it("cannot keep the server from starting with a file slow to read: a line of 300,000 spaces among its errors", () => {
    // Each error names its line; the scan for it took quadratic time on such a line (days, for a 16 MiB file).
    writeFileSync(join(project, ".nixshed.toml"), `a = """\nx${" ".repeat(300_000)}y\n"""\nb = 1\n`);
    const output = execFileSync(process.execPath, [CLI, "config"], {
      cwd: project,
      env: { PATH: process.env.PATH, XDG_CONFIG_HOME: xdg, XDG_STATE_HOME: state },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(output).toMatch(/\.nixshed\.toml:4: unknown key `b`/);
  });

  it("cannot show a host file through a symlink out of the project: it counts for nothing, and none of it is quoted", () => {
    const secret = join(base, "credentials");
    writeFileSync(secret, "[default]\naws_secret_access_key = s3cret-from-the-host\n= broken\n");
    symlinkSync(secret, join(project, ".nixshed.toml"));
    const loaded = load();
    expect(loaded.trust?.invalid).toBe(`${join(project, ".nixshed.toml")}: cannot read: leads outside where it must lie`);
    expect(JSON.stringify(loaded)).not.toContain("s3cret-from-the-host");
  });

  it("cannot plant a trust record in a state directory it names", () => {
    plant();
    const planted = join(project, "evil", "state");
    writeTrust(trustStoreDir(planted), join(project, ".nixshed.toml"), sha256(readFileSync(HOSTILE, "utf8")));
    const loaded = load();
    expect(loaded.trust?.trusted).toBe(false);
    expect(loaded.stateDir).toBe(join(state, "nixshed"));
  });

  it("cannot count on a trust store that a trusted layer put inside the project", () => {
    plant();
    const inside = join(project, ".state");
    writeTrust(trustStoreDir(inside), join(project, ".nixshed.toml"), sha256(readFileSync(HOSTILE, "utf8")));
    const loaded = load({ flags: [{ key: "state_dir", value: inside, flag: "--state-dir" }] });
    expect(loaded.trust).toMatchObject({ trusted: false, problem: expect.stringContaining("inside the project") });
    expect(loaded.config.sandbox.dirs).toEqual([]);
  });

  it("cannot borrow the trust of another project's file through a symlink", () => {
    const trustedProject = join(base, "trusted");
    mkdirSync(join(trustedProject, ".git"), { recursive: true });
    cpSync(HOSTILE, join(trustedProject, ".nixshed.toml"));
    writeTrust(trustStoreDir(join(state, "nixshed")), join(trustedProject, ".nixshed.toml"), sha256(readFileSync(HOSTILE, "utf8")));
    expect(load({ cwd: trustedProject }).trust?.trusted).toBe(true);
    symlinkSync(join(trustedProject, ".nixshed.toml"), join(project, ".nixshed.toml"));
    expect(load().trust).toMatchObject({ trusted: false });
  });
});

describe("a trusted project file", () => {
  const trust = () =>
    writeTrust(trustStoreDir(join(state, "nixshed")), join(project, ".nixshed.toml"), sha256(readFileSync(join(project, ".nixshed.toml"))));

  it("applies in full, with relative paths against the project root", () => {
    plant();
    trust();
    const loaded = load({ cwd: join(base), project: "project" });
    expect(loaded.trust).toMatchObject({ trusted: true, ignored: [] });
    expect(loaded.config.sandbox.dirs).toEqual([join(project, "evil", "sandboxes")]);
    expect(loaded.config.nixpkgs.index).toBe(join(project, "evil", "index.idx"));
    expect(loaded.config.nixpkgs.source).toBe(join(project, "evil", "nixpkgs"));
    expect(loaded.stateDir).toBe(join(project, "evil", "state"));
  });

  it("is untrusted again once its content changes", () => {
    plant();
    trust();
    plant(`${readFileSync(HOSTILE, "utf8")}\n# one more line\n`);
    expect(load().trust).toMatchObject({ trusted: false });
    expect(load().config.sandbox.dirs).toEqual([]);
  });
});
