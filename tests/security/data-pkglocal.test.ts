// pkg-local reads only the package and the project: a hostile project venv whose editable install
// (.pth line, setuptools finder MAPPING, direct_url.json) or a symlinked member points at a host
// directory (here a stand-in for /etc or the user's home, holding a secret) gives read_package
// nothing of it, neither as a file nor in the overview; nor does a scan read a metadata file that is a
// symlink to a host file (top_level.txt -> /etc/shadow).
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, textOf, type ServerHandle } from "../../daemon/test/support/mcp-client.js";
import { hostileRepo, type HostileRepo } from "./data-hostile-repo.js";

const SECRET = "s3cret-from-the-host";
let repo: HostileRepo;
let server: ServerHandle;

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A dist-info directory of `name` 1.0 in site-packages, with the given extra files. */
function distribution(sitePackages: string, name: string, files: Record<string, string>): void {
  const info = join(sitePackages, `${name}-1.0.dist-info`);
  write(join(info, "METADATA"), `Metadata-Version: 2.1\nName: ${name}\nVersion: 1.0\n`);
  for (const [file, text] of Object.entries(files)) write(join(info, file), text);
}

beforeAll(async () => {
  repo = hostileRepo();
  const host = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-host-home-")));
  write(join(host, "token.py"), `TOKEN = "${SECRET}"\n`);
  write(join(host, "README.md"), `${SECRET}\n`);
  mkdirSync(join(host, "creds"));
  write(join(host, "creds", "__init__.py"), `KEY = "${SECRET}"\n`);

  const venv = join(repo.root, ".venv");
  write(join(venv, "pyvenv.cfg"), "home = /usr/bin\nversion = 3.11.2\n");
  const site = join(venv, "lib", "python3.11", "site-packages");
  const editable = (name: string) => ({
    RECORD: `__editable__.${name}-1.0.pth,,\n${name}-1.0.dist-info/METADATA,,\n`,
    "direct_url.json": JSON.stringify({ url: `file://${host}`, dir_info: { editable: true } }),
    "top_level.txt": "token\ncreds\n",
  });
  // A plain directory line, as hatchling and flit write it.
  distribution(site, "pthdir", editable("pthdir"));
  write(join(site, "__editable__.pthdir-1.0.pth"), `${host}\n`);
  // setuptools' finder with its MAPPING of import name to path.
  distribution(site, "finder", { ...editable("finder"), RECORD: "__editable__.finder-1.0.pth,,\n" });
  write(join(site, "__editable__.finder-1.0.pth"), "import __editable___finder_1_0_finder; __editable___finder_1_0_finder.install()\n");
  write(join(site, "__editable___finder_1_0_finder.py"), `MAPPING = {'creds': '${host}/creds', 'token': '${host}/token.py'}\n`);
  // A member of site-packages that is a symlink to the host directory.
  distribution(site, "linked", { RECORD: "linked/__init__.py,,\nlinked-1.0.dist-info/METADATA,,\n" });
  symlinkSync(join(host, "creds"), join(site, "linked"));

  server = await startServer({ args: ["--project", repo.root, "--cache-dir", join(repo.root, "..", "cache")] });
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe("read_package in a hostile venv", () => {
  it.each([
    ["pthdir", "token.py"],
    ["pthdir", "creds/__init__.py"],
    ["finder", "token.py"],
    ["finder", "creds/__init__.py"],
    ["linked", "linked/__init__.py"],
  ])("%s: %s is not read from the host", async (name, path) => {
    const result = await server.call("read_package", { package: name, path });
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(result.isError, textOf(result)).toBe(true);
  });

  it.each(["pthdir", "finder", "linked"])("%s: the overview shows nothing of the host", async (name) => {
    const result = await server.call("read_package", { package: name });
    expect(JSON.stringify(result)).not.toContain(SECRET);
    const tree = (result.structuredContent as { tree?: { files: { path: string }[] } }).tree;
    expect(tree?.files.map((file) => file.path).filter((path) => !path.includes(".dist-info/"))).toEqual([]);
  });
});

describe("a project venv or package that is a link to a host directory", () => {
  it("neither lists what a linked venv holds nor reads its files", async () => {
    const linked = hostileRepo();
    const host = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-host-local-")));
    const site = join(host, "lib", "python3.11", "site-packages");
    distribution(site, "hostpkg", { RECORD: "hostpkg/__init__.py,,\nhostpkg-1.0.dist-info/METADATA,,\n" });
    write(join(site, "hostpkg", "__init__.py"), `KEY = "${SECRET}"\n`);
    write(join(host, "pyvenv.cfg"), "home = /usr/bin\nversion = 3.11.2\n");
    symlinkSync(host, join(linked.root, ".venv"));
    const other = await startServer({ args: ["--project", linked.root, "--cache-dir", join(linked.root, "..", "cache")] });
    try {
      const file = await other.call("read_package", { package: "hostpkg", path: "hostpkg/__init__.py" });
      const overview = await other.call("read_package", { package: "hostpkg" });
      expect(JSON.stringify([file, overview])).not.toContain(SECRET);
      expect(file.isError, textOf(file)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it("reads no metadata file that is a symlink out of its package: a dist-info's top_level.txt or METADATA, a package.json", async () => {
    const planted = hostileRepo();
    const host = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-host-files-")));
    write(join(host, "secrets.txt"), `API_KEY=${SECRET}\n`);
    write(join(host, "METADATA"), `Metadata-Version: 2.1\nName: leaked\nVersion: 1.0\nSummary: ${SECRET}\n`);
    write(join(host, "package.json"), JSON.stringify({ name: "leaked-pkg", version: "1.0.0", description: SECRET, main: SECRET }));
    const site = join(planted.root, ".venv", "lib", "python3.11", "site-packages");
    write(join(planted.root, ".venv", "pyvenv.cfg"), "home = /usr/bin\nversion = 3.11.2\n");
    distribution(site, "names", {});
    symlinkSync(join(host, "secrets.txt"), join(site, "names-1.0.dist-info", "top_level.txt"));
    mkdirSync(join(site, "meta-1.0.dist-info"), { recursive: true });
    symlinkSync(join(host, "METADATA"), join(site, "meta-1.0.dist-info", "METADATA"));
    mkdirSync(join(planted.root, "node_modules", "x"), { recursive: true });
    symlinkSync(join(host, "package.json"), join(planted.root, "node_modules", "x", "package.json"));
    // uv's --link-mode=symlink links a wheel's files, dist-info's among them, from its cache: those are read.
    const cache = join(host, "uv-cache", "linked-1.0.dist-info");
    write(join(cache, "METADATA"), "Metadata-Version: 2.1\nName: linked\nVersion: 1.0\n");
    write(join(cache, "top_level.txt"), "linked\n");
    mkdirSync(join(site, "linked-1.0.dist-info"));
    for (const name of ["METADATA", "top_level.txt"]) symlinkSync(join(cache, name), join(site, "linked-1.0.dist-info", name));
    const other = await startServer({ args: ["--project", planted.root, "--cache-dir", join(planted.root, "..", "cache")] });
    try {
      const scan = await other.call("scan_packages", {});
      expect(JSON.stringify(scan)).not.toContain(SECRET);
      expect(textOf(scan)).toContain("names 1.0");
      expect(textOf(scan)).toContain("linked 1.0");
      for (const name of ["names", "leaked", "leaked-pkg"]) {
        expect(JSON.stringify(await other.call("read_package", { package: name }))).not.toContain(SECRET);
      }
    } finally {
      await other.close();
    }
  });

  it("does not show what a package.json says of a node_modules entry linked to a host directory", async () => {
    const linked = hostileRepo();
    const host = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-host-pkg-")));
    write(join(host, "package.json"), JSON.stringify({ name: "host-pkg", version: "1.0.0", description: SECRET }));
    write(join(linked.root, "package.json"), JSON.stringify({ name: "p", dependencies: { "host-pkg": "1.0.0" } }));
    mkdirSync(join(linked.root, "node_modules"));
    symlinkSync(host, join(linked.root, "node_modules", "host-pkg"));
    write(join(linked.root, "node_modules", "fine", "package.json"), JSON.stringify({ name: "fine", version: "2.0.0" }));
    const other = await startServer({ args: ["--project", linked.root, "--cache-dir", join(linked.root, "..", "cache")] });
    try {
      const scan = await other.call("scan_packages", {});
      expect(JSON.stringify(scan)).not.toContain(SECRET);
      expect(textOf(scan)).toContain("fine 2.0.0");
      expect(JSON.stringify(await other.call("read_package", { package: "host-pkg" }))).not.toContain(SECRET);
    } finally {
      await other.close();
    }
  });
});
