// The host runs no program a repository planted, even when PATH has an empty or relative entry (a
// leading ':' is a common slip in a shell profile): such an entry means the working directory, the
// server's is the project, and a bare program name (rg, git, bwrap, nix) looked up through it would
// find the repository's own ./rg. nixshed looks programs up in PATH's absolute directories only.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, startServer, textOf, type ServerHandle } from "../../daemon/test/support/mcp-client.js";
import { harnessMetadata } from "../harness/metadata.js";
import { hostileRepo, type HostileRepo, markerScript } from "./data-hostile-repo.js";

let repo: HostileRepo;
let server: ServerHandle;

beforeAll(async () => {
  repo = hostileRepo();
  for (const program of ["rg", "git", "bwrap", "sh", "nix", "nix-env", "nix-store", "systemd-run", "id", "mkdir", "cat", "rm"])
    repo.write(program, markerScript(repo), 0o755);
  repo.write("notes.txt", "needle\n");
  mkdirSync(`${repo.root}/sub`);
  repo.write("sub/more.txt", "needle\n");
  server = await startServer({
    cwd: repo.root,
    args: ["--metadata", harnessMetadata(), "--project", repo.root, "--cache-dir", `${repo.root}/../cache`],
    env: { PATH: `:.:${process.env.PATH ?? ""}` },
  });
}, 300_000);

afterAll(async () => {
  await server?.close();
});

describe("a program planted in the project, with '' and '.' on PATH", () => {
  it("doctor runs none of it, nor do the programs it starts (bwrap's true, in a read-only view of the host)", () => {
    rmSync(repo.marker, { force: true });
    // Where it cannot write the marker (bwrap binds / read-only), it says so in doctor's output.
    repo.write("true", "#!/bin/sh\necho planted true ran\nexit 1\n", 0o755);
    const doctor = spawnSync(process.execPath, [CLI, "doctor", "--metadata", harnessMetadata(), "--project", repo.root], {
      cwd: repo.root,
      env: { ...process.env, PATH: `:.:${process.env.PATH ?? ""}` },
      encoding: "utf8",
    });
    expect(doctor.stdout).toMatch(/user namespaces/);
    expect(doctor.stdout).not.toMatch(/planted true ran/);
    expect(repo.ran(), "doctor ran a program of the repository").toBe(false);
  });

  it.each([
    ["search_files", { pattern: "needle", path: "notes.txt" }],
    ["search_files", { pattern: "needle" }],
    ["list_files", {}],
    ["list_files", { path: "sub" }],
    ["run", { env: "shell", code: "echo $((6*7))" }],
  ])("%s %j runs none of it", async (tool, args) => {
    rmSync(repo.marker, { force: true });
    const result = await server.call(tool, args);
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(repo.ran(), `${tool} ran a program of the repository`).toBe(false);
  });
});
