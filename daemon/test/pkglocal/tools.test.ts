// scan_packages and read_package through the built server and the SDK's Client, as an agent
// calls them: structured results, exact versions, errors that say what to do, the cache kept in
// the cache dir.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, textOf, type ServerHandle } from "../support/mcp-client.js";
import { npmProject, venvProject } from "./fixtures.mjs";

interface ScanResult {
  packages: {
    name: string;
    version: string;
    language: string;
    manager: string;
    location: string;
    import_names?: string[];
    entry?: { types?: string };
  }[];
  total: number;
  environments: { language: string; kind: string; manager: string; packages: number }[];
  missing: string[];
  cached: boolean;
}

const servers: ServerHandle[] = [];
async function serve(project: string, args: string[] = []): Promise<{ server: ServerHandle; cache: string }> {
  const cache = mkdtempSync(join(tmpdir(), "pkglocal-xdg-cache-"));
  const server = await startServer({ args: ["--project", project, ...args], env: { XDG_CACHE_HOME: cache } });
  servers.push(server);
  return { server, cache };
}
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

describe("on an npm project", () => {
  let project: string;
  let server: ServerHandle;
  let cache: string;
  beforeAll(async () => {
    project = npmProject();
    // Every package in structured content too, which the default response budget cuts to the first few.
    ({ server, cache } = await serve(project, ["--set", "responses.max_bytes=4194304"]));
  }, 300_000);

  it("scan_packages lists every package with its exact version and keeps its cache outside the project", async () => {
    const result = await server.call("scan_packages", { language: "node" });
    expect(result.isError).toBeFalsy();
    const scan = result.structuredContent as unknown as ScanResult;
    const lock = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8")) as { packages: Record<string, { version: string }> };
    const installed = Object.entries(lock.packages).filter(([path]) => path !== "" && existsSync(join(project, path)));
    const listed = new Set(scan.packages.map((pkg) => `${pkg.name}@${pkg.version}`));
    for (const [path, entry] of installed) expect(listed.has(`${path.split("node_modules/").pop()}@${entry.version}`), path).toBe(true);
    expect(scan.total).toBe(listed.size);
    expect(scan.environments).toEqual([
      { language: "node", kind: "node_modules", manager: "npm", path: ".", packages_dir: "node_modules", packages: scan.total },
    ]);
    expect(textOf(result)).toContain("\n  ms 2.0.0  debug/node_modules/ms\n");
    expect(readdirSync(join(cache, "nixshed/pkglocal"))).toHaveLength(1);
    expect(existsSync(join(project, ".pkg-local-cache"))).toBe(false);
    const again = (await server.call("scan_packages", { filter: "@types/no*" })).structuredContent as unknown as ScanResult;
    expect(again.cached).toBe(true);
    expect(again.packages.map((pkg) => [pkg.name, pkg.entry?.types])).toEqual([["@types/node", "index.d.ts"]]);
  });

  it("read_package shows a package's version, README, entry and tree, then pages a file", async () => {
    const overview = await server.call("read_package", { package: "express" });
    expect(overview.isError).toBeFalsy();
    expect(overview.structuredContent).toMatchObject({ name: "express", version: "4.21.2", location: "node_modules/express" });
    expect(textOf(overview)).toMatch(/--- entry: index\.js/);
    expect(textOf(overview)).toMatch(/lib\/router\/index\.js/);
    const page = await server.call("read_package", { package: "express", path: "lib/express.js", start_line: 1, end_line: 5 });
    expect(page.structuredContent).toMatchObject({ path: "lib/express.js", start_line: 1, end_line: 5 });
  });

  it("read_package lists at most pkglocal.max_tree_entries files and reads at most pkglocal.max_read_bytes", async () => {
    const { server: limited } = await serve(project, ["--set", "pkglocal.max_tree_entries=10", "--set", "pkglocal.max_read_bytes=1024"]);
    const overview = await limited.call("read_package", { package: "express" });
    const tree = (overview.structuredContent as { tree: { files: unknown[]; total: number } }).tree;
    expect(tree.files).toHaveLength(10);
    expect(tree.total).toBeGreaterThan(10);
    expect(textOf(overview)).toContain(", 10 listed;");
    const page = await limited.call("read_package", { package: "express", path: "lib/response.js" });
    const { content, next_start_line } = page.structuredContent as { content: string; next_start_line?: number };
    expect(Buffer.byteLength(content)).toBeLessThanOrEqual(1024);
    expect(textOf(page)).toContain(`[more: start_line ${next_start_line}]`);
  });

  it("read_package lists the files the tree left out a directory at a time, and refuses a range it cannot read", async () => {
    const { server: limited } = await serve(project, ["--set", "pkglocal.max_tree_entries=10"]);
    expect(textOf(await limited.call("read_package", { package: "express" }))).toMatch(
      /\n\[… \d+ more: read_package with a directory as path lists its files\]$/,
    );
    const lib = await limited.call("read_package", { package: "express", path: "lib/" });
    expect(lib.isError).toBeFalsy();
    const tree = (lib.structuredContent as { tree: { files: { path: string }[] } }).tree;
    expect(tree.files.length).toBeGreaterThan(0);
    for (const file of tree.files) expect(file.path.startsWith("lib/")).toBe(true);
    expect(textOf(lib)).toMatch(/\n--- files in lib\/: \d+ \(\.js \d+/);
    // The package's root is its whole tree; a directory out of it is refused as a file is.
    expect((await limited.call("read_package", { package: "express", path: "" })).structuredContent).toMatchObject({ tree: {} });
    expect(textOf(await limited.call("read_package", { package: "ms", path: "../debug" }))).toContain("outside ms@2.1.3");
    for (const [args, words] of [
      [{ path: "lib/response.js", start_line: 100_000 }, /^lib\/response\.js: start_line 100000 is past the end \(\d+ lines\)/],
      [{ start_line: 5 }, /^start_line and end_line page a file: give its path too/],
      [{ path: "lib", start_line: 5 }, /^lib: is a directory; start_line and end_line page a file/],
    ] as const) {
      const refused = await limited.call("read_package", { package: "express", ...args });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(words);
    }
  });

  it("scan_packages takes a language as agents name it, and its schema lets a checking client send it", async () => {
    for (const language of ["js", "NPM", "Node"]) {
      const result = await server.call("scan_packages", { language, limit: 1 });
      expect(result.isError, `${language}: ${textOf(result)}`).toBeFalsy();
    }
    const { tools } = await server.client.listTools();
    const schema = tools.find((tool) => tool.name === "scan_packages")!.inputSchema.properties!.language as Record<string, unknown>;
    expect(schema).toMatchObject({ type: "string" });
    expect(schema).not.toHaveProperty("enum");
    const unknown = await server.call("scan_packages", { language: "cobol" });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/^unknown language 'cobol'.*python, node or all/);
  });

  it("read_package refuses a path out of the package and names the closest packages for a typo", async () => {
    const outside = await server.call("read_package", { package: "ms", path: "../debug/package.json" });
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toContain("outside ms@2.1.3");
    const typo = await server.call("read_package", { package: "exprss" });
    expect(typo.isError).toBe(true);
    expect(textOf(typo)).toMatch(/closest: express/);
  });

  it("says where it looked and how to make a Python environment when there is none", async () => {
    const result = await server.call("scan_packages", { language: "python" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("no python environment found; looked for: pkglocal.python_envs, $VIRTUAL_ENV, .venv, venv");
    expect(textOf(result)).toContain("python3 -m venv .venv");
  });
});

describe("on a Python project", () => {
  beforeAll(() => void venvProject(), 300_000);

  it("finds Pillow by its import name and reads its source", async () => {
    const { server } = await serve(venvProject());
    const scan = (await server.call("scan_packages", { filter: "pil" })).structuredContent as unknown as ScanResult;
    expect(scan.packages.map((pkg) => [pkg.name, pkg.version, pkg.import_names])).toEqual([["Pillow", "10.0.0", ["PIL"]]]);
    const file = await server.call("read_package", { package: "PIL", path: "PIL/Image.py" });
    expect(file.structuredContent).toMatchObject({ name: "Pillow", content: "def open(fp):\n    pass\n", total_lines: 2 });
  });

  it("refuses both tools with the way out when the project has no environment at all", async () => {
    const { server } = await serve(realpathSync(mkdtempSync(join(tmpdir(), "pkglocal-empty-"))));
    const result = await server.call("read_package", { package: "requests" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("npm install");
  });
});

describe("a project with no packages installed", () => {
  it("says so for both languages in one line, with how to make either", async () => {
    const { server } = await serve(realpathSync(mkdtempSync(join(tmpdir(), "pkglocal-none-"))));
    const both = textOf(await server.call("read_package", { package: "requests" }));
    expect(both).toMatch(/^no python environment found; .*; no node environment found; .*; create one in the project: .*npm install/);
    expect(both).not.toContain("\n");
  });
});

describe("a package file longer than an answer", () => {
  it("is cut with a marker that pages the package file by its own line numbers", async () => {
    const project = realpathSync(mkdtempSync(join(tmpdir(), "pkglocal-big-")));
    mkdirSync(join(project, "node_modules", "bigpkg"), { recursive: true });
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "big", dependencies: { bigpkg: "1.0.0" } }));
    writeFileSync(
      join(project, "node_modules", "bigpkg", "package.json"),
      JSON.stringify({ name: "bigpkg", version: "1.0.0", main: "big.js" }),
    );
    const line = (n: number) => `// line ${String(n).padStart(7, "0")}`;
    writeFileSync(join(project, "node_modules", "bigpkg", "big.js"), Array.from({ length: 25_000 }, (_, i) => `${line(i + 1)}\n`).join(""));
    const { server } = await serve(project);
    const text = textOf(await server.call("read_package", { package: "bigpkg", path: "big.js" }));
    const cut =
      /^(.*)\n\[… lines (\d+)-(\d+) of 25000 omitted \(\d+ bytes\); read_package (\{.*\}) with start_line (\d+), end_line \d+ …\]\n(.*)$/m.exec(
        text,
      );
    expect(cut).not.toBeNull();
    const [, before, first, last, call, start, after] = cut!;
    expect([before, after, start]).toEqual([line(Number(first) - 1), line(Number(last) + 1), first]);
    const page = await server.call("read_package", { ...JSON.parse(call!), start_line: Number(start), end_line: Number(start) });
    expect(textOf(page).split("\n").at(-2)).toBe(line(Number(start)));
  });
});
