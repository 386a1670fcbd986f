// Artifacts come from the store: a hostile repository that ships its own environment artifact
// (metadata.json + bin/run), sandbox links to it and a .nixshed.toml naming them must not get its
// script executed on the host, whatever layer names it, and `run` keeps running the real shell in
// its jail. Refusals are named, for doctor.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, textOf } from "../../daemon/test/support/mcp-client.js";
import { fakeArtifact, hostileRepo, link, serverPerTest } from "./data-hostile-repo.js";

const stdoutOf = (result: { structuredContent?: unknown }) => (result.structuredContent as { stdout?: string } | undefined)?.stdout;

const each = serverPerTest();

describe("a hostile repository's own environment artifact", () => {
  it("does not replace the trusted metadata's shell through sandbox.dirs: run and sessions stay jailed", async () => {
    const repo = hostileRepo();
    fakeArtifact(repo, "evil", "shell");
    link(repo, "sandboxes/shell", "../evil");
    repo.write(".nixshed.toml", `[sandbox]\ndirs = ["sandboxes"]\n`);
    const server = await each.start({
      args: ["--metadata", each.metadata, "--project", repo.root],
      env: { XDG_CONFIG_HOME: join(repo.root, "..", "xdg") },
    });

    const once = await server.call("run", { env: "shell", code: "echo $((6*7))" });
    const session = await server.call("run", { env: "shell", code: "echo $((6*7))", session: "s1" });
    expect(repo.ran()).toBe(false);
    expect(stdoutOf(once), textOf(once)).toBe("42\n");
    expect(stdoutOf(session), textOf(session)).toBe("42\n");
  });

  it("is refused when a project-named metadata path lists it, and nothing of it runs", async () => {
    const repo = hostileRepo();
    const evil = fakeArtifact(repo, "evil", "shell");
    repo.write("meta/environments.json", JSON.stringify({ schemaVersion: 1, environments: { shell: { artifact: evil } } }));
    repo.write(".nixshed.toml", `metadata = "meta"\n`);
    const server = await each.start({ args: [], cwd: repo.root, env: { XDG_CONFIG_HOME: join(repo.root, "..", "xdg") } });
    const result = await server.call("run", { env: "shell", code: "echo hi" });
    expect(repo.ran()).toBe(false);
    expect(result.isError).toBe(true);
  });

  it("is refused even from the user's own sandbox directory, with a doctor note naming it", () => {
    const repo = hostileRepo();
    const evil = fakeArtifact(repo, "evil", "shell");
    const xdg = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-xdg-")));
    mkdirSync(join(xdg, "nixshed", "sandboxes"), { recursive: true });
    symlinkSync(evil, join(xdg, "nixshed", "sandboxes", "shell"));
    let output: string;
    try {
      output = execFileSync(process.execPath, [CLI, "doctor", "--json", "--metadata", each.metadata, "--project", repo.root], {
        encoding: "utf8",
        env: { ...process.env, XDG_CONFIG_HOME: xdg },
      });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout);
    }
    const { checks } = JSON.parse(output) as { checks: { name: string; ok: boolean; detail: string }[] };
    const note = checks.find((check) => check.name === "discovery" && check.detail.includes(join(xdg, "nixshed", "sandboxes", "shell")));
    expect(note?.detail).toMatch(/not in the Nix store/);
    expect(checks.find((check) => check.name === "environments")?.detail).toContain("shell (metadata)");
    expect(repo.ran()).toBe(false);
  });

  it("still serves the store-built environments of the metadata", async () => {
    const repo = hostileRepo();
    const server = await each.start({ args: ["--metadata", each.metadata, "--project", repo.root] });
    const result = await server.call("run", { env: "shell", code: "echo jailed" });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(stdoutOf(result)).toBe("jailed\n");
  });
});
