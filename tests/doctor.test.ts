// `nixshed doctor` on this machine, against the harness-built presets: it must find what works (the
// environments, a jail that runs, the limit mechanism in force) and name each problem with a fix.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI } from "../daemon/test/support/mcp-client.js";
import { harnessMetadata } from "./harness/metadata.js";

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
});
