// The trust classification walks the schema: a key nobody classified fails here, so a new key
// cannot reach an untrusted project file by default (unclassified keys are dropped at run time).
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { configSchema } from "../../src/config/schema.js";
import { leafPatterns } from "../../src/config/shape.js";
import { narrowProjectValues, TRUST_RULES } from "../../src/config/trust.js";

const patterns = leafPatterns(configSchema);
const trusted = configSchema.parse({ fs: { extra_roots: ["/srv"] }, nixpkgs: { permissions: { curl: { network: true } } } });

describe("trust classification", () => {
  it("classifies every key of the schema (add a rule in config/trust.ts for a new key)", () => {
    expect(patterns.filter((pattern) => !TRUST_RULES[pattern])).toEqual([]);
  });

  it("classifies no key the schema does not have", () => {
    expect(Object.keys(TRUST_RULES).filter((pattern) => !patterns.includes(pattern))).toEqual([]);
  });

  // [key, a value the project may set, a value it may not] against `trusted` above (defaults otherwise).
  const table: [string, unknown, unknown][] = [
    ["log_level", "debug", "error"],
    ["fs.read_only", true, undefined],
    ["fs.enabled", false, undefined],
    ["fs.allow_delete", false, true],
    ["fs.extra_roots", [], ["/"]],
    ["fs.max_read_bytes", 1024, 1048577],
    ["responses.max_bytes", 4096, 32769],
    ["sandbox.project_access", "ro", undefined],
    ["sandbox.dirs", [], ["/tmp/x"]],
    ["nixpkgs.project_access", "none", "rw"],
    ["nixpkgs.network", false, true],
    ["nixpkgs.permissions.curl.network", false, undefined],
    ["nixpkgs.permissions.wget.network", false, true],
    ["nixpkgs.permissions.wget.project_access", "none", "rw"],
    ["nixpkgs.common_tools", "off", "tools"],
    ["nixpkgs.tools", [], ["x"]],
    ["nixpkgs.source", undefined, "/evil"],
    ["nixpkgs.nix_options", undefined, ["--impure"]],
    ["pkglocal.python_envs", [".venv", "a/../b"], ["../x"]],
    ["pkglocal.node_modules", ["web/node_modules"], ["/usr/lib/node_modules"]],
    ["state_dir", undefined, "/tmp/state"],
    ["protected_paths", [...trusted.protected_paths, "secrets"], trusted.protected_paths.slice(1)],
  ];
  const at = (key: string, value: unknown) =>
    key.split(".").reduceRight<unknown>((inner, part) => ({ [part]: inner }), value) as Record<string, unknown>;

  it.each(table)("%s: keeps %j, drops %j", (key, narrow, wide) => {
    if (narrow !== undefined) expect(narrowProjectValues(at(key, narrow), trusted, "/p").ignored, key).toEqual([]);
    if (wide !== undefined) expect(narrowProjectValues(at(key, wide), trusted, "/p").ignored.map((each) => each.key)).toEqual([key]);
  });

  it("lets a network allow-list only shrink: false < fewer destinations < true", () => {
    const listed = configSchema.parse({ nixpkgs: { network: ["example.org", "*.example.net"] } });
    const open = configSchema.parse({ nixpkgs: { network: true } });
    const ignored = (network: unknown, base: typeof trusted) => narrowProjectValues({ nixpkgs: { network } }, base, "/p").ignored.length;
    expect([ignored(["example.org"], listed), ignored(false, listed), ignored([], listed)]).toEqual([0, 0, 0]);
    expect([ignored(["evil.example"], listed), ignored(true, listed), ignored(["example.org"], trusted)]).toEqual([1, 1, 1]);
    expect(ignored(["anything.example"], open)).toBe(0);
  });

  it("keeps keys the schema does not know, for validation to name", () => {
    expect(narrowProjectValues({ fs: { read_olny: true } }, trusted, "/p")).toEqual({ kept: { fs: { read_olny: true } }, ignored: [] });
  });
});

describe("relative paths in configuration", () => {
  it("resolve against the directory of the file that sets them, and against the cwd for flags", () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-paths-")));
    mkdirSync(join(base, "project", ".git"), { recursive: true });
    mkdirSync(join(base, "etc"));
    mkdirSync(join(base, "cwd"));
    writeFileSync(
      join(base, "etc", "config.toml"),
      'metadata = "meta"\n[nixpkgs]\nindex = "idx/nixpkgs.idx"\nsource = "../nixpkgs"\n[sandbox]\ndirs = ["sandboxes"]\n',
    );
    const loaded = loadConfig({
      cwd: join(base, "cwd"),
      project: join(base, "project"),
      systemConfig: join(base, "etc", "config.toml"),
      env: { XDG_CONFIG_HOME: join(base, "none") },
      flags: [{ key: "fs.extra_roots", value: ["data"], flag: "--set fs.extra_roots" }],
    });
    expect(loaded.config.metadata).toBe(join(base, "etc", "meta"));
    expect(loaded.config.nixpkgs.index).toBe(join(base, "etc", "idx", "nixpkgs.idx"));
    expect(loaded.config.nixpkgs.source).toBe(join(base, "nixpkgs"));
    expect(loaded.config.sandbox.dirs).toEqual([join(base, "etc", "sandboxes")]);
    expect(loaded.config.fs.extra_roots).toEqual([join(base, "cwd", "data")]);
  });

  it("take nixpkgs.source as a path when it names one, else as a flake reference", () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-paths-")));
    mkdirSync(join(base, "tests", "fixtures", "nixpkgs"), { recursive: true });
    const source = (value: string) =>
      loadConfig({ cwd: base, systemConfig: join(base, "none"), env: {}, flags: [{ key: "nixpkgs.source", value, flag: "--set" }] }).config
        .nixpkgs.source;
    expect(source("github:NixOS/nixpkgs/nixos-unstable")).toBe("github:NixOS/nixpkgs/nixos-unstable");
    expect(source("nixpkgs")).toBe("nixpkgs");
    expect(source("tests/fixtures/nixpkgs")).toBe(join(base, "tests", "fixtures", "nixpkgs"));
    expect(source("./elsewhere")).toBe(join(base, "elsewhere"));
  });
});
