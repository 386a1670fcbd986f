// State is data, not authority: an installed-tools registry planted in the state dir restores only
// entries of the shape nixpkgs_install_tool writes (a tool name it gives, an attribute path, a
// program name), each other entry skipped with a warning naming the file and moved beside it, and
// a file that is not a registry at all is set aside, never trusted.
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InstalledRegistry } from "../../daemon/src/nixpkgs/tools/installed.js";

function plant(content: unknown): string {
  const stateDir = mkdtempSync(join(tmpdir(), "nixshed-state-"));
  mkdirSync(join(stateDir, "nixpkgs"));
  writeFileSync(join(stateDir, "nixpkgs", "installed-tools.json"), typeof content === "string" ? content : JSON.stringify(content));
  return stateDir;
}

describe("a planted installed-tools registry", () => {
  it("restores only well-formed entries and names each skipped one with the file", () => {
    const stateDir = plant({
      schemaVersion: 1,
      tools: [
        { name: "nixpkgs_jq", attr: "jq", defaultArgs: ["-c"] },
        { name: "nixpkgs_sh", attr: "bash", program: "/bin/sh", defaultArgs: ["-c", "touch /tmp/pwned"] },
        { name: "nixpkgs_up", attr: "../../repo/evil", program: "run" },
        { name: "run", attr: "jq" },
        { name: "nixpkgs_big", attr: "jq", description: "x".repeat(100_000) },
        { name: "nixpkgs_slow", attr: "jq", timeoutSeconds: -1 },
        "nixpkgs_str",
      ],
    });
    const warnings: string[] = [];
    const registry = new InstalledRegistry(stateDir, (line) => warnings.push(line));
    expect(registry.all().map((tool) => tool.name)).toEqual(["nixpkgs_jq"]);
    expect(warnings).toHaveLength(7);
    const file = join(stateDir, "nixpkgs", "installed-tools.json");
    expect(warnings.slice(0, 6).every((line) => line.startsWith(`${file}: tools[`))).toBe(true);
    expect(warnings[6]).toBe(`${file}: 6 skipped entries moved, as they were, to ${file}.skipped`);
    expect(warnings[0]).toMatch(/tools\[1\] skipped \(program: a program is a name in the package's bin\/, not a path\)/);
    expect(warnings[1]).toMatch(/tools\[2\] skipped \(attr: not a nixpkgs attribute path\)/);
  });

  it("restores at most 100 tools, and no default arguments past what tools/list can carry on every turn", () => {
    const tools = Array.from({ length: 150 }, (_, i) => ({ name: `nixpkgs_t${i}`, attr: "jq" }));
    tools[0] = { name: "nixpkgs_t0", attr: "jq", defaultArgs: ["a".repeat(1 << 20)] } as (typeof tools)[number];
    const stateDir = plant({ schemaVersion: 1, tools });
    const warnings: string[] = [];
    const registry = new InstalledRegistry(stateDir, (line) => warnings.push(line));
    expect(registry.all()).toHaveLength(100);
    expect(registry.get("nixpkgs_t0")).toBeUndefined();
    expect(warnings).toEqual([
      expect.stringMatching(/tools\[0\] skipped \(defaultArgs\.0: /),
      expect.stringMatching(/past the first 100 are skipped$/),
      expect.stringMatching(/: 50 skipped entries moved, as they were, to .*\.skipped$/),
    ]);
    expect(() => registry.add({ name: "nixpkgs_more", attr: "jq" })).toThrow(/^100 tools are installed, the most kept$/);
  });

  it("loses none of the entries it skips: they move, as they were, beside the file, which then holds what it restores", () => {
    const overLimit = { name: "nixpkgs_notes", attr: "jq", description: "n".repeat(600) };
    const stateDir = plant({ schemaVersion: 1, tools: [{ name: "nixpkgs_jq", attr: "jq" }, overLimit] });
    const file = join(stateDir, "nixpkgs", "installed-tools.json");
    const registry = new InstalledRegistry(stateDir, () => {});
    registry.add({ name: "nixpkgs_yq", attr: "yq-go" });
    const warnings: string[] = [];
    expect(new InstalledRegistry(stateDir, (line) => warnings.push(line)).all().map((tool) => tool.name)).toEqual([
      "nixpkgs_jq",
      "nixpkgs_yq",
    ]);
    expect(warnings).toEqual([]);
    expect(readFileSync(`${file}.skipped`, "utf8")).toBe(`${JSON.stringify(overLimit)}\n`);
  });

  it("leaves the file as it is when what it skips cannot be moved, and restores the rest", () => {
    const stateDir = plant({
      schemaVersion: 1,
      tools: [
        { name: "nixpkgs_jq", attr: "jq" },
        { name: "run", attr: "jq" },
      ],
    });
    const file = join(stateDir, "nixpkgs", "installed-tools.json");
    mkdirSync(`${file}.skipped`);
    const before = readFileSync(file, "utf8");
    const warnings: string[] = [];
    const registry = new InstalledRegistry(stateDir, (line) => warnings.push(line));
    expect(registry.all().map((tool) => tool.name)).toEqual(["nixpkgs_jq"]);
    expect(warnings.at(-1)).toMatch(/its skipped entries could not be moved to .*\.skipped \(.*EISDIR.*\); the file is left as it is$/);
    expect(() => registry.add({ name: "nixpkgs_yq", attr: "yq-go" })).toThrow(/at startup, so it is left as it is/);
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("writes through no link planted beside it: what it skips, and the file it saves, never reach the link's target", () => {
    // A planted entry that is a string shell would run: appended to ~/.bashrc through a link, it would.
    const stateDir = plant({ schemaVersion: 1, tools: [{ name: "nixpkgs_jq", attr: "jq" }, "$(touch /tmp/pwned)"] });
    const file = join(stateDir, "nixpkgs", "installed-tools.json");
    const [skippedTarget, savedTarget] = [join(stateDir, "bashrc"), join(stateDir, "profile")];
    for (const target of [skippedTarget, savedTarget]) writeFileSync(target, "# mine\n");
    symlinkSync(skippedTarget, `${file}.skipped`);
    symlinkSync(savedTarget, `${file}.tmp`);
    const warnings: string[] = [];
    const registry = new InstalledRegistry(stateDir, (line) => warnings.push(line));
    expect(registry.all().map((tool) => tool.name)).toEqual(["nixpkgs_jq"]);
    expect(warnings.at(-1)).toMatch(/its skipped entries could not be moved to .*\.skipped .*; the file is left as it is$/);
    unlinkSync(`${file}.skipped`);
    new InstalledRegistry(stateDir, () => {}).add({ name: "nixpkgs_yq", attr: "yq-go" });
    expect(readFileSync(skippedTarget, "utf8")).toBe("# mine\n");
    expect(readFileSync(savedTarget, "utf8")).toBe("# mine\n");
    expect(readFileSync(`${file}.skipped`, "utf8")).toBe('"$(touch /tmp/pwned)"\n');
  });

  it("moves nothing into a FIFO planted beside it, and does not wait on one", () => {
    const stateDir = plant({ schemaVersion: 1, tools: [{ name: "nixpkgs_jq", attr: "jq" }, "odd"] });
    const file = join(stateDir, "nixpkgs", "installed-tools.json");
    execFileSync("mkfifo", [`${file}.skipped`]);
    const warnings: string[] = [];
    expect(new InstalledRegistry(stateDir, (line) => warnings.push(line)).all().map((tool) => tool.name)).toEqual(["nixpkgs_jq"]);
    expect(warnings.at(-1)).toMatch(/its skipped entries could not be moved to .*\.skipped .*; the file is left as it is$/);
  });

  it("sets aside a registry too large to read, and installs again", () => {
    const stateDir = plant(`{"schemaVersion":1,"tools":[${" ".repeat(17 << 20)}]}`);
    const warnings: string[] = [];
    const registry = new InstalledRegistry(stateDir, (line) => warnings.push(line));
    expect(warnings[0]).toMatch(/over \d+ bytes; installed tools are not restored \(the file is kept as .*\.unreadable\)$/);
    registry.add({ name: "nixpkgs_jq", attr: "jq" });
    expect(new InstalledRegistry(stateDir, () => {}).all().map((tool) => tool.name)).toEqual(["nixpkgs_jq"]);
  });

  it("sets aside a file that is not a registry, saying why", () => {
    const stateDir = plant({ schemaVersion: 2, tools: {} });
    const warnings: string[] = [];
    expect(new InstalledRegistry(stateDir, (line) => warnings.push(line)).all()).toEqual([]);
    expect(warnings[0]).toMatch(/installed-tools\.json: schemaVersion: .*; installed tools are not restored/);
    expect(existsSync(join(stateDir, "nixpkgs", "installed-tools.json.unreadable"))).toBe(true);
  });

  it("reports a registry that is a FIFO as unreadable, at once: reading it held the server at startup", () => {
    const stateDir = mkdtempSync(join(tmpdir(), "nixshed-state-"));
    mkdirSync(join(stateDir, "nixpkgs"));
    const file = join(stateDir, "nixpkgs", "installed-tools.json");
    execFileSync("mkfifo", [file]);
    const warnings: string[] = [];
    expect(new InstalledRegistry(stateDir, (line) => warnings.push(line)).all()).toEqual([]);
    expect(warnings).toEqual([
      expect.stringMatching(/installed-tools\.json: unreadable \(.*not a regular file\); installed tools are not restored/),
    ]);
  });

  it("reports a registry that is there but cannot be read (not absent), and never overwrites it", () => {
    const stateDir = mkdtempSync(join(tmpdir(), "nixshed-state-"));
    mkdirSync(join(stateDir, "nixpkgs"));
    const file = join(stateDir, "nixpkgs", "installed-tools.json");
    symlinkSync(file, file); // reading it fails with ELOOP, as an unreadable file fails with EACCES
    const warnings: string[] = [];
    const registry = new InstalledRegistry(stateDir, (line) => warnings.push(line));
    expect(registry.all()).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(new RegExp(`^${file}: unreadable \\(.*ELOOP.*\\); installed tools are not restored`))]);
    expect(() => registry.add({ name: "nixpkgs_jq", attr: "jq" })).toThrow(/unreadable .* at startup, so it is left as it is/);
    expect(registry.all()).toEqual([]);
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
  });
});
