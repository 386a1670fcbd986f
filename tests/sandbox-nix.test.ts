// The flake's own Nix library (evaluated offline with the host-backed stand-in for nixpkgs):
// argument errors that say what is wrong, fromToml, an artifact that works by hand, and a custom
// mkSandbox linked into a sandbox directory that the daemon then serves.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startServer, textOf } from "../daemon/test/support/mcp-client.js";
import { build, evaluate } from "./support/nix-lib.js";

describe("nixshed.lib", () => {
  it("mkSandbox rejects a misspelt argument, listing the valid ones", () => {
    expect(() =>
      evaluate(`(nixshed.lib.mkSandbox { inherit pkgs; name = "data"; interpreter = "python"; memoryMB = 64; }).metadata`),
    ).toThrow(/unknown argument\(s\) memoryMB; valid: pkgs, name, description, interpreter, packages, timeoutSeconds, memoryMb/);
  });

  it("mkSandbox accepts exactly mkEnvironment's arguments", () => {
    const environmentArgs: string[] = evaluate(`builtins.attrNames (builtins.functionArgs nixshed.lib.mkEnvironment)`);
    let valid: string[] = [];
    try {
      evaluate(`(nixshed.lib.mkSandbox { inherit pkgs; name = "data"; interpreter = "python"; bogus = 1; }).metadata`);
    } catch (error) {
      valid = /valid: ([\w, ]+)/.exec(String(error))?.[1]?.split(", ") ?? [];
    }
    expect([...valid].sort()).toEqual([...environmentArgs].sort());
  });

  it("mkEnvironment says which argument is wrong and what is allowed", () => {
    expect(() => evaluate(`(nixshed.lib.mkEnvironment { inherit pkgs; name = "data"; interpreter = "ruby"; }).metadata`)).toThrow(
      /environment "data": interpreter must be one of "bash", "python", "node", not "ruby"/,
    );
    expect(() =>
      evaluate(`(nixshed.lib.mkEnvironment { inherit pkgs; name = "data"; interpreter = "bash"; mounts = [ "relative" ]; }).metadata`),
    ).toThrow(/mount relative -> relative: both must be absolute paths/);
    // A path literal is checked as its string: /etc is the jail's own, however it is written.
    expect(() =>
      evaluate(
        `(nixshed.lib.mkEnvironment { inherit pkgs; name = "data"; interpreter = "bash"; mounts = [ { source = /etc; } ]; }).metadata`,
      ),
    ).toThrow(/mount target \/etc is managed by the jail itself/);
  });

  it("fromToml builds the [environments.<name>] tables with config.example.toml's keys", () => {
    const dir = mkdtempSync(join(tmpdir(), "nixshed-toml-"));
    writeFileSync(
      join(dir, "nixshed.toml"),
      `[fs]\nread_only = true\n\n[environments.data]\npreset = "python"\ndescription = "data work"\npackages = ["jq", "python3Packages.numpy"]\nmemory_mb = 1024\nproject_access = "rw"\n`,
    );
    const metadata = evaluate(`(nixshed.lib.fromToml pkgs ${dir}/nixshed.toml).data.metadata`);
    expect(metadata).toMatchObject({ name: "data", description: "data work", interpreter: "python", projectAccess: "rw" });
    expect(metadata.limits).toEqual({ timeoutSeconds: 30, memoryMb: 1024, maxProcesses: 256, workspaceMb: 256 });
    expect(metadata.packages.map((p: { name: string }) => p.name)).toEqual(["python3", "jq", "numpy"]);

    writeFileSync(join(dir, "bad.toml"), `[environments.data]\npreset = "python"\nmemory = 1024\n`);
    expect(() => evaluate(`(nixshed.lib.fromToml pkgs ${dir}/bad.toml).data.metadata`)).toThrow(
      /\[environments.data\]: unknown key\(s\) memory/,
    );
  });

  it("gives network, DNS configuration and CA certificates only to an environment with network = true", () => {
    const dir = mkdtempSync(join(tmpdir(), "nixshed-net-"));
    const probe =
      "import os, socket\nprint(sorted(n for _, n in socket.if_nameindex()) != ['lo'], os.path.exists('/etc/ssl/certs/ca-certificates.crt'), os.environ.get('SSL_CERT_FILE'))";
    build(`nixshed.lib.mkSandbox { inherit pkgs mounts; name = "online"; interpreter = "python"; network = true; }`, join(dir, "online"));
    build(`nixshed.lib.mkSandbox { inherit pkgs mounts; name = "offline"; interpreter = "python"; }`, join(dir, "offline"));
    expect(execFileSync(join(dir, "online", "bin", "run"), { input: probe }).toString()).toBe(
      "True True /etc/ssl/certs/ca-certificates.crt\n",
    );
    expect(execFileSync(join(dir, "offline", "bin", "run"), { input: probe }).toString()).toBe("False False None\n");
  }, 120_000);

  it("builds a custom sandbox that runs by hand and that the daemon serves from a sandbox directory", async () => {
    const home = mkdtempSync(join(tmpdir(), "nixshed-xdg-"));
    const sandboxes = join(home, "nixshed", "sandboxes");
    mkdirSync(sandboxes, { recursive: true });
    const link = join(sandboxes, "data");
    build(
      `nixshed.lib.mkSandbox { inherit pkgs mounts; name = "data"; description = "numbers"; interpreter = "python"; packages = [ (pkgs.python3.withPackages (ps: [ ps.numpy ])) pkgs.jq ]; }`,
      link,
    );
    expect(execFileSync(join(link, "bin", "run"), { input: "import numpy\nprint(numpy.arange(4).sum())" }).toString()).toBe("6\n");

    const server = await startServer({ args: ["--project", home], env: { XDG_CONFIG_HOME: home } });
    try {
      const { tools } = await server.client.listTools();
      expect(tools.find((tool) => tool.name === "run")?.description).toContain("- data: numbers (python, ");
      const result = await server.call("run", { env: "data", code: "import numpy; print(numpy.ones(3).sum())" });
      expect(textOf(result)).toContain("3.0");
    } finally {
      await server.close();
    }
  }, 120_000);
});
