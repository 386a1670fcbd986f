// nixpkgs_execute, the installed tools and the everyday tools end to end: a fixture nixpkgs
// (tests/fixtures/nixpkgs, Debian binaries wrapped by the harness' stand-in) indexed with
// `nixshed index build --nixpkgs`, packages realised by the real nix through nixshed's own
// mkEnvironment, run under the real bwrap, the built daemon driven over MCP.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ToolListChangedNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, textOf, type ServerHandle } from "../daemon/test/support/mcp-client.js";
import { harnessMountsFlag } from "./harness/extra-mounts.js";
import { harnessMetadata } from "./harness/metadata.js";
import { fixtureNixpkgsConfig } from "./support/fixture-nixpkgs.js";
import { waitFor } from "./support/wait-for.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/nixpkgs", import.meta.url));
const SLOW_BUILD_MARKER = "sleep 271.828";

let scratch: string;
let project: string;
let index: string;
let args: string[];
let server: ServerHandle;
let listChanges = 0;

async function start(): Promise<ServerHandle> {
  const handle = await startServer({ args });
  handle.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    listChanges++;
  });
  return handle;
}

interface RunOutput {
  package: string;
  program: string;
  stdout: string;
  stderr: string;
  exit_code: number | null;
}

async function ok(name: string, params: Record<string, unknown>): Promise<RunOutput> {
  const result = await server.call(name, params);
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  return result.structuredContent as unknown as RunOutput;
}

const slowBuildRunning = () => execFileSync("ps", ["-eo", "args"], { encoding: "utf8" }).includes(SLOW_BUILD_MARKER);

/** A server with the fixture nixpkgs and no index yet (a first call starts its build), counting list_changed; `name` names its directories. */
async function startWithoutIndex(
  name: string,
  extra: string[],
  env?: Record<string, string>,
): Promise<{ handle: ServerHandle; changes: () => number }> {
  const handle = await startServer({
    ...(env ? { env } : {}),
    args: [
      "--metadata",
      harnessMetadata(),
      "--project",
      project,
      "--state-dir",
      join(scratch, `${name}-state`),
      "--cache-dir",
      join(scratch, `${name}-cache`),
      "--set",
      `nixpkgs.source=${FIXTURE}`,
      ...extra,
    ],
  });
  let changes = 0;
  handle.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes++;
  });
  return { handle, changes: () => changes };
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), "nixshed-nixpkgs-"));
  project = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-nixpkgs-project-")));
  let config: string;
  ({ config, index } = fixtureNixpkgsConfig(
    scratch,
    'build_timeout_seconds = 8\ntools = ["no-such-package"]\n\n[nixpkgs.permissions.coreutils]\nnetwork = true\nproject_access = "rw"\n',
  ));
  args = [
    "--metadata",
    harnessMetadata(),
    ...harnessMountsFlag(),
    "--config",
    config,
    "--project",
    project,
    "--state-dir",
    join(scratch, "state"),
    "--cache-dir",
    join(scratch, "cache"),
  ];
  server = await start();
}, 600_000);

afterAll(async () => {
  await server?.close();
});

describe("nixpkgs_search over an index of an evaluated nixpkgs", () => {
  it("finds packages by program and description, broken ones hidden", async () => {
    const result = await server.call("nixpkgs_search", { query: "rg" });
    expect(result.isError, textOf(result)).toBeFalsy();
    const { results } = result.structuredContent as { results: { attr: string; license: string; mainProgram: string }[] };
    expect(results[0]).toMatchObject({ attr: "ripgrep", license: "Unlicense, MIT", mainProgram: "rg" });
    const broken = await server.call("nixpkgs_search", { query: "broken-tool" });
    expect((broken.structuredContent as { results: { attr: string }[] }).results.map((r) => r.attr)).not.toContain("broken-tool");
    // Nothing found as asked is not "no such package": what was hidden, and why, is said.
    expect(textOf(broken)).toBe("No nixpkgs package matches 'broken-tool' as asked; hidden: broken-tool (broken: pass include_broken).");
    expect((await server.call("nixpkgs_search", { query: "broken-tool", include_broken: true })).structuredContent).toMatchObject({
      results: [{ attr: "broken-tool" }],
    });
  });

  it("pages: a page that has more after it says the offset of the next, in its text and its structured content", async () => {
    const first = await server.call("nixpkgs_search", { query: "grep", limit: 1 });
    expect(textOf(first)).toMatch(/\nMore: pass offset 1\.$/);
    expect(first.structuredContent).toMatchObject({ next_offset: 1 });
    const second = await server.call("nixpkgs_search", { query: "grep", limit: 1, offset: 1 });
    const attrOf = (result: typeof first) => (result.structuredContent as { results: { attr: string }[] }).results[0]?.attr;
    expect(attrOf(second)).toBeDefined();
    expect(attrOf(second)).not.toBe(attrOf(first));
  });

  it("answers a misspelt name that matches nothing with the closest names' packages, and refuses a query that is no name or few words", async () => {
    const typo = await server.call("nixpkgs_search", { query: "ripgrpe" });
    // The closest names' packages are the results, as the agent would search for them next.
    expect(textOf(typo)).toMatch(/^No nixpkgs package matches 'ripgrpe'; the closest names:\nripgrep \S+: Utility/);
    expect(typo.structuredContent).toMatchObject({ results: [{ attr: "ripgrep" }], suggestions: ["ripgrep"] });
    const long = await server.call("nixpkgs_search", { query: "x".repeat(100_000) });
    expect(long.isError).toBe(true);
    expect(textOf(long)).toBe("query is 100000 characters long; pass a package name or a few words of what it does (at most 200).");
  });
});

describe("nixpkgs_execute", () => {
  it("builds the package on first use with progress, then runs its main program with args and stdin", async () => {
    const progress: string[] = [];
    const result = (await server.client.callTool(
      { name: "nixpkgs_execute", arguments: { package: "ripgrep", args: ["-n", "b"], stdin: "a\nb\n" } },
      undefined,
      {
        onprogress: (p) => progress.push(p.message ?? ""),
      },
    )) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ package: "ripgrep", program: "rg", stdout: "2:b\n", exit_code: 0 });
    expect(progress.some((message) => message.includes("ripgrep"))).toBe(true);
  });

  it("runs an everyday package on a project file in one call, no search first: jq .answer data.json", async () => {
    writeFileSync(join(project, "data.json"), '{"answer": 42}');
    const { tools } = await server.client.listTools();
    const execute = tools.find((tool) => tool.name === "nixpkgs_execute")!.description ?? "";
    expect(execute).toMatch(/\bjq\b/);
    // What a package gets by default, which a write in place or a download needs to know first.
    // ...and where it may write: the scratch directory the description names.
    expect(execute).toContain("in /project (ro, offline; relative paths are project files; /workspace is scratch)");
    expect(await ok("nixpkgs_execute", { package: "coreutils", program: "cp", args: ["data.json", "/workspace/copy.json"] })).toMatchObject(
      {
        exit_code: 0,
      },
    );
    expect(await ok("nixpkgs_execute", { package: "jq", args: [".answer", "data.json"] })).toMatchObject({
      program: "jq",
      stdout: "42\n",
      exit_code: 0,
    });
    // Without stdin, rg searches the project: its stdin is /dev/null, no empty pipe it would search instead.
    expect(await ok("nixpkgs_execute", { package: "ripgrep", args: ["-l", "answer"] })).toMatchObject({
      stdout: "data.json\n",
      exit_code: 0,
    });
  });

  it("says a program that could not start did not start, rather than that it exited 1 with bwrap's words", async () => {
    // Without the harness' mounts, its Debian programs' ELF interpreter (/lib64/ld-linux…) is missing in
    // the jail, as a real package's is when it names a file from outside the Nix store.
    const { handle } = await startWithoutIndex("no-mounts", ["--set", `nixpkgs.index=${index}`]);
    try {
      const result = await handle.call("nixpkgs_execute", { package: "jq", args: ["--version"] });
      const named = await handle.call("nixpkgs_execute", { package: "hexdumper", args: ["-p"], stdin: "hi" });
      expect(named.isError).toBe(true);
      expect(textOf(named)).toMatch(/^xxd of hexdumper could not start in the jail: /);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        "jq could not start in the jail: No such file or directory; it, or the interpreter its #! line or ELF header names, is missing in the jail: a file from outside the Nix store.",
      );
    } finally {
      await handle.close();
    }
  });

  it("runs the only program of a package named otherwise, or the one asked for", async () => {
    expect(await ok("nixpkgs_execute", { package: "hexdumper", args: ["-p"], stdin: "hi" })).toMatchObject({
      program: "xxd",
      stdout: "6869\n",
    });
    expect(await ok("nixpkgs_execute", { package: "coreutils", program: "echo", args: ["a b", "$HOME;"] })).toMatchObject({
      stdout: "a b $HOME;\n",
    });
  });

  it("runs a name Nix has and the index lacks (nix-env lists a derivation once: nodejs_22 beside nodejs)", async () => {
    expect(await ok("nixpkgs_execute", { package: "hexdumper_1", args: ["-p"], stdin: "hi" })).toMatchObject({
      package: "hexdumper_1",
      stdout: "6869\n",
    });
  });

  it("runs the package of a program named where a package is meant: rg is ripgrep's, sort coreutils'", async () => {
    expect(await ok("nixpkgs_execute", { package: "rg", args: ["-c", "a"], stdin: "a\nb\na\n" })).toMatchObject({
      package: "ripgrep",
      program: "rg",
      stdout: "2\n",
    });
    expect(await ok("nixpkgs_execute", { package: "sort", stdin: "b\na\n" })).toMatchObject({
      package: "coreutils",
      program: "sort",
      stdout: "a\nb\n",
    });
  });

  it("runs a package named as an installable: nixpkgs#jq, pkgs.jq, nixpkgs.legacyPackages.<system>.jq", async () => {
    for (const name of ["nixpkgs#jq", "pkgs.jq", "nixpkgs.legacyPackages.x86_64-linux.jq"]) {
      expect(await ok("nixpkgs_execute", { package: name, args: ["-n", "6 * 7"] }), name).toMatchObject({ package: "jq", stdout: "42\n" });
    }
  });

  it("takes a command line as an agent writes one: args as one string, a package's program as its first word", async () => {
    expect(await ok("nixpkgs_execute", { package: "jq", args: "-r '.answer | \"is \\(.)\"' data.json" })).toMatchObject({
      stdout: "is 42\n",
    });
    expect(await ok("nixpkgs_execute", { package: "coreutils", args: ["wc", "-l"], input: "a\nb\n" })).toMatchObject({
      program: "wc",
      stdout: "2\n",
    });
  });

  it("asks for a program when a package has several, listing them", async () => {
    const result = await server.call("nixpkgs_execute", { package: "coreutils" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/several programs[\s\S]*\bls\b/);
    expect(textOf(await server.call("nixpkgs_execute", { package: "coreutils", program: "nope" }))).toMatch(
      /no program 'nope'[\s\S]*\becho\b/,
    );
  });

  it("refuses an unknown attribute in one line, with close matches", async () => {
    const result = await server.call("nixpkgs_execute", { package: "ripgre" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^no package `ripgre` in this nixpkgs; did you mean ripgrep\b.*\?$/);
    // Nix also names sets (lib) as what was meant; only packages are offered.
    expect(textOf(await server.call("nixpkgs_execute", { package: "lbi" }))).not.toMatch(/\blib\b/);
  });

  it("names the closest packages for a misspelt name: Nix's suggestions and the index's", async () => {
    for (const [typo, meant] of [
      ["ripgrp", "ripgrep"],
      ["jqq", "jq"],
      ["hexdumpr", "hexdumper"],
      ["python3Packages.requestz", "python3Packages.requests"],
    ]) {
      const result = await server.call("nixpkgs_execute", { package: typo, args: ["x"] });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(`no package \`${typo}\` in this nixpkgs; did you mean ${meant}?`);
    }
  });

  it("stops the program at its run timeout and caps its output like run", async () => {
    const slow = await server.call("nixpkgs_execute", { package: "coreutils", program: "sleep", args: ["30"], timeout_seconds: 1 });
    expect(slow.structuredContent).toMatchObject({ timed_out: true });
    // seq 1 800000 prints 5,488,895 bytes, over the 4 MiB kept in memory: all of it goes to a file, and the answer
    // shows its ends within 32 KB, the marker between them naming the file.
    const loud = await server.call("nixpkgs_execute", { package: "coreutils", program: "seq", args: ["1", "800000"] });
    const text = textOf(loud);
    expect(Buffer.byteLength(JSON.stringify(loud))).toBeLessThanOrEqual(32_000);
    expect(text).toMatch(
      /\n--- stdout\n1\n2\n[\d\n]+\[… lines \d+-\d+ of 800000 omitted \(\d+ bytes\); all 5488895 bytes are in \S+-nixpkgs_execute-stdout\.txt: read_content it from start_line \d+ …\]\n/,
    );
    expect(text.endsWith("799999\n800000\n")).toBe(true);
  });

  it("refuses stdin above 1 MiB", async () => {
    const result = await server.call("nixpkgs_execute", { package: "jq", stdin: "x".repeat(1024 * 1024 + 1) });
    expect(textOf(result)).toMatch(/stdin is 1048577 bytes/);
  });

  it("says a package without programs is likely a library, not a broken store path", async () => {
    const result = await server.call("nixpkgs_execute", { package: "python3Packages.requests" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "python3Packages.requests installs no programs in bin/; it may be a library: use it from a sandbox instead.",
    );
  });

  it("refuses arguments no program can take, in one line, as the agent's mistake and not a bug", async () => {
    for (const [args, words] of [
      [["a\u0000b"], /^an argument contains a NUL byte, which no program can take; pass large or binary input on stdin/],
      [["x".repeat(200 * 1024)], /^an argument is 204800 bytes, over the 131071 one argument can be;/],
      [
        Array.from({ length: 1000 }, () => "x".repeat(1400)),
        /^the arguments are 14010\d\d bytes, over the 1048576 a program can be given;/,
      ],
      // Few bytes, but more arguments than bwrap takes (9000 with its own).
      [Array.from({ length: 20_000 }, () => "x"), /^20000 arguments, over the 8000 a jailed program can be given; pass/],
    ] as const) {
      const result = await server.call("nixpkgs_execute", { package: "jq", args: [...args] });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(words);
      expect(textOf(result)).not.toMatch(/internal error|bug/);
    }
  });

  it("applies per-package permissions: project read-only and no network by default, as configured otherwise", async () => {
    const denied = await ok("nixpkgs_execute", { package: "hexdumper", args: ["-r", "-p", "-", "/project/by-xxd"], stdin: "6869" });
    expect(denied.exit_code).not.toBe(0);
    expect(existsSync(join(project, "by-xxd"))).toBe(false);
    expect((await ok("nixpkgs_execute", { package: "coreutils", program: "touch", args: ["/project/by-coreutils"] })).exit_code).toBe(0);
    expect(existsSync(join(project, "by-coreutils"))).toBe(true);
    // /etc/resolv.conf is in a jail only when it has the network.
    expect((await ok("nixpkgs_execute", { package: "coreutils", program: "test", args: ["-e", "/etc/resolv.conf"] })).exit_code).toBe(0);
    expect((await ok("nixpkgs_execute", { package: "jq", args: ["-R", ".", "/etc/resolv.conf"] })).exit_code).not.toBe(0);
  });

  it("stops a build at the build timeout, leaving no builder behind", async () => {
    const started = Date.now();
    const result = await server.call("nixpkgs_execute", { package: "slow-build" });
    expect(textOf(result)).toMatch(/build timeout/);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(await waitFor(() => !slowBuildRunning(), 5000)).toBe(true);
  });

  it("says a build that says nothing is still going, then stops it when the call is cancelled", async () => {
    const controller = new AbortController();
    const progress: { progress: number; message?: string }[] = [];
    const call = server.client.callTool({ name: "nixpkgs_execute", arguments: { package: "slow-build" } }, undefined, {
      signal: controller.signal,
      onprogress: (p) => progress.push(p),
    });
    expect(await waitFor(slowBuildRunning, 5000)).toBe(true);
    // A client ends a call that goes quiet: the build's progress beats on, rising, saying how long it has run.
    expect(await waitFor(() => progress.some(({ message }) => /^building slow-build-1 \(\d+ s\)$/.test(message ?? "")), 15_000)).toBe(true);
    expect(progress.every((p, i) => i === 0 || p.progress > progress[i - 1]!.progress)).toBe(true);
    controller.abort();
    await expect(call).rejects.toThrow();
    expect(await waitFor(() => !slowBuildRunning(), 5000)).toBe(true);
    expect((await ok("nixpkgs_execute", { package: "jq", args: ["-n", "1+1"] })).stdout).toBe("2\n");
  });
});

describe("builds across calls", () => {
  it("builds two packages at once; a third waits its turn, told so, and may be cancelled while it waits", async () => {
    // Each evaluation of a nixpkgs takes hundreds of MB of the host outside any jail: forty calls once ran twenty-six.
    const running = [new AbortController(), new AbortController()];
    const slow = running.map((controller) =>
      server.client
        .callTool({ name: "nixpkgs_execute", arguments: { package: "slow-build" } }, undefined, { signal: controller.signal })
        .catch(() => undefined),
    );
    expect(await waitFor(slowBuildRunning, 5000)).toBe(true);
    const waiting = new AbortController();
    const progress: (string | undefined)[] = [];
    const third = server.client.callTool({ name: "nixpkgs_execute", arguments: { package: "tree" } }, undefined, {
      signal: waiting.signal,
      onprogress: ({ message }) => progress.push(message),
    });
    expect(await waitFor(() => progress.includes("waiting for 2 other builds of packages to finish"), 5000)).toBe(true);
    expect(progress.some((message) => message?.startsWith("evaluating"))).toBe(false);
    waiting.abort();
    await expect(third).rejects.toThrow();
    for (const controller of running) controller.abort();
    await Promise.all(slow);
    expect(await waitFor(() => !slowBuildRunning(), 5000)).toBe(true);
    expect((await ok("nixpkgs_execute", { package: "tree", args: ["--version"] })).exit_code).toBe(0);
  });
});

describe("everyday and installed tools", () => {
  it("points a call of a package tool not installed (nixpkgs_jq) to nixpkgs_execute", async () => {
    const result = await server.call("nixpkgs_jq", { args: [".", "data.json"] });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('no tool `nixpkgs_jq`; run the package with nixpkgs_execute {"package": "jq"}');
  });

  it("names the everyday packages the index knows in nixpkgs_execute's description, without a tool each", async () => {
    const { tools } = await server.client.listTools();
    const execute = tools.find((tool) => tool.name === "nixpkgs_execute")!;
    expect(execute.description).toMatch(/data: jq\b/);
    expect(execute.description).toMatch(/search: ripgrep\b/);
    expect(execute.description).toMatch(/files: coreutils… .*\btree\b/);
    expect(execute.description).not.toMatch(/no-such-package|pandoc|fzf/);
    // Network clients only where packages get the network (here only coreutils does).
    expect(execute.description).not.toMatch(/\bcurl\b/);
    expect(server.stderr()).toMatch(/not in the index, not offered: .*no-such-package/);
    expect(
      tools
        .map((tool) => tool.name)
        .filter((name) => name.startsWith("nixpkgs_"))
        .sort(),
    ).toEqual(["nixpkgs_execute", "nixpkgs_install_tool", "nixpkgs_list_installed", "nixpkgs_search", "nixpkgs_uninstall_tool"]);
    // coreutils may write the project and reach the network, so nixpkgs_execute may (destructive and
    // open-world are the spec's defaults, left out of tools/list); search and list only read.
    expect(execute.annotations).toEqual({ readOnlyHint: false });
    // ...and its description says so, beside what every other package gets.
    expect(execute.description).toMatch(
      /^Run a nixpkgs package's program once in a jail, in \/project \(ro, offline; [^\n]* Allowed more: coreutils \(rw, network\)\./,
    );
    for (const name of ["nixpkgs_search", "nixpkgs_list_installed"])
      expect(tools.find((tool) => tool.name === name)!.annotations?.readOnlyHint).toBe(true);
  });

  it('with common_tools = "tools", offers a tool per everyday package; install and list agree on them', async () => {
    const curated = await startServer({
      args: [...args, "--set", "nixpkgs.common_tools=tools", "--state-dir", join(scratch, "curated-state")],
    });
    try {
      const { tools } = await curated.client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(["nixpkgs_ripgrep", "nixpkgs_jq", "nixpkgs_tree", "nixpkgs_coreutils"]));
      expect(names).not.toContain("nixpkgs_fzf");
      const jq = tools.find((tool) => tool.name === "nixpkgs_jq")!;
      expect(Object.keys(jq.inputSchema.properties ?? {}).sort()).toEqual(["args", "program", "stdin"]);
      expect(jq.description).toBe("Lightweight and flexible command-line JSON processor (runs jq)");
      expect(jq.annotations?.readOnlyHint).toBe(true);
      expect((await curated.call("nixpkgs_jq", { args: ["-c", ".a"], stdin: '{"a":[1]}' })).structuredContent).toMatchObject({
        stdout: "[1]\n",
      });
      // A package of several programs: its description claims none, the call names one, and without one hears which there are.
      expect(tools.find((tool) => tool.name === "nixpkgs_coreutils")!.description).toMatch(/\(name the program to run\)$/);
      expect((await curated.call("nixpkgs_coreutils", { program: "echo", args: ["hi"] })).structuredContent).toMatchObject({
        stdout: "hi\n",
      });
      expect(textOf(await curated.call("nixpkgs_coreutils", {}))).toMatch(/several programs[\s\S]*\becho\b/);

      const install = await curated.call("nixpkgs_install_tool", { package: "ripgrep" });
      expect(install.structuredContent).toMatchObject({ name: "nixpkgs_ripgrep", already_installed: true });
      const listed = (await curated.call("nixpkgs_list_installed", {})).structuredContent as {
        installed: { name: string; everyday?: boolean }[];
      };
      expect(listed.installed).toContainEqual(expect.objectContaining({ name: "nixpkgs_ripgrep", everyday: true }));
      expect((await curated.call("nixpkgs_ripgrep", { args: ["-c", "a"], stdin: "a\n" })).structuredContent).toMatchObject({
        stdout: "1\n",
      });
      const uninstall = await curated.call("nixpkgs_uninstall_tool", { name: "nixpkgs_jq" });
      expect(uninstall.isError).toBe(true);
      expect(textOf(uninstall)).toMatch(/common_tools/);
    } finally {
      await curated.close();
    }
  });

  it("installs a tool: list_changed, listed, callable directly and through nixpkgs_execute", async () => {
    const before = listChanges;
    const installed = await server.call("nixpkgs_install_tool", { package: "ripgrep", default_args: ["-c"] });
    expect(installed.structuredContent).toMatchObject({ name: "nixpkgs_ripgrep", already_installed: false });
    expect(textOf(installed)).toMatch(/nixpkgs_execute/);
    expect(await waitFor(() => listChanges > before, 3000)).toBe(true);
    const tool = (await server.client.listTools()).tools.find((listed) => listed.name === "nixpkgs_ripgrep");
    // It says where it runs and may write, as nixpkgs_execute does.
    expect((tool?.inputSchema.properties?.args as { description?: string } | undefined)?.description).toMatch(
      /in \/project .*\/workspace is scratch/,
    );
    expect((await ok("nixpkgs_ripgrep", { args: ["x"], stdin: "x\nx\ny\n" })).stdout).toBe("2\n");
    expect((await ok("nixpkgs_execute", { package: "nixpkgs_ripgrep", args: ["y"], stdin: "x\ny\n" })).stdout).toBe("1\n");
    expect((await server.call("nixpkgs_install_tool", { package: "ripgrep", default_args: ["-c"] })).structuredContent).toMatchObject({
      already_installed: true,
    });
  });

  it("refuses default arguments past what tools/list can carry on every turn, and lists its tools still", async () => {
    // Eleven 1 MiB arguments once made tools/list a line over the client's 10 MB: the connection closed, after every restart too.
    const huge = await server.call("nixpkgs_install_tool", { package: "jq", default_args: Array(11).fill("a".repeat(1 << 20)) });
    expect(textOf(huge)).toBe(
      "default_args holds at most 32 arguments of 1024 characters each; pass longer arguments in each call's args.",
    );
    expect(huge.isError).toBe(true);
    expect((await server.client.listTools()).tools.some((tool) => tool.name === "nixpkgs_jq")).toBe(false);
  });

  it("installs a package once: the same install again is the tool already there", async () => {
    const first = await server.call("nixpkgs_install_tool", { package: "jq" });
    expect(first.structuredContent).toMatchObject({ name: "nixpkgs_jq", already_installed: false });
    const again = await server.call("nixpkgs_install_tool", { package: "jq" });
    expect(again.structuredContent).toMatchObject({ name: "nixpkgs_jq", already_installed: true });
    // Named by the tool's own name, it is the same tool; uninstalled by its package's name too.
    const byTool = await server.call("nixpkgs_install_tool", { package: "nixpkgs_jq" });
    expect(byTool.structuredContent).toMatchObject({ name: "nixpkgs_jq", package: "jq", already_installed: true });
    expect(await server.call("nixpkgs_uninstall_tool", { name: "jq" })).toMatchObject({ structuredContent: { removed: "nixpkgs_jq" } });
  });

  it("names tools validly and uniquely: dotted paths round-trip, a second install of a package gets its own name", async () => {
    const dotted = await server.call("nixpkgs_install_tool", { package: "perlPackages.hexdumper" });
    expect(dotted.structuredContent).toMatchObject({ name: "nixpkgs_perlPackages__hexdumper" });
    // Without a program, a package of several would make a tool that refuses every call.
    const none = await server.call("nixpkgs_install_tool", { package: "coreutils" });
    expect(textOf(none)).toBe("coreutils has several programs and no main one; pass program, e.g. ls.");
    const echo = await server.call("nixpkgs_install_tool", { package: "coreutils", program: "echo" });
    const ls = await server.call("nixpkgs_install_tool", { package: "coreutils", program: "ls" });
    const echoN = await server.call("nixpkgs_install_tool", { package: "coreutils", program: "echo", default_args: ["-n"] });
    const names = [echo, ls, echoN].map((r) => (r.structuredContent as { name: string }).name);
    expect(names).toEqual(["nixpkgs_echo", "nixpkgs_ls", "nixpkgs_echo-2"]);
    for (const { name } of (await server.client.listTools()).tools) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect((await ok("nixpkgs_echo", { args: ["hello"] })).stdout).toBe("hello\n");
    expect((await ok("nixpkgs_echo-2", { args: ["hello"] })).stdout).toBe("hello");
    // Its default arguments are echo's: another program of the package runs without them.
    expect((await ok("nixpkgs_echo-2", { program: "printf", args: ["%s", "hi"] })).stdout).toBe("hi");
  });

  it("keeps installed tools across restarts", async () => {
    await server.close();
    server = await start();
    const names = (await server.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(["nixpkgs_ripgrep", "nixpkgs_echo", "nixpkgs_ls", "nixpkgs_echo-2", "nixpkgs_perlPackages__hexdumper"]),
    );
    expect((await ok("nixpkgs_ripgrep", { args: ["x"], stdin: "x\n" })).stdout).toBe("1\n");
    const listed = (await server.call("nixpkgs_list_installed", {})).structuredContent as { installed: { name: string }[] };
    expect(listed.installed.map((tool) => tool.name).sort()).toEqual([
      "nixpkgs_echo",
      "nixpkgs_echo-2",
      "nixpkgs_ls",
      "nixpkgs_perlPackages__hexdumper",
      "nixpkgs_ripgrep",
    ]);
    expect(JSON.parse(readFileSync(join(scratch, "state", "nixpkgs", "installed-tools.json"), "utf8")).tools).toHaveLength(5);
  });

  it("uninstalls: list_changed, gone from the tools and from the list", async () => {
    const before = listChanges;
    expect((await server.call("nixpkgs_uninstall_tool", { name: "nixpkgs_ripgrep" })).isError).toBeFalsy();
    expect(await waitFor(() => listChanges > before, 3000)).toBe(true);
    expect((await server.client.listTools()).tools.map((tool) => tool.name)).not.toContain("nixpkgs_ripgrep");
    const listed = (await server.call("nixpkgs_list_installed", {})).structuredContent as { installed: { name: string }[] };
    expect(listed.installed.map((tool) => tool.name)).not.toContain("nixpkgs_ripgrep");
  });

  it("installs a program named where a package is meant as that program of its package", async () => {
    const installed = await server.call("nixpkgs_install_tool", { package: "sort" });
    expect(installed.structuredContent).toMatchObject({ name: "nixpkgs_sort", package: "coreutils", already_installed: false });
    expect((await ok("nixpkgs_sort", { stdin: "b\na\n" })).stdout).toBe("a\nb\n");
    expect((await server.call("nixpkgs_uninstall_tool", { name: "nixpkgs_sort" })).isError).toBeFalsy();
  });

  it("names a tool for the program asked for, and takes a package as nixpkgs_execute does; refuses a program that is no name", async () => {
    const wc = await server.call("nixpkgs_install_tool", { package: "coreutils", program: "wc" });
    expect(wc.structuredContent).toMatchObject({ name: "nixpkgs_wc", package: "coreutils", program: "wc", already_installed: false });
    expect(textOf(wc)).toMatch(/^Installed: nixpkgs_wc runs wc of coreutils\. /);
    expect((await ok("nixpkgs_wc", { args: ["-l"], stdin: "a\nb\n" })).stdout.trim()).toBe("2");
    const installable = await server.call("nixpkgs_install_tool", { package: "nixpkgs#jq" });
    expect(installable.structuredContent).toMatchObject({ name: "nixpkgs_jq", package: "jq" });
    const outside = await server.call("nixpkgs_install_tool", { package: "coreutils", program: "../../bin/sh" });
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toMatch(/^'\.\.\/\.\.\/bin\/sh' is no program name/);
    for (const program of ["wc --help", "-rf"]) {
      expect(textOf(await server.call("nixpkgs_install_tool", { package: "coreutils", program }))).toMatch(/ is no program name/);
    }
    for (const name of ["nixpkgs_wc", "nixpkgs_jq"]) await server.call("nixpkgs_uninstall_tool", { name });
  });

  it("says the arguments an installed tool puts first, in its description and in the list", async () => {
    await server.call("nixpkgs_install_tool", { package: "coreutils", program: "wc", default_args: ["-l"] });
    const { tools } = await server.client.listTools();
    expect(tools.find((tool) => tool.name === "nixpkgs_wc")?.description).toMatch(/\(runs wc -l\)$/);
    expect(textOf(await server.call("nixpkgs_list_installed"))).toContain("nixpkgs_wc (coreutils wc -l)");
    expect((await ok("nixpkgs_wc", { stdin: "a\nb\n" })).stdout.trim()).toBe("2");
    await server.call("nixpkgs_uninstall_tool", { name: "nixpkgs_wc" });
  });

  it("installs a name the index lacks when Nix has it", async () => {
    const installed = await server.call("nixpkgs_install_tool", { package: "hexdumper_1" });
    expect(installed.structuredContent).toMatchObject({ package: "hexdumper_1", already_installed: false });
    const { name } = installed.structuredContent as { name: string };
    expect((await ok(name, { args: ["-p"], stdin: "hi" })).stdout).toBe("6869\n");
    expect((await server.call("nixpkgs_uninstall_tool", { name })).isError).toBeFalsy();
  });
});

describe("install agrees with execute", () => {
  it("refuses a name Nix does not have, as execute does, installing nothing", async () => {
    const before = listChanges;
    for (const [name, words] of [
      ["nosuchpkgx", "no package `nosuchpkgx` in this nixpkgs"],
      ["ripgrp", "no package `ripgrp` in this nixpkgs; did you mean ripgrep?"],
    ]) {
      const refused = await server.call("nixpkgs_install_tool", { package: name });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain(words);
    }
    const tools = (await server.client.listTools()).tools.map((tool) => tool.name);
    expect(tools).not.toContain("nixpkgs_nosuchpkgx");
    expect(tools).not.toContain("nixpkgs_ripgrp");
    const listed = (await server.call("nixpkgs_list_installed", {})).structuredContent as { installed: { package: string }[] };
    const packages = listed.installed.map((tool) => tool.package);
    expect(packages).not.toContain("nosuchpkgx");
    expect(packages).not.toContain("ripgrp");
    expect(listChanges).toBe(before);
  });

  it("builds first: refuses a library and a program the package lacks, installing nothing", async () => {
    const before = listChanges;
    for (const [args, words] of [
      [{ package: "python3Packages.requests" }, /^python3Packages\.requests installs no programs in bin\/; it may be a library/],
      [{ package: "coreutils", program: "nosuchprogram" }, /^coreutils has no program 'nosuchprogram'; its programs: .*\bls\b/],
    ] as const) {
      const refused = await server.call("nixpkgs_install_tool", args);
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(words);
    }
    const listed = (await server.call("nixpkgs_list_installed", {})).structuredContent as {
      installed: { package: string; program?: string }[];
    };
    expect(listed.installed.filter((tool) => tool.package === "python3Packages.requests" || tool.program === "nosuchprogram")).toEqual([]);
    expect(listChanges).toBe(before);
  });
});

describe("only the nixpkgs tools that can work here", () => {
  const nixpkgsTools = async (handle: ServerHandle) =>
    (await handle.client.listTools()).tools.map((tool) => tool.name).filter((name) => name.startsWith("nixpkgs_"));

  it("without a nixpkgs to realise from: search where there is an index, else nothing", async () => {
    const base = [
      "--metadata",
      harnessMetadata(),
      "--project",
      project,
      "--state-dir",
      join(scratch, "bare-state"),
      "--cache-dir",
      join(scratch, "bare-cache"),
    ];
    const searchOnly = await startServer({ args: [...base, "--set", `nixpkgs.index=${index}`] });
    try {
      expect(await nixpkgsTools(searchOnly)).toEqual(["nixpkgs_search"]);
      // A call of one left out says why.
      const call = await searchOnly.call("nixpkgs_execute", { package: "jq" });
      expect(call.isError).toBe(true);
      expect(textOf(call)).toMatch(/^nixpkgs_execute is off here: no nixpkgs to realise packages from; tools: /);
    } finally {
      await searchOnly.close();
    }
    const none = await startServer({ args: base });
    try {
      expect(await nixpkgsTools(none)).toEqual([]);
    } finally {
      await none.close();
    }
    // A nixpkgs.source path that does not exist is no nixpkgs: execute is not offered, and the log says why.
    const missing = await startServer({
      args: [...base, "--set", `nixpkgs.index=${index}`, "--set", "nixpkgs.source=/nonexistent/nixpkgs"],
    });
    try {
      expect(await nixpkgsTools(missing)).toEqual(["nixpkgs_search"]);
      expect(missing.stderr()).toMatch(/nixpkgs\.source \/nonexistent\/nixpkgs does not exist, so only nixpkgs_search is offered/);
    } finally {
      await missing.close();
    }
  });

  it("without nix on the daemon's PATH: search only, and a call of execute says why", async () => {
    const noNix = mkdtempSync(join(scratch, "path-without-nix-"));
    for (const program of ["bwrap", "rg"])
      symlinkSync(execFileSync("sh", ["-c", `command -v ${program}`], { encoding: "utf8" }).trim(), join(noNix, program));
    const { handle } = await startWithoutIndex("no-nix", ["--set", `nixpkgs.index=${index}`], { PATH: noNix });
    try {
      expect(await nixpkgsTools(handle)).toEqual(["nixpkgs_search"]);
      expect(textOf(await handle.call("nixpkgs_execute", { package: "jq" }))).toMatch(
        /^nixpkgs_execute is off here: nix is not on the daemon's PATH; tools: /,
      );
    } finally {
      await handle.close();
    }
  });

  it("a configured index that is no file leaves search out and says why, in the log and to a call of it", async () => {
    const notAnIndex = mkdtempSync(join(scratch, "index-dir-"));
    const { handle } = await startWithoutIndex("dir-index", ["--set", `nixpkgs.index=${notAnIndex}`]);
    try {
      expect(await nixpkgsTools(handle)).toEqual([
        "nixpkgs_execute",
        "nixpkgs_install_tool",
        "nixpkgs_uninstall_tool",
        "nixpkgs_list_installed",
      ]);
      const why = `nixpkgs index ${notAnIndex} is a directory, not an index file`;
      expect(textOf(await handle.call("nixpkgs_search", { query: "jq" }))).toMatch(
        new RegExp(`^nixpkgs_search is off here: ${why}; tools: `),
      );
      expect(handle.stderr()).toContain(why);
      // A package tool's name with a number to tell it apart names the package without it.
      expect(textOf(await handle.call("nixpkgs_jq-2", {}))).toBe(
        'no tool `nixpkgs_jq-2`; run the package with nixpkgs_execute {"package": "jq"}',
      );
    } finally {
      await handle.close();
    }
  });

  it("a nixpkgs.source path that appears after start adds execution, and search from it, with list_changed", async () => {
    const later = join(scratch, "nixpkgs-cloned-later");
    const { handle, changes } = await startWithoutIndex("later", [
      ...harnessMountsFlag(),
      "--set",
      `nixpkgs.source=${later}`,
      "--set",
      'nixpkgs.nix_options=["--option", "substituters", ""]',
    ]);
    try {
      expect(await nixpkgsTools(handle)).toEqual([]);
      symlinkSync(FIXTURE, later);
      expect(await waitFor(() => changes() > 0, 30_000)).toBe(true);
      expect(await nixpkgsTools(handle)).toEqual([
        "nixpkgs_search",
        "nixpkgs_execute",
        "nixpkgs_install_tool",
        "nixpkgs_uninstall_tool",
        "nixpkgs_list_installed",
      ]);
      expect(handle.stderr()).toMatch(
        /packages can be realised now \(before: nixpkgs\.source \S+nixpkgs-cloned-later does not exist\); nixpkgs_execute is offered/,
      );
      // The first need starts the index's build from the new nixpkgs; ready, it changes execute's list of everyday packages.
      const offered = changes();
      const run = await handle.call("nixpkgs_execute", { package: "jq", args: ["-n", "1+1"] });
      expect(textOf(run)).toMatch(/^2$/m);
      await handle.call("nixpkgs_search", { query: "rg" });
      expect(await waitFor(() => changes() > offered, 120_000)).toBe(true);
      expect(textOf(await handle.call("nixpkgs_search", { query: "rg" }))).toMatch(/^ripgrep /);
    } finally {
      await handle.close();
    }
  }, 180_000);

  it("a nixpkgs.source path that goes away takes execution and installed tools off the list, with list_changed; back, they return", async () => {
    const cloned = join(scratch, "nixpkgs-removed-later");
    symlinkSync(FIXTURE, cloned);
    const { handle, changes } = await startWithoutIndex("removed", [
      "--set",
      `nixpkgs.source=${cloned}`,
      "--set",
      `nixpkgs.index=${index}`,
      "--set",
      'nixpkgs.tools=["jq"]',
      "--set",
      "nixpkgs.common_tools=tools",
    ]);
    try {
      const all = await nixpkgsTools(handle);
      expect(all).toEqual(expect.arrayContaining(["nixpkgs_search", "nixpkgs_execute", "nixpkgs_install_tool", "nixpkgs_jq"]));
      const before = changes();
      unlinkSync(cloned);
      expect(await waitFor(() => changes() > before, 30_000)).toBe(true);
      // The index needs no nixpkgs: search stays.
      expect(await nixpkgsTools(handle)).toEqual(["nixpkgs_search"]);
      for (const name of ["nixpkgs_execute", "nixpkgs_jq"]) {
        const refused = await handle.call(name, { package: "jq" });
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toMatch(new RegExp(`^${name} is off here: nixpkgs\\.source \\S+nixpkgs-removed-later does not exist`));
      }
      const hidden = changes();
      symlinkSync(FIXTURE, cloned);
      expect(await waitFor(() => changes() > hidden, 30_000)).toBe(true);
      expect(await nixpkgsTools(handle)).toEqual(all);
    } finally {
      await handle.close();
    }
  }, 120_000);

  it("while the index builds: a failed evaluation is one line (nix's trace only in the debug log); the index ready, the list changes", async () => {
    const { handle, changes } = await startWithoutIndex("building", ["--set", 'nixpkgs.tools=["no-such-package"]', "--log-level", "debug"]);
    try {
      const before = (await handle.client.listTools()).tools.find((tool) => tool.name === "nixpkgs_execute")!;
      // Not yet checked against an index: the configured package is named.
      expect(before.description).toMatch(/no-such-package/);
      // Read-only: no package here may write the project or use the network.
      expect(before.annotations?.readOnlyHint).toBe(true);
      const result = await handle.call("nixpkgs_execute", { package: "no-such-package" });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^no package `no-such-package` in this nixpkgs(;|$)/);
      expect(textOf(result)).not.toMatch(/error:|trace|\.nix:/);
      expect(handle.stderr()).toMatch(/attribute 'no-such-package' missing/);
      // The failed call started the index build; once it is ready the description drops the package.
      expect(await waitFor(() => changes() > 0, 120_000)).toBe(true);
      const after = (await handle.client.listTools()).tools.find((tool) => tool.name === "nixpkgs_execute")!;
      expect(after.description).not.toMatch(/no-such-package/);
      expect(after.description).toMatch(/data: jq\b/);
    } finally {
      await handle.close();
    }
  }, 180_000);

  it('with common_tools = "tools", the index ready: the tools it rules out go in one list_changed, not one each', async () => {
    const { handle, changes } = await startWithoutIndex("burst", ["--set", 'nixpkgs.common_tools="tools"']);
    try {
      const before = (await handle.client.listTools()).tools.length;
      // A failed call starts the index build; the fixture index lacks most everyday packages.
      expect((await handle.call("nixpkgs_execute", { package: "no-such-package" })).isError).toBe(true);
      expect(await waitFor(() => changes() > 0, 120_000)).toBe(true);
      // Notifications sent with the first arrive before the answer to a later request.
      await handle.client.ping();
      expect((await handle.client.listTools()).tools.length).toBeLessThan(before - 10);
      expect(changes()).toBe(1);
    } finally {
      await handle.close();
    }
  }, 180_000);
});
