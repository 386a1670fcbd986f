import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { ConfigError, describeConfig, findProjectRoot, loadConfig, type LoadOptions } from "../../src/config/load.js";
import { sha256, trustStoreDir, writeTrust } from "../../src/config/trust-store.js";

let base: string;
let project: string;
let xdg: string;
let system: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-config-")));
  project = join(base, "project");
  xdg = join(base, "xdg");
  system = join(base, "etc-config.toml");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(join(xdg, "nixshed"), { recursive: true });
});

const load = (options: Partial<LoadOptions> = {}) =>
  loadConfig({ cwd: project, systemConfig: system, ...options, env: { XDG_CONFIG_HOME: xdg, ...options.env } });

function failure(options: Partial<LoadOptions>): string {
  try {
    load(options);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a ConfigError");
}

describe("layers", () => {
  it("apply in order, later wins, and each value remembers its layer", () => {
    writeFileSync(system, 'log_level = "error"\n[fs]\nmax_list_entries = 10\nmax_read_bytes = 4096\ntimeout_seconds = 5\n');
    writeFileSync(join(xdg, "nixshed", "config.toml"), "[fs]\nmax_list_entries = 20\n");
    writeFileSync(join(project, ".nixshed.toml"), "[fs]\nmax_read_bytes = 2048\n");
    const extra = join(base, "extra.toml");
    writeFileSync(extra, "[fs]\ntimeout_seconds = 7\nallow_move = true\n");
    const loaded = load({
      configFile: extra,
      env: { NIXSHED_FS__READ_ONLY: "true", NIXSHED_FS__ALLOW_MOVE: "false", NIXSHED_JAIL_PROJECT: "/x" },
      flags: [{ key: "fs.allow_move", value: true, flag: "--set fs.allow_move" }],
    });
    expect(loaded.config.log_level).toBe("error");
    expect(loaded.config.fs).toMatchObject({
      max_list_entries: 20,
      max_read_bytes: 2048,
      timeout_seconds: 7,
      read_only: true,
      allow_move: true,
    });
    const source = Object.fromEntries(describeConfig(loaded).map((row) => [row.key, row.source]));
    expect(source).toMatchObject({
      log_level: system,
      "fs.max_list_entries": join(xdg, "nixshed", "config.toml"),
      "fs.max_read_bytes": join(project, ".nixshed.toml"),
      "fs.timeout_seconds": extra,
      "fs.read_only": "env NIXSHED_FS__READ_ONLY",
      "fs.allow_move": "flag --set fs.allow_move",
      "fs.allow_delete": "default",
    });
    expect(loaded.files.map((file) => [file.path, file.found])).toEqual([
      [system, true],
      [join(xdg, "nixshed", "config.toml"), true],
      [join(project, ".nixshed.toml"), true],
      [extra, true],
    ]);
  });

  it("finds the project root at the nearest ancestor holding .git", () => {
    const deep = join(project, "a", "b");
    mkdirSync(deep, { recursive: true });
    expect(findProjectRoot(deep)).toBe(project);
    expect(findProjectRoot(deep, "..")).toBe(join(project, "a"));
  });

  it("puts state and cache under XDG unless configured", () => {
    const loaded = load({ env: { XDG_STATE_HOME: join(base, "state"), XDG_CACHE_HOME: join(base, "cache") } });
    expect(loaded.stateDir).toBe(join(base, "state", "nixshed"));
    expect(loaded.cacheDir).toBe(join(base, "cache", "nixshed"));
    expect(load({ flags: [{ key: "state_dir", value: "st", flag: "--state-dir" }] }).stateDir).toBe(join(project, "st"));
  });
});

describe("errors name the layer, the key and what is allowed", () => {
  it("an unknown key in the project's .nixshed.toml: fatal once trusted, else the file counts for nothing", () => {
    const file = join(project, ".nixshed.toml");
    const text = "[fs]\nread_olny = true\n";
    writeFileSync(file, text);
    const invalid = load().trust?.invalid ?? "";
    const state = join(base, "state");
    writeTrust(trustStoreDir(join(state, "nixshed")), file, sha256(text));
    const message = failure({ env: { XDG_STATE_HOME: state } });
    for (const said of [invalid, message]) {
      expect(said).toContain(file);
      expect(said).toContain("unknown key `fs.read_olny`");
      expect(said).toMatch(/did you mean `fs.read_only`\? allowed in \[fs\]: enabled, read_only, /);
    }
  });

  it("a key in the wrong table names the key of another table it means, when one alone is named so", () => {
    const said = (text: string) => {
      writeFileSync(system, text);
      return failure({});
    };
    expect(said("read_only = true\n")).toMatch(
      new RegExp(`${system}:1: unknown key \`read_only\` \\(did you mean \`fs\\.read_only\`\\? allowed at the top level: `),
    );
    expect(said("[sandbox]\nmax_session = 3\n")).toMatch(
      /:2: unknown key `sandbox\.max_session` \(did you mean `sandbox\.sessions\.max_sessions`\? /,
    );
    expect(said("[fs]\nmax_bytes = 5000\n")).toMatch(/did you mean `responses\.max_bytes`\? /);
    // Every capability has `enabled`: no guess among them.
    expect(said("enabled = false\n")).toMatch(/unknown key `enabled` \(allowed at the top level: /);
  });

  it("a bad enum value from the environment", () => {
    const message = failure({ env: { NIXSHED_LOG_LEVEL: "loud" } });
    expect(message).toContain("env NIXSHED_LOG_LEVEL");
    expect(message).toContain("`log_level`");
    expect(message).toContain('must be one of error, warn, info, debug, not "loud"');
  });

  it("a bad type from a flag", () => {
    const message = failure({ flags: [{ key: "fs.max_read_bytes", value: "lots", flag: "--set fs.max_read_bytes" }] });
    expect(message).toContain("flag --set fs.max_read_bytes");
    expect(message).toContain("`fs.max_read_bytes`");
    expect(message).toContain('must be a number, not "lots"');
  });

  it("invalid TOML, with the file", () => {
    writeFileSync(system, "[fs\n");
    expect(failure({})).toContain(`${system}:1:4: invalid TOML: `);
  });

  it("a value out of range", () => {
    writeFileSync(join(xdg, "nixshed", "config.toml"), "[fs]\nmax_read_bytes = 10\n");
    expect(failure({})).toMatch(/fs\.max_read_bytes`: must be at least 1024, not 10$/m);
  });
});
