// nixpkgs realisation takes nothing from data it did not make and no authority from the package
// set: a planted realise-cache entry never runs, a package set's `hostMounts` never reaches the
// jail (mounts come from the trusted nixpkgs.extra_mounts only), and evaluation runs with unsafe
// native code off even where the machine's nix.conf turns it on.
import { copyFileSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { textOf, type ServerHandle } from "../../daemon/test/support/mcp-client.js";
import { addToStore } from "../../daemon/test/support/nix-store.js";
import { harnessMountsFlag } from "../harness/extra-mounts.js";
import { fakeArtifact, hostileRepo, serverPerTest, type HostileRepo } from "./data-hostile-repo.js";

const HARNESS_PKGS = fileURLToPath(new URL("../harness/pkgs.nix", import.meta.url));
const REPO = fileURLToPath(new URL("../..", import.meta.url));

const each = serverPerTest();

/** A package set directory: the harness stand-in plus `extra` (Nix attributes, `pkgs` in scope). */
function packageSet(extra: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-pkgset-")));
  copyFileSync(HARNESS_PKGS, join(dir, "pkgs.nix"));
  writeFileSync(join(dir, "default.nix"), `{ ... }:\nlet pkgs = import ./pkgs.nix { }; in\npkgs // {\n${extra}\n}\n`);
  return dir;
}

function serverArgs(repo: HostileRepo, source: string, cacheDir: string): string[] {
  return [
    "--metadata",
    each.metadata,
    "--project",
    repo.root,
    "--cache-dir",
    cacheDir,
    "--state-dir",
    join(cacheDir, "..", "state"),
    "--set",
    `nixpkgs.source=${JSON.stringify(source)}`,
    "--set",
    `nixpkgs.nix_options=["--option", "substituters", ""]`,
    ...harnessMountsFlag(),
    "--set",
    "nixpkgs.build_timeout_seconds=120",
  ];
}

interface Execution {
  stdout: string;
  exit_code: number | null;
}

async function execute(handle: ServerHandle, args: Record<string, unknown>): Promise<Execution> {
  const result = await handle.call("nixpkgs_execute", args);
  if (result.isError) throw new Error(`nixpkgs_execute failed: ${textOf(result)}`);
  return result.structuredContent as unknown as Execution;
}

describe("the realise cache is data", () => {
  it("a planted entry (GC root and info leading to a repository script) never runs; the package is realised again", async () => {
    const repo = hostileRepo();
    const cacheDir = join(repo.root, "..", "cache");
    // A pinned nixpkgs (a store path): its realised packages are reused across restarts.
    const source = addToStore(packageSet(""));
    const args = serverArgs(repo, source, cacheDir);
    expect((await execute(await each.start({ args }), { package: "jq", args: ["-n", "1+1"] })).stdout).toBe("2\n");
    await each.stop();

    // Plant: every cache entry now leads to the repository's own artifact and programs.
    const evil = fakeArtifact(repo, "evil", "pkg-jq");
    repo.write("evil/bin/jq", `#!/bin/sh\necho host > '${repo.marker}'\n`, 0o755);
    const tools = join(cacheDir, "nixpkgs-tools");
    const keys = readdirSync(tools)
      .filter((name) => name.endsWith(".json"))
      .map((name) => name.slice(0, -".json".length));
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      rmSync(join(tools, key));
      symlinkSync(evil, join(tools, key));
      writeFileSync(join(tools, `${key}.json`), JSON.stringify({ key, bin: join(evil, "bin"), mainProgram: "jq", pname: "jq" }));
    }

    const server = await each.start({ args });
    const again = await execute(server, { package: "jq", args: ["-n", "1+1"] });
    expect(repo.ran()).toBe(false);
    expect(again.stdout).toBe("2\n");
    expect(server.stderr()).toMatch(/realise cache entry .* refused/);
  }, 300_000);
});

describe("the package set has no authority over the jail", () => {
  it("does not give the jail the package set's hostMounts", async () => {
    const repo = hostileRepo();
    const secret = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-secret-")));
    writeFileSync(join(secret, "token"), "s3cret\n");
    const source = packageSet(`hostMounts = pkgs.hostMounts ++ [ { source = "${secret}"; target = "/stolen"; writable = true; } ];`);
    const server = await each.start({ args: serverArgs(repo, source, join(repo.root, "..", "cache")) });
    const listing = await execute(server, { package: "coreutils", program: "ls", args: ["/"] });
    expect(listing.exit_code).toBe(0);
    expect(listing.stdout).toContain("usr");
    expect(listing.stdout).not.toContain("stolen");
  }, 300_000);

  it("evaluates with unsafe native code off even when the machine's nix.conf allows it", async () => {
    const repo = hostileRepo();
    const source = packageSet(`jq = builtins.seq (builtins.exec [ "/bin/sh" "-c" "echo host > '${repo.marker}'; echo 1" ]) pkgs.jq;`);
    const server = await each.start({
      args: serverArgs(repo, source, join(repo.root, "..", "cache")),
      env: { NIX_CONFIG: "allow-unsafe-native-code-during-evaluation = true" },
    });
    const result = await server.call("nixpkgs_execute", { package: "jq", args: ["-n", "1"] });
    expect(repo.ran()).toBe(false);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/exec|unsafe/);
  }, 300_000);
});

describe("the offline harness through trusted means only", () => {
  it("runs the fixture's host-backed packages given --set nixpkgs.source=tests/fixtures/nixpkgs and the mounts as a flag", async () => {
    const repo = hostileRepo();
    const scratch = join(repo.root, "..");
    const server = await each.start({
      cwd: REPO,
      args: [
        "--project",
        repo.root,
        "--cache-dir",
        join(scratch, "cache"),
        "--state-dir",
        join(scratch, "state"),
        "--set",
        "nixpkgs.source=tests/fixtures/nixpkgs",
        "--set",
        `nixpkgs.nix_options=["--option", "substituters", ""]`,
        ...harnessMountsFlag(),
      ],
    });
    expect((await execute(server, { package: "jq", args: ["-n", "6*7"] })).stdout).toBe("42\n");
  }, 300_000);
});
