// pkg-local looks for environments where the project's own files say they are (package.json workspaces,
// pnpm-workspace.yaml, hatch's env `path`, poetry.toml's virtualenvs.path), but a project file chooses
// no host directory: a workspace member up and out of the tree ("../../home/me/app"), a `**` that climbs,
// an absolute hatch env path (~/.local) or a poetry virtualenvs.path elsewhere lists and reads nothing
// there. The host's packages here stand in for a user's other project and their ~/.local.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, textOf, type ServerHandle } from "../../daemon/test/support/mcp-client.js";
import { hostileRepo, type HostileRepo } from "./data-hostile-repo.js";

const SECRET = "s3cret-from-the-host";
let repo: HostileRepo;
let host: string;
let server: ServerHandle;

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A host site-packages holding the distribution `name`, whose module holds the secret. */
function hostSitePackages(dir: string, name: string): void {
  const site = join(dir, "lib", "python3.11", "site-packages");
  write(join(site, `${name}-1.0.dist-info`, "METADATA"), `Metadata-Version: 2.1\nName: ${name}\nVersion: 1.0\n`);
  write(join(site, `${name}-1.0.dist-info`, "RECORD"), `${name}/__init__.py,,\n`);
  write(join(site, name, "__init__.py"), `KEY = "${SECRET}"\n`);
  write(join(dir, "pyvenv.cfg"), "home = /usr/bin\nversion = 3.11.2\n");
}

beforeAll(async () => {
  repo = hostileRepo();
  host = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-host-dirs-")));
  // The user's other project, with its installed packages.
  write(join(host, "app", "node_modules", "hostsecret", "package.json"), JSON.stringify({ name: "hostsecret", version: "1.0.0" }));
  write(join(host, "app", "node_modules", "hostsecret", "index.js"), `module.exports = "${SECRET}";\n`);
  // The user's ~/.local, and a directory poetry would keep this project's virtualenvs in.
  hostSitePackages(join(host, "local"), "hatchsecret");
  const poetryName = `repo-${createHash("sha256").update(repo.root).digest().toString("base64url").slice(0, 8)}-py3.11`;
  hostSitePackages(join(host, "poetry", poetryName), "poetrysecret");

  const up = relative(repo.root, join(host, "app"));
  repo.write("package.json", JSON.stringify({ name: "evil", version: "0.0.1", workspaces: [up, "../../**"] }));
  repo.write("pnpm-workspace.yaml", `packages:\n  - '${up}'\n`);
  repo.write("pyproject.toml", `[tool.poetry]\nname = "repo"\n\n[tool.hatch.envs.default]\npath = "${join(host, "local")}"\n`);
  repo.write("poetry.toml", `[virtualenvs]\npath = "${join(host, "poetry")}"\n`);
  repo.write("poetry.lock", "");

  server = await startServer({ args: ["--project", repo.root, "--cache-dir", join(repo.root, "..", "cache")] });
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe("environments a project file places outside the project", () => {
  it("are not scanned: no host package is listed", async () => {
    const result = await server.call("scan_packages", {});
    for (const name of ["hostsecret", "hatchsecret", "poetrysecret"]) expect(JSON.stringify(result)).not.toContain(name);
    expect(JSON.stringify(result)).not.toContain(host);
  });

  it.each([
    ["hostsecret", "index.js"],
    ["hatchsecret", "hatchsecret/__init__.py"],
    ["poetrysecret", "poetrysecret/__init__.py"],
  ])("%s: %s is not read from the host", async (name, path) => {
    const result = await server.call("read_package", { package: name, path });
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(result.isError, textOf(result)).toBe(true);
  });
});
