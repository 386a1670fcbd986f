// The nixshed command line as a user runs it: exit codes 0 ok / 1 failure / 2 usage, --help on
// every subcommand, --json where the output is data, config errors that say where and what.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { CLI } from "../support/mcp-client.js";

let project: string;
let home: string;

beforeEach(() => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-cli-")));
  project = join(base, "project");
  home = join(base, "home");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(home);
});

function nixshed(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: project,
    env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), ...env },
    encoding: "utf8",
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const packageVersion = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;

describe("nixshed", () => {
  it("prints its version and its commands", () => {
    expect(nixshed(["--version"])).toMatchObject({ code: 0, stdout: `${packageVersion}\n` });
    const help = nixshed(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Commands:$/m);
    expect(help.stdout).toMatch(/^ {2}-V, --version +print the version$/m);
  });

  it("prints the documented example configuration, whatever the configuration in force", () => {
    writeFileSync(join(project, ".nixshed.toml"), "[fs\n");
    const example = nixshed(["config", "--example"]);
    expect(example.code).toBe(0);
    expect(example.stdout).toBe(readFileSync(new URL("../../../config.example.toml", import.meta.url), "utf8"));
  });

  it("names the closest command, flag or config key on a typo", () => {
    expect(nixshed(["doctr"]).stderr).toContain("unknown command 'doctr'; did you mean 'doctor'?");
    expect(nixshed(["config", "--projct", "."])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("unknown flag --projct; did you mean --project?"),
    });
    expect(nixshed(["search", "--nixpkgs-idx", "x", "jq"]).stderr).toContain("did you mean --nixpkgs-index?");
    // A flag shortened, or named by a part of it; the version asked for as a command; help about a command.
    expect(nixshed(["config", "--proj", "."]).stderr).toContain("unknown flag --proj; did you mean --project?");
    // A flag given last without its value, in nixshed's words, not parseArgs' ("Option '--project <value>' argument missing").
    expect(nixshed(["doctor", "--project"]).stderr).toMatch(/^nixshed doctor: --project needs a value \(see the usage below\)\n/);
    expect(nixshed(["doctor", "--log-level", "verbose"]).stderr).toContain(
      '`log_level`: must be one of error, warn, info, debug, not "verbose"',
    );
    expect(nixshed(["search", "--index", "x", "jq"]).stderr).toContain("unknown flag --index; did you mean --nixpkgs-index?");
    expect(nixshed(["version"]).stderr).toContain("unknown command 'version'; did you mean '--version'?");
    // A flag's name without its dashes; a short flag in the other case; the version from any command.
    expect(nixshed(["projet", "."]).stderr).toContain("unknown command 'projet'; did you mean '--project'?");
    // An output path that is a directory: one line, before anything is built or left behind.
    expect(nixshed(["index", "build", "--from", "catalog.json", "--out", project])).toMatchObject({
      code: 2,
      stderr: `nixshed: index build: --out ${project} is a directory; give the index file's path, e.g. ${join(project, "nixpkgs.idx")}\n`,
    });
    expect(nixshed(["-v"]).stderr).toContain("unknown flag -v; did you mean -V?");
    for (const command of ["serve", "doctor", "config"])
      expect(nixshed([command, "--version"])).toMatchObject({ code: 0, stdout: `${packageVersion}\n` });
    expect(nixshed(["help", "search"]).stdout).toMatch(/^Usage: nixshed search /);
    // Without a command the flags are nixshed's own as well as serve's: --version too, and no command is named.
    expect(nixshed(["--verison"])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /^nixshed: unknown flag --verison; did you mean --version\?\n\nnixshed .*\n\nUsage: nixshed \[COMMAND\]/,
      ),
    });
    expect(nixshed(["config", "--set", "sandbox.max_timout_seconds=5"]).stderr).toContain(
      "flag --set sandbox.max_timout_seconds: unknown key `sandbox.max_timout_seconds` (did you mean `sandbox.max_timeout_seconds`? allowed in [sandbox]:",
    );
    expect(nixshed(["config"], { NIXSHED_LOG_LEVLE: "debug" }).stderr).toContain("did you mean `log_level`?");
    // A key shortened part by part is its table's own, not one of another table that is fewer edits away (fs.timeout_seconds).
    expect(nixshed(["config", "--set", "sandbox.timeout_secs=5"]).stderr).toContain("did you mean `sandbox.max_timeout_seconds`?");
  });

  it("gives the line of a config error in a file", () => {
    const user = join(home, "user.toml");
    writeFileSync(user, '# comment\n[fs]\nread_only = true\n\n[sandbox.sessions]\nmax_sessions = "many"\n');
    expect(nixshed(["config", "--config", user]).stderr).toContain(
      `${user}:6: \`sandbox.sessions.max_sessions\`: must be a number, not "many"`,
    );
    // The project's file, untrusted, counts for nothing while it has errors: config says which, with their lines.
    const file = join(project, ".nixshed.toml");
    writeFileSync(file, 'log_level = "info"\n[fs]\nread_only = tru\n');
    const toml = nixshed(["config"]);
    expect(toml.code).toBe(0);
    expect(toml.stdout).toMatch(
      new RegExp(`# ${file} is not trusted and has errors, so none of it counts: ${file}:3:\\d+: invalid TOML: `),
    );
    writeFileSync(file, "[fs]\nread_only = true\n[nixpkgs.permissions.curl]\nnetwrok = false\n");
    expect(nixshed(["config"]).stdout).toContain(
      `# ${file}:4: unknown key \`nixpkgs.permissions.curl.netwrok\` (did you mean \`nixpkgs.permissions.curl.network\`?`,
    );
    // A misspelt one of a few values gets the closest.
    writeFileSync(user, '[nixpkgs]\ncommon_tools = "tool"\n');
    expect(nixshed(["config", "--config", user]).stderr).toContain(
      `${user}:2: \`nixpkgs.common_tools\`: must be one of execute, tools, off, not "tool"; did you mean \`tools\`?`,
    );
    // A value of none of a key's forms names the forms and what the key is.
    writeFileSync(user, '[nixpkgs.permissions.jq]\nnetwork = "yes"\n');
    expect(nixshed(["config", "--config", user]).stderr).toContain(
      `${user}:2: \`nixpkgs.permissions.jq.network\`: Invalid input: expected boolean or array (The package's network: false, true, or destinations it may reach)`,
    );
  });

  it("runs as the npm bin, an executable committed before any build", () => {
    const bin = fileURLToPath(new URL("../../bin/nixshed.js", import.meta.url));
    const result = spawnSync(bin, ["--version"], { encoding: "utf8" });
    expect(result).toMatchObject({ status: 0, stdout: `${packageVersion}\n` });
  });

  it("has --help on every subcommand", () => {
    const names = [...nixshed(["--help"]).stdout.matchAll(/^ {2}([a-z-]+) {2,}/gm)].map((match) => match[1]!);
    expect(names).toEqual(expect.arrayContaining(["serve", "doctor", "config"]));
    for (const name of names) {
      const help = nixshed([name, "--help"]);
      expect(help.code, name).toBe(0);
      expect(help.stdout, name).toContain(`Usage: nixshed ${name}`);
    }
  });

  it("exits 2 on usage errors, with the usage", () => {
    expect(nixshed(["frobnicate"])).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown command 'frobnicate'") });
    expect(nixshed(["config", "--bogus"])).toMatchObject({ code: 2, stderr: expect.stringContaining("Usage: nixshed config") });
    expect(nixshed(["config", "--set", "fs.read_only"])).toMatchObject({ code: 2, stderr: expect.stringContaining("expected KEY=VALUE") });
    expect(nixshed(["config", "stray"])).toMatchObject({ code: 2, stderr: expect.stringContaining("unexpected argument 'stray'") });
  });

  it("takes the common flags before the command too", () => {
    writeFileSync(join(project, "extra.toml"), "[fs]\nmax_read_bytes = 4096\n");
    const after = nixshed(["config", "--config", "extra.toml", "--set", "fs.read_only=true"]);
    const before = nixshed(["--config", "extra.toml", "--set", "fs.read_only=true", "config"]);
    expect(before).toEqual(after);
    expect(before.stdout).toMatch(/max_read_bytes = 4096/);
    expect(nixshed(["--config", "extra.toml", "stray"])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("unexpected argument 'stray'"),
    });
  });

  it("exits 1 on a bad configuration, naming the file (or variable, or flag), the key and what is allowed", () => {
    const user = join(home, "user.toml");
    writeFileSync(user, "[fs]\nread_olny = true\n");
    const result = nixshed(["config", "--config", user]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `${user}:2: unknown key \`fs.read_olny\` (did you mean \`fs.read_only\`? allowed in [fs]: enabled, read_only`,
    );
    const fromEnv = nixshed(["serve"], { NIXSHED_LOG_LEVEL: "loud" });
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toContain('env NIXSHED_LOG_LEVEL: `log_level`: must be one of error, warn, info, debug, not "loud"');
    const fromFlag = nixshed(["config", "--set", "fs.read_only=maybe"]);
    expect(fromFlag.code).toBe(1);
    expect(fromFlag.stderr).toContain('flag --set fs.read_only: `fs.read_only`: must be true or false, not "maybe"');
  });

  it("config shows each value with the layer it came from, as text and as JSON", () => {
    writeFileSync(join(project, ".nixshed.toml"), "[fs]\nmax_list_entries = 50\n");
    const text = nixshed(["config", "--set", "fs.allow_move=true"], { NIXSHED_FS__READ_ONLY: "true" });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`fs.max_list_entries = 50  # ${join(project, ".nixshed.toml")}`);
    expect(text.stdout).toContain("fs.read_only = true  # env NIXSHED_FS__READ_ONLY");
    expect(text.stdout).toContain("fs.allow_move = true  # flag --set fs.allow_move");
    expect(text.stdout).toContain("fs.allow_delete = false  # default");
    const json = JSON.parse(nixshed(["config", "--json"]).stdout) as {
      projectRoot: string;
      values: { key: string; value: unknown; source: string }[];
    };
    expect(json.projectRoot).toBe(project);
    expect(json.values).toContainEqual({ key: "fs.max_list_entries", value: 50, source: join(project, ".nixshed.toml") });
  });

  it("serve exits cleanly on SIGTERM, even with stdin still open", async () => {
    const child = spawn(process.execPath, [CLI, "serve"], {
      cwd: project,
      env: { PATH: process.env.PATH, HOME: home },
      stdio: ["pipe", "pipe", "pipe"],
    });
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } } })}\n`,
    );
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" })}\n`);
    // Once tools/list is answered the server is fully up, its signal handlers in place.
    let out = "";
    await new Promise<void>((resolve) =>
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk;
        if (out.includes('"id":2')) resolve();
      }),
    );
    child.kill("SIGTERM");
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(0);
  });
});
