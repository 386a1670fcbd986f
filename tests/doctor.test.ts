// `nixshed doctor` on this machine, against the harness-built presets: it must find what works (the
// environments, a jail that runs, the limit mechanism in force) and name each problem with a fix.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI, startServer, textOf } from "../daemon/test/support/mcp-client.js";
import { harnessMountsFlag } from "./harness/extra-mounts.js";
import { harnessMetadata } from "./harness/metadata.js";
import { fixtureNixpkgsConfig } from "./support/fixture-nixpkgs.js";

interface Check {
  name: string;
  ok: boolean;
  detail: string;
  fix?: string;
}

let metadata: string;

beforeAll(() => {
  metadata = harnessMetadata();
});

function doctor(args: string[]): { code: number | null; checks: Check[] } {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-doctor-")));
  mkdirSync(join(home, "project", ".git"), { recursive: true });
  const result = spawnSync(process.execPath, [CLI, "doctor", "--json", ...args], {
    cwd: join(home, "project"),
    env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_CACHE_HOME: join(home, ".cache") },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: result.status, checks: (JSON.parse(result.stdout) as { checks: Check[] }).checks };
}

const check = (checks: Check[], name: string) => checks.find((each) => each.name === name);

describe("nixshed doctor", () => {
  it("passes where everything works, naming the environments and the limit mechanism, and runs a jail", () => {
    const { code, checks } = doctor(["--metadata", metadata, "--set", "nixpkgs.enabled=false"]);
    expect(checks.filter((each) => !each.ok)).toEqual([]);
    expect(code).toBe(0);
    expect(check(checks, "environments")?.detail).toBe("node (metadata), python (metadata), shell (metadata)");
    expect(check(checks, "user namespaces")?.ok).toBe(true);
    expect(check(checks, "limits")?.detail).toMatch(/^cgroup v1 /);
    expect(check(checks, "jail")).toMatchObject({ ok: true, detail: "node: bin/run -- true succeeded" });
    expect(check(checks, "nixpkgs index")).toBeUndefined();
  });

  it("fails on a missing index and on no environments, each with a fix", () => {
    const { code, checks } = doctor(["--set", "nixpkgs.index=/nonexistent/nixpkgs.idx"]);
    expect(code).toBe(1);
    expect(check(checks, "nixpkgs index")).toMatchObject({ ok: false, detail: "nixpkgs index /nonexistent/nixpkgs.idx does not exist" });
    expect(check(checks, "nixpkgs index")?.fix).toMatch(/nixshed index build/);
    expect(check(checks, "environments")).toMatchObject({ ok: false, detail: "none discovered" });
    expect(check(checks, "environments")?.fix).toMatch(/--metadata PATH/);
  });

  it("says an index will be built from the configured nixpkgs when none is given", () => {
    const fixture = new URL("./fixtures/nixpkgs", import.meta.url).pathname;
    const { checks } = doctor(["--set", `nixpkgs.source="${fixture}"`]);
    expect(check(checks, "nixpkgs index")).toMatchObject({ ok: true });
    expect(check(checks, "nixpkgs index")?.detail).toMatch(
      new RegExp(`^built in the background on first need from ${fixture}, cached at .*/\\.cache/nixshed/`),
    );
  });

  it("says why packages cannot be realised when nixpkgs.source is a path that does not exist", () => {
    const { checks } = doctor(["--metadata", metadata, "--set", "nixpkgs.source=/nonexistent/nixpkgs"]);
    expect(check(checks, "nixpkgs_execute")).toMatchObject({
      ok: false,
      detail: "not offered: nixpkgs.source /nonexistent/nixpkgs does not exist",
    });
    expect(check(checks, "nixpkgs_execute")?.fix).toMatch(/nixpkgs\.source/);
  });

  it("says which packages are realised: none ahead, and the everyday and installed ones the cache holds", async () => {
    const scratch = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-doctor-realised-")));
    const { config, source } = fixtureNixpkgsConfig(scratch);
    const args = [
      "--metadata",
      metadata,
      "--config",
      config,
      ...harnessMountsFlag(),
      "--cache-dir",
      join(scratch, "cache"),
      "--state-dir",
      join(scratch, "state"),
    ];
    const before = doctor(args).checks;
    expect(check(before, "nixpkgs_execute")).toMatchObject({ ok: true, detail: `realises packages from ${source}` });
    expect(check(before, "nixpkgs realised ahead")).toMatchObject({ ok: true, detail: "none" });
    expect(check(before, "nixpkgs realised in the cache")).toMatchObject({ ok: true, detail: "none" });

    const server = await startServer({ args: [...args, "--project", scratch] });
    try {
      for (const [tool, params] of [
        ["nixpkgs_execute", { package: "jq", args: ["-n", "1"] }],
        ["nixpkgs_execute", { package: "tree", args: ["--version"] }],
        ["nixpkgs_install_tool", { package: "hexdumper" }],
        ["nixpkgs_hexdumper", { args: ["-p"], stdin: "hi" }],
      ] as const) {
        const result = await server.call(tool, params);
        expect(result.isError, textOf(result)).toBeFalsy();
      }
    } finally {
      await server.close();
    }
    for (const mode of ["execute", "tools"]) {
      const after = doctor([...args, "--set", `nixpkgs.common_tools=${mode}`]).checks;
      expect(check(after, "nixpkgs realised in the cache")).toMatchObject({ ok: true, detail: "jq, tree, hexdumper" });
      expect(check(after, "nixpkgs realised ahead")).toMatchObject({ ok: true, detail: "none" });
    }
  }, 120_000);
});
