// Files a hostile project plants where pkg-local reads metadata: a FIFO held the whole server in
// open(2) (no later call answered, SIGTERM did nothing), a link to /dev/zero grew it to 16 GB until it
// died, a sparse file of gigabytes failed every call, a symlink loop failed them all as "a nixshed
// bug". Each is now no file, and the rest of the scan goes on. Text planted to be slow to parse (a
// workspace glob or a scan filter made to backtrack, a line of spaces, a finder of repeated
// "MAPPING:", a RECORD of twenty thousand directories) held the server for minutes to days; each now
// reads in one pass.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { startServer, textOf } from "../../daemon/test/support/mcp-client.js";
import { hostileRepo } from "./data-hostile-repo.js";

const SITE = ".venv/lib/python3.11/site-packages";

function write(path: string, text = ""): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}
const fifo = (path: string) => {
  rmSync(path, { force: true });
  execFileSync("mkfifo", [path]);
};
const link = (target: string, path: string) => {
  rmSync(path, { force: true });
  symlinkSync(target, path);
};

/** A Unix socket at `path`, which open(2) refuses with ENXIO (made by a child that leaves it behind). */
const socket = (path: string) => {
  rmSync(path, { force: true });
  execFileSync("python3", ["-c", "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", path]);
};

/** A venv and node_modules with a sound package and a planted one each; `plant` then spoils a file. */
function project(plant: (root: string, site: string) => void): string {
  const { root } = hostileRepo();
  const site = join(root, SITE);
  write(join(root, ".venv/pyvenv.cfg"), "version = 3.11.9\n");
  for (const name of ["sound", "planted"]) {
    const info = join(site, `${name}-1.0.dist-info`);
    write(join(info, "METADATA"), `Metadata-Version: 2.1\nName: ${name}\nVersion: 1.0\n\nREADME\n`);
    write(join(info, "RECORD"), `${name}/__init__.py,,\n`);
    write(join(site, name, "__init__.py"));
  }
  for (const name of ["sound-node", "planted-node"])
    write(join(root, "node_modules", name, "package.json"), JSON.stringify({ name, version: "1.0.0" }));
  plant(root, site);
  return root;
}

describe("metadata a hostile project plants", () => {
  it.each([
    ["a FIFO as METADATA", (_root: string, site: string) => fifo(join(site, "planted-1.0.dist-info/METADATA"))],
    ["a FIFO as RECORD", (_root: string, site: string) => fifo(join(site, "planted-1.0.dist-info/RECORD"))],
    ["a FIFO as pyvenv.cfg", (root: string) => fifo(join(root, ".venv/pyvenv.cfg"))],
    ["a FIFO as a package.json", (root: string) => fifo(join(root, "node_modules/planted-node/package.json"))],
    ["a FIFO as pnpm-workspace.yaml", (root: string) => fifo(join(root, "pnpm-workspace.yaml"))],
    ["METADATA linked to /dev/zero", (_root: string, site: string) => link("/dev/zero", join(site, "planted-1.0.dist-info/METADATA"))],
    ["a sparse RECORD of 3 GB", (_root: string, site: string) => truncateSync(join(site, "planted-1.0.dist-info/RECORD"), 3 * 1024 ** 3)],
    ["a package.json linked to itself", (root: string) => link("package.json", join(root, "node_modules/planted-node/package.json"))],
    ["pyvenv.cfg linked to itself", (root: string) => link("pyvenv.cfg", join(root, ".venv/pyvenv.cfg"))],
    ["a socket as pyvenv.cfg", (root: string) => socket(join(root, ".venv/pyvenv.cfg"))],
  ])("%s is no file: scan_packages answers, with the sound packages, and so does a later call", async (_what, plant) => {
    const root = project(plant);
    const server = await startServer({ args: ["--project", root, "--cache-dir", join(root, "..", "cache")] });
    try {
      const scan = await server.client.callTool({ name: "scan_packages", arguments: {} }, undefined, { timeout: 20_000 });
      expect(textOf(scan as never)).toMatch(/\bsound\b/);
      expect(textOf(scan as never)).toMatch(/\bsound-node\b/);
      const later = await server.client.callTool({ name: "read_package", arguments: { package: "sound" } }, undefined, { timeout: 20_000 });
      expect(later.isError, textOf(later as never)).toBeFalsy();
    } finally {
      await server.close();
    }
  });
});

describe("metadata a hostile project plants to be slow to read", () => {
  const backtracking = `${"*a".repeat(20)}*b`;
  const scanned = async (root: string, args: Record<string, unknown> = {}) => {
    const server = await startServer({ args: ["--project", root, "--cache-dir", join(root, "..", "cache")] });
    try {
      const scan = await server.client.callTool({ name: "scan_packages", arguments: args }, undefined, { timeout: 20_000 });
      const later = await server.client.callTool({ name: "list_files", arguments: {} }, undefined, { timeout: 20_000 });
      expect(later.isError, textOf(later as never)).toBeFalsy();
      return textOf(scan as never);
    } finally {
      await server.close();
    }
  };

  it.each([
    [
      "a package.json workspace glob made to backtrack",
      (root: string) => {
        write(join(root, "package.json"), JSON.stringify({ workspaces: [backtracking] }));
        mkdirSync(join(root, "a".repeat(40)));
      },
    ],
    [
      "a workspace glob of 64,000 levels",
      (root: string) => write(join(root, "package.json"), JSON.stringify({ workspaces: [Array(64_000).fill("a").join("/")] })),
    ],
    [
      "a pnpm-workspace.yaml item of 400,000 spaces",
      (root: string) => write(join(root, "pnpm-workspace.yaml"), `packages:\n  - a${" ".repeat(400_000)}""\n`),
    ],
    [
      'an editable install\'s finder of 150,000 "MAPPING:"',
      (_root: string, site: string) => {
        write(join(site, "planted-1.0.dist-info/direct_url.json"), JSON.stringify({ url: "file:///src", dir_info: { editable: true } }));
        write(join(site, "planted-1.0.dist-info/RECORD"), "__editable__.planted-1.0.pth,,\n");
        write(join(site, "__editable__.planted-1.0.pth"), "import __editable___planted_1_0_finder\n");
        write(join(site, "__editable___planted_1_0_finder.py"), "MAPPING:".repeat(150_000));
      },
    ],
    [
      "a RECORD of 20,000 directories",
      (_root: string, site: string) =>
        write(join(site, "planted-1.0.dist-info/RECORD"), Array.from({ length: 20_000 }, (_, i) => `a${i}/b,,\n`).join("")),
    ],
  ])("%s: scan_packages answers, with the sound packages, and so does a later call", async (_what, plant) => {
    const text = await scanned(project(plant));
    expect(text).toMatch(/\bsound\b/);
    expect(text).toMatch(/\bsound-node\b/);
  });

  it("a scan filter made to backtrack, against a package named with forty a's", async () => {
    const root = project((root) =>
      write(join(root, "node_modules", "a".repeat(40), "package.json"), JSON.stringify({ name: "a".repeat(40), version: "1.0.0" })),
    );
    expect(await scanned(root, { filter: backtracking })).not.toMatch(/\bsound\b/);
  });
});
