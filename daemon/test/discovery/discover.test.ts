// Discovery against artifacts made by hand and added to the Nix store: what is served, what
// overrides what, that an invalid entry is skipped with a note that says why instead of failing
// startup, and that nothing outside the store is served however it is named.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";
import { loadConfig } from "../../src/config/load.js";
import { discover } from "../../src/discovery/discover.js";
import { addToStore } from "../support/nix-store.js";

const root = mkdtempSync(join(tmpdir(), "nixshed-discovery-"));
mkdirSync(join(root, "source"));
writeFileSync(join(root, "source", "default.nix"), "{ ... }: { }\n");
const source = addToStore(join(root, "source"));

/** A hand-made artifact directory, outside the store. */
function artifactDir(dir: string, name: string, overrides: Record<string, unknown> = {}): string {
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

/** The same, as a store path. */
const artifact = (dir: string, name: string, overrides: Record<string, unknown> = {}) => addToStore(artifactDir(dir, name, overrides));

function metadataPath(environments: Record<string, string>): string {
  const path = join(root, `metadata-${Object.keys(environments).join("-")}`);
  mkdirSync(path);
  const entries = Object.fromEntries(Object.entries(environments).map(([name, artifact]) => [name, { artifact, metadata: {} }]));
  writeFileSync(join(path, "environments.json"), JSON.stringify({ schemaVersion: 1, environments: entries }));
  writeFileSync(join(path, "nixpkgs.json"), JSON.stringify({ source: source, rev: "abc" }));
  mkdirSync(join(path, "lib"));
  writeFileSync(join(path, "lib", "default.nix"), "{ }\n");
  return addToStore(path);
}

async function run(metadata: string, dirs: string[], env: Record<string, string> = {}, cwd = root) {
  const lines: string[] = [];
  const loaded = loadConfig({
    cwd,
    env: { NIXSHED_METADATA: metadata, NIXSHED_SANDBOX__DIRS: JSON.stringify(dirs), ...env },
    systemConfig: "/nonexistent",
  });
  const found = await discover(
    loaded,
    createLogger("info", (line) => lines.push(line)),
    { env: { XDG_CONFIG_HOME: join(root, "xdg") }, systemDir: "/nonexistent" },
  );
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
    expect(found.nixpkgs).toEqual({ source, lib: join(metadata, "lib") });
    expect(found.notes).toEqual([]);
  });

  it("warns of an environment the configuration declares that is not built, and serves the rest", async () => {
    const { found, lines } = await run(metadata, [], { NIXSHED_ENVIRONMENTS__DATA__PRESET: "python" });
    expect([...found.environments.keys()].sort()).toEqual(["python", "shell"]);
    expect(found.notes).toEqual([
      expect.stringMatching(/^\[environments\.data\] is declared in the configuration but not built, so it is not served: build it with /),
    ]);
    expect(lines.join("\n")).toContain("[environments.data] is declared");
  });

  it("says nothing of environments an untrusted project declares: they are not the user's to build", async () => {
    const project = join(root, "planted-project");
    mkdirSync(project);
    const planted = Array.from({ length: 50 }, (_, i) => `[environments.planted${i}]\npreset = "python"\n`).join("");
    writeFileSync(join(project, ".nixshed.toml"), planted);
    const { found, lines } = await run(metadata, [], { XDG_STATE_HOME: join(project, "state") }, project);
    expect(found.notes).toEqual([]);
    expect(lines.join("\n")).not.toContain("planted");
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
    writeFileSync(join(root, "empty-artifact", "README"), "nothing\n");
    symlinkSync(addToStore(join(root, "empty-artifact")), join(dir, "empty"));
    const noRun = artifactDir("no-run", "norun");
    chmodSync(join(noRun, "bin", "run"), 0o644);
    symlinkSync(addToStore(noRun), join(dir, "norun"));
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

  it("notes a sandbox directory it cannot read (not absent: a link loop), and still reads the others", async () => {
    const loop = join(root, "sandboxes-loop");
    symlinkSync(loop, loop);
    const dir = join(root, "sandboxes-after-loop");
    mkdirSync(dir);
    symlinkSync(artifact("after-loop", "afterloop"), join(dir, "afterloop"));
    const { found } = await run(metadata, [join(root, "sandboxes-absent"), loop, dir]);
    expect(found.environments.has("afterloop")).toBe(true);
    expect(found.notes).toEqual([expect.stringMatching(new RegExp(`sandbox directory ${loop} skipped: .*ELOOP`))]);
  });

  it("says an entry that cannot be resolved (a link loop) is refused, not that it does not exist", async () => {
    const dir = join(root, "sandboxes-entry-loop");
    mkdirSync(dir);
    symlinkSync(join(dir, "loop"), join(dir, "loop"));
    const { found } = await run(metadata, [dir]);
    expect(found.notes).toEqual([expect.stringMatching(/artifact .*\/loop cannot be resolved \(.*ELOOP.*\); refused/)]);
  });

  it("names the metadata's nixpkgs.json that is not what lib.mkMetadata writes, once, and serves the rest", async () => {
    const path = join(root, "metadata-bad-pinned");
    mkdirSync(path);
    writeFileSync(join(path, "environments.json"), JSON.stringify({ environments: { shell: { artifact: shell } } }));
    writeFileSync(join(path, "nixpkgs.json"), JSON.stringify({ source: 42 }));
    const stored = addToStore(path);
    const { found } = await run(stored, []);
    expect(found.environments.has("shell")).toBe(true);
    expect(found.notes).toEqual([`metadata file skipped: ${stored}/nixpkgs.json: source: Invalid input: expected string, received number`]);
  });

  it("names the metadata.json that is not JSON", async () => {
    const dir = join(root, "sandboxes-not-json");
    mkdirSync(dir);
    const broken = artifactDir("not-json", "notjson");
    writeFileSync(join(broken, "metadata.json"), "{ not json");
    symlinkSync(addToStore(broken), join(dir, "notjson"));
    const { found } = await run(metadata, [dir]);
    expect(found.notes).toEqual([expect.stringMatching(/\/metadata\.json: not JSON/)]);
  });

  it("notes a metadata path that is not one", async () => {
    const { found } = await run(artifact("not-metadata", "shell"), []);
    expect(found.environments.size).toBe(0);
    expect(found.notes[0]).toMatch(/cannot read environments.json/);
  });

  it("serves nothing outside the store: not an artifact, not a bin/run leading out, not a metadata path", async () => {
    const dir = join(root, "sandboxes-outside");
    mkdirSync(dir);
    const outside = artifactDir("outside", "shell");
    symlinkSync(outside, join(dir, "shell"));
    const leaking = join(root, "leaking");
    mkdirSync(join(leaking, "bin"), { recursive: true });
    writeFileSync(join(leaking, "metadata.json"), JSON.stringify(JSON.parse(readFileSync(join(outside, "metadata.json"), "utf8"))));
    symlinkSync(join(outside, "bin", "run"), join(leaking, "bin", "run"));
    symlinkSync(addToStore(leaking), join(dir, "leaking"));
    const { found } = await run(metadata, [dir]);
    expect(found.environments.get("shell")).toMatchObject({ origin: "metadata" });
    expect(found.notes.find((note) => note.includes("/sandboxes-outside/shell"))).toMatch(
      new RegExp(`not in the Nix store /nix/store \\(it resolves to ${outside}\\)`),
    );
    expect(found.notes.find((note) => note.includes("/bin/run"))).toMatch(/bin\/run .* is not in the Nix store/);

    const handMade = join(root, "metadata-by-hand");
    mkdirSync(handMade);
    writeFileSync(join(handMade, "environments.json"), JSON.stringify({ environments: { shell: { artifact: outside } } }));
    const byHand = await run(handMade, []);
    expect(byHand.found.environments.size).toBe(0);
    expect(byHand.found.notes[0]).toMatch(/^metadata .*metadata-by-hand is not in the Nix store/);
  });

  it("takes no pinned nixpkgs, library or index that leads out of the store", async () => {
    const path = join(root, "metadata-leading-out");
    mkdirSync(path);
    writeFileSync(join(path, "environments.json"), JSON.stringify({ environments: {} }));
    writeFileSync(join(path, "nixpkgs.json"), JSON.stringify({ source: join(root, "source") }));
    symlinkSync(join(root, "source"), join(path, "lib"));
    writeFileSync(join(root, "index.idx"), "NIXSHEDIDX");
    symlinkSync(join(root, "index.idx"), join(path, "nixpkgs-index"));
    const { found } = await run(addToStore(path), []);
    expect(found.nixpkgs).toEqual({});
    expect(found.notes).toHaveLength(3);
    expect(found.notes.every((note) => /not in the Nix store/.test(note))).toBe(true);
  });
});
