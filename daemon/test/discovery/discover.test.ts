// Discovery against artifacts made by hand: what is served, what overrides what, and that an
// invalid entry is skipped with a note that says why instead of failing startup.
import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/common/log.js";
import { loadConfig } from "../../src/config/load.js";
import { discover } from "../../src/discovery/discover.js";

const root = mkdtempSync(join(tmpdir(), "nixshed-discovery-"));

function artifact(dir: string, name: string, overrides: Record<string, unknown> = {}): string {
  const path = join(root, dir);
  mkdirSync(join(path, "bin"), { recursive: true });
  const metadata = {
    schemaVersion: 1,
    name,
    description: `the ${name} environment`,
    interpreter: "bash",
    packages: [{ name: "jq", version: "1.7" }],
    limits: { timeoutSeconds: 30, memoryMb: 512, maxProcesses: 256, workspaceMb: 256 },
    network: false,
    projectAccess: "ro",
    ...overrides,
  };
  writeFileSync(join(path, "metadata.json"), JSON.stringify(metadata));
  writeFileSync(join(path, "bin", "run"), "#!/bin/sh\n");
  chmodSync(join(path, "bin", "run"), 0o755);
  return path;
}

function metadataPath(environments: Record<string, string>): string {
  const path = join(root, `metadata-${Object.keys(environments).join("-")}`);
  mkdirSync(path);
  const entries = Object.fromEntries(Object.entries(environments).map(([name, artifact]) => [name, { artifact, metadata: {} }]));
  writeFileSync(join(path, "environments.json"), JSON.stringify({ schemaVersion: 1, environments: entries }));
  writeFileSync(join(path, "nixpkgs.json"), JSON.stringify({ source: "/nix/store/x-source", rev: "abc" }));
  mkdirSync(join(path, "lib"));
  return path;
}

async function run(metadata: string, dirs: string[]) {
  const lines: string[] = [];
  const loaded = loadConfig({
    cwd: root,
    env: { NIXSHED_METADATA: metadata, NIXSHED_SANDBOX__DIRS: JSON.stringify(dirs) },
    systemConfig: "/nonexistent",
  });
  const found = await discover(loaded, createLogger("info", (line) => lines.push(line)), { env: { XDG_CONFIG_HOME: join(root, "xdg") }, systemDir: "/nonexistent" });
  return { found, lines };
}

describe("discover", () => {
  const shell = artifact("shell", "shell");
  const python = artifact("python", "python", { interpreter: "python" });
  const metadata = metadataPath({ shell, python });

  it("serves the metadata's environments with their own metadata.json and the nixpkgs facts", async () => {
    const { found } = await run(metadata, []);
    expect([...found.environments.keys()].sort()).toEqual(["python", "shell"]);
    expect(found.environments.get("python")).toMatchObject({ interpreter: "python", artifact: python, origin: "metadata" });
    expect(found.nixpkgs).toEqual({ source: "/nix/store/x-source", lib: join(metadata, "lib") });
    expect(found.notes).toEqual([]);
  });

  it("lets a custom sandbox override a preset of the same name, with a log line", async () => {
    const dir = join(root, "sandboxes-override");
    mkdirSync(dir);
    const custom = artifact("custom-shell", "shell", { description: "my shell" });
    symlinkSync(custom, join(dir, "shell"));
    const { found, lines } = await run(metadata, [dir]);
    expect(found.environments.get("shell")).toMatchObject({ description: "my shell", origin: dir });
    expect(lines.join("")).toContain(`sandbox shell from ${dir} overrides the one from metadata`);
  });

  it("skips invalid entries, saying why, and keeps the valid ones", async () => {
    const dir = join(root, "sandboxes-broken");
    mkdirSync(dir);
    symlinkSync(join(root, "nowhere"), join(dir, "dangling"));
    symlinkSync(artifact("bad-schema", "data", { interpreter: "ruby" }), join(dir, "bad"));
    mkdirSync(join(root, "empty-artifact"));
    symlinkSync(join(root, "empty-artifact"), join(dir, "empty"));
    const noRun = artifact("no-run", "norun");
    chmodSync(join(noRun, "bin", "run"), 0o644);
    symlinkSync(noRun, join(dir, "norun"));
    symlinkSync(artifact("data", "data"), join(dir, "data"));
    const { found } = await run(metadata, [dir]);
    expect(found.environments.has("data")).toBe(true);
    expect(found.environments.has("norun")).toBe(false);
    expect(found.notes).toHaveLength(4);
    expect(found.notes.find((note) => note.includes("/norun"))).toMatch(/bin\/run is missing or not executable/);
    expect(found.notes.find((note) => note.includes("dangling"))).toMatch(/does not exist/);
    expect(found.notes.find((note) => note.includes("/bad"))).toMatch(/interpreter/);
    expect(found.notes.find((note) => note.includes("/empty"))).toMatch(/no readable metadata.json/);
  });

  it("notes a metadata path that is not one", async () => {
    const { found } = await run(join(root, "shell"), []);
    expect(found.environments.size).toBe(0);
    expect(found.notes[0]).toMatch(/cannot read environments.json/);
  });
});
