// Answers within the response budget end to end: the built daemon over MCP, the harness jail. A
// long answer comes back under responses.max_bytes with its head and tail, one line naming what
// was omitted, and the whole text readable (read-only) with read_content.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, textOf, type ServerHandle } from "../daemon/test/support/mcp-client.js";
import { harnessMetadata } from "./harness/metadata.js";

const BUDGET = 32_000;
let server: ServerHandle;
let project: string;
let cache: string;

const bytes = (result: CallToolResult) => Buffer.byteLength(JSON.stringify(result));
const LATIN1 = Array.from({ length: 12_000 }, (_, i) => `${i + 1} ${"é“".repeat(60)}\n`).join("");
const LONG_LINE = Array.from({ length: 300_000 }, (_, i) => `${String(i * 10).padStart(9, "0")},`).join("");
const MARKER =
  /^\[… lines (\d+)-(\d+) of (\d+) omitted \((\d+) bytes(?:; lines? [\d and]+ in part)?\); the answer's whole text is in (\S+)(?: \(long lines wrapped\))?: read_content it with start_line (\d+), end_line (\d+) …\]$/m;

function marker(result: CallToolResult) {
  const found = MARKER.exec(textOf(result));
  if (!found) throw new Error(`no marker in: ${textOf(result).slice(0, 300)}`);
  const [, first, last, total, omitted, path, start, end] = found;
  return {
    first: Number(first),
    last: Number(last),
    total: Number(total),
    omitted: Number(omitted),
    path: path!,
    start: Number(start),
    end: Number(end),
    /** The text shown before and after the marker's line. */
    around: [found.input.slice(0, found.index), found.input.slice(found.index + found[0].length + 1)] as const,
  };
}

/**
 * The whole text of a cut answer as an agent puts it together: the lines it shows whole, and the
 * lines the marker names read from the kept text, page after page of the size it suggests, each
 * page an answer within the budget and cut no further.
 */
async function pageThrough(result: CallToolResult): Promise<string> {
  const cut = marker(result);
  const before = cut.around[0].split("\n").slice(0, cut.first - 1);
  const tail = cut.around[1].split("\n");
  const after = tail.slice(tail.length - (cut.total - cut.last) - (cut.around[1].endsWith("\n") ? 1 : 0));
  let omitted = "";
  for (let start = cut.start; start <= cut.last; start += cut.end - cut.start + 1) {
    const end = Math.min(cut.last, start + cut.end - cut.start);
    const page = await server.call("read_content", { path: cut.path, start_line: start, end_line: end });
    expect(bytes(page)).toBeLessThanOrEqual(BUDGET);
    expect(textOf(page)).not.toMatch(MARKER);
    omitted += textOf(page).replace(/^==> .* <==\n/, "");
  }
  return [...before, `${omitted}${after.join("\n")}`].join("\n");
}

beforeAll(async () => {
  project = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-answers-")));
  cache = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-answers-cache-")));
  // 500 KB: 25,000 lines of 20 bytes.
  writeFileSync(join(project, "big.txt"), Array.from({ length: 25_000 }, (_, i) => `line ${String(i + 1).padStart(13, "0")}\n`).join(""));
  // 2.4 MB, more than one call reads: 20,000 lines of 120 bytes.
  writeFileSync(join(project, "huge.txt"), Array.from({ length: 20_000 }, (_, i) => `${String(i + 1).padStart(119, "-")}\n`).join(""));
  // 1.4 MB whose JSON escaping doubles it: 12,000 lines of quotes and backslashes.
  writeFileSync(join(project, "quoted.txt"), Array.from({ length: 12_000 }, (_, i) => `${i + 1}${'"\\'.repeat(60)}\n`).join(""));
  // 1.5 MB of Latin-1 that UTF-8 spells in 3.7 MB: 12,000 lines of "é" and Windows-1252's "“" (two and three bytes).
  writeFileSync(join(project, "latin1.txt"), Buffer.from(LATIN1.replaceAll("“", "\x93"), "latin1"));
  // 3 MB in one line, each 10 bytes saying where they are.
  writeFileSync(join(project, "longline.txt"), LONG_LINE);
  // Many files with long names, for listings and stats.
  mkdirSync(join(project, "many"));
  for (let i = 0; i < 3000; i++) writeFileSync(join(project, "many", `${"n".repeat(150)}-${i}.txt`), `match ${i}\n`);
  server = await startServer({ args: ["--metadata", harnessMetadata(), "--project", project, "--set", `cache_dir=${cache}`] });
});

afterAll(async () => {
  await server?.close();
});

describe("a long answer", () => {
  it("run of seq 1 300000: under 32 KB with head, tail and the omitted lines in one line; the rest pages from the kept text", async () => {
    const result = await server.call("run", { env: "shell", code: "seq 1 300000" });
    expect(result.isError).toBeFalsy();
    expect(bytes(result)).toBeLessThanOrEqual(BUDGET);
    const text = textOf(result);
    expect(text).toMatch(/^exit 0 · \d+ ms\n--- stdout\n1\n2\n3\n/);
    expect(text.endsWith("299999\n300000\n")).toBe(true);
    const cut = marker(result);
    // The kept text is the rendering: two heading lines, then 300,000 lines of output.
    expect(cut.total).toBe(300_002);
    expect(text).toContain(`\n${cut.first - 3}\n[…`);
    expect(text).toContain(`…]\n${cut.last - 1}\n`);
    // Structured content carries the facts, not the payload a second time.
    expect(result.structuredContent).toMatchObject({ exit_code: 0, timed_out: false, truncated: { stdout: 0, stderr: 0 } });
    expect((result.structuredContent as { stdout: string }).stdout.length).toBeLessThan(2048);

    const next = await server.call("read_content", { paths: [cut.path], start_line: cut.start, end_line: cut.end });
    expect(next.isError).toBeFalsy();
    expect(bytes(next)).toBeLessThanOrEqual(BUDGET);
    expect(textOf(next)).toContain(`\n${cut.start - 2}\n${cut.start - 1}\n`);
    expect(textOf(next)).not.toContain("[…");
    expect(cut.end - cut.start).toBeGreaterThan(1000);
  });

  it("run with both streams long: each keeps its own head and tail under its own header, each marker pages the kept text", async () => {
    const result = await server.call("run", { env: "shell", code: "seq -f 'ERR %g' 1 300000 >&2; seq -f 'OUT %g' 1 300000" });
    expect(bytes(result)).toBeLessThanOrEqual(BUDGET);
    const text = textOf(result);
    const [stdout, stderr] = text.split("\n--- stderr\n");
    expect(stdout).toMatch(/\n--- stdout\nOUT 1\nOUT 2\n[\s\S]*\nOUT 300000\n$/);
    expect(stderr).toMatch(/^ERR 1\nERR 2\n[\s\S]*\nERR 300000\n$/);
    const markers = [...text.matchAll(new RegExp(MARKER.source, "gm"))];
    expect(markers.length).toBe(2);
    const whole = readFileSync(markers[0]![5]!, "utf8").split("\n");
    // Each marker's page starts at its first omitted line, counted in the kept text.
    for (const [, first, , , , , start] of markers) {
      expect(start).toBe(first);
      expect(whole[Number(first) - 1]).toMatch(/^(OUT|ERR) \d+$/);
    }
    expect(whole[Number(markers[1]![1]) - 1]).toMatch(/^ERR /);
  });

  it("a mid-size answer that fits is not sent twice: the text has it, structured content the facts", async () => {
    const result = await server.call("read_content", { path: "big.txt", end_line: 700 });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain("line 0000000000700\n");
    expect(bytes(result)).toBeLessThan(14_000 + 5_000);
    expect(result._meta?.["nixshed/cut"]).toMatch(/the text holds the whole answer/);
  });

  it("a listing too long for the answer stops where it fits: one pointer, to the whole listing, never cut a second time", async () => {
    const result = await server.call("list_files", { path: "many" });
    expect(bytes(result)).toBeLessThanOrEqual(BUDGET);
    const text = textOf(result);
    expect(text).not.toMatch(/omitted/);
    const lines = text.split("\n");
    const pointer = /^… (\d+) more \(.*; all 3000 are in (\S+): read_content it from start_line (\d+)\)$/.exec(lines.at(-1)!);
    expect(pointer).not.toBeNull();
    const [, more, all, start] = pointer!;
    const shown = lines.slice(0, -1);
    expect(shown.length + Number(more)).toBe(3000);
    expect(Number(start)).toBe(shown.length + 1);
    const next = await server.call("read_content", { path: all, start_line: Number(start), end_line: Number(start) });
    const listed = readFileSync(all!, "utf8").split("\n");
    expect(listed.slice(0, shown.length)).toEqual(shown);
    expect(textOf(next)).toContain(listed[shown.length]);
  });

  it("a search whose matches outgrow the answer stops where it fits: one pointer, to every match", async () => {
    const result = await server.call("search_files", { pattern: "match", path: "many" });
    expect(bytes(result)).toBeLessThanOrEqual(BUDGET);
    const text = textOf(result);
    expect(text).not.toMatch(/omitted/);
    const lines = text.split("\n");
    const pointer =
      /^\[stopped at (\d+) matches \(the answer is full\): narrow path\/glob or the pattern; all 3000 are in (\S+): read_content it from start_line (\d+)\]$/.exec(
        lines.at(-1)!,
      );
    expect(pointer).not.toBeNull();
    const [, shown, all, start] = pointer!;
    expect(Number(shown)).toBeLessThan(200);
    expect(Number(start)).toBe(lines.length);
    expect(
      readFileSync(all!, "utf8")
        .split("\n")
        .slice(0, lines.length - 1),
    ).toEqual(lines.slice(0, -1));
  });

  it("read of a 500 KB file: under 32 KB with its first and last lines, the rest pages from the file by its own line numbers", async () => {
    const result = await server.call("read_content", { paths: ["big.txt"] });
    expect(bytes(result)).toBeLessThanOrEqual(BUDGET);
    const text = textOf(result);
    expect(text).toMatch(/^==> big\.txt \(lines 1-25000 of 25000\) <==\nline 0000000000001\n/);
    expect(text.endsWith("line 0000000025000\n")).toBe(true);
    const found =
      /^(line (\d+))\n\[… lines (\d+)-(\d+) of 25000 omitted \(\d+ bytes\); read_content "big\.txt" with start_line (\d+), end_line (\d+) …\]\nline (\d+)\n/m.exec(
        text,
      );
    expect(found).not.toBeNull();
    const [first, last, start, end, after] = [3, 4, 5, 6, 7].map((i) => Number(found![i])) as [number, number, number, number, number];
    // The marker sits between the file's lines first - 1 and last + 1, and its pages read just the lines between.
    expect([Number(found![2]), after, start]).toEqual([first - 1, last + 1, first]);
    let omitted = "";
    for (let from = start; from <= last; from += end - start + 1) {
      const page = await server.call("read_content", { path: "big.txt", start_line: from, end_line: Math.min(last, from + end - start) });
      expect(bytes(page)).toBeLessThanOrEqual(BUDGET);
      omitted += textOf(page).replace(/^==> .* <==\n/, "");
    }
    const whole = readFileSync(join(project, "big.txt"), "utf8").split("\n");
    expect(omitted).toBe(`${whole.slice(first - 1, last).join("\n")}\n`);
  });

  it.each([
    ["huge.txt", 60],
    ["quoted.txt", 40],
    ["latin1.txt", 90],
  ])(
    "read of %s, larger than a call reads: one page at a time, next_start_line the first line not shown, every line in order",
    async (file, pages) => {
      let text = "";
      let calls = 0;
      for (let from: number | undefined = 1; from !== undefined; calls++) {
        const page = await server.call("read_content", { path: file, start_line: from });
        expect(bytes(page)).toBeLessThanOrEqual(BUDGET);
        // Nothing read goes unshown: no omitted middle, one way on.
        expect(textOf(page)).not.toMatch(/omitted/);
        text += textOf(page)
          .split("\n")
          .filter((line) => !line.startsWith("==>") && !line.startsWith("[budget spent"))
          .map((line) => `${line}\n`)
          .join("")
          .replace(/\n$/, "");
        from = (page.structuredContent as { items: { next_start_line?: number }[] }).items[0]!.next_start_line;
      }
      expect(text).toBe(file === "latin1.txt" ? LATIN1 : readFileSync(join(project, file), "utf8"));
      expect(calls).toBeGreaterThan(pages);
    },
  );

  it("run with a 1 MB line: every line of the kept text pages within the budget, the marker naming them exactly", async () => {
    const result = await server.call("run", { env: "shell", code: "head -c 1000000 /dev/zero | tr '\\0' a; echo; echo END" });
    expect(bytes(result)).toBeLessThanOrEqual(BUDGET);
    expect(textOf(result)).toMatch(/ \(long lines wrapped\): read_content/);
    expect(textOf(result).endsWith("a\nEND\n")).toBe(true);
    const whole = readFileSync(marker(result).path, "utf8");
    expect(await pageThrough(result)).toBe(whole);
    // The stream, all of it kept in memory (under sandbox.max_output_bytes), with the wrapping undone.
    expect(whole.replace(/(?<=a)\n(?=a)/g, "")).toMatch(/\n--- stdout\na{1000000}\nEND\n$/);
  }, 120_000);

  it("run with a 5 MB line: its ends shown, the line named in the file that has it, which pages within the budget", async () => {
    const result = await server.call("run", { env: "shell", code: "head -c 5000000 /dev/zero | tr '\\0' a; echo; echo END" });
    expect(bytes(result)).toBeLessThanOrEqual(BUDGET);
    const text = textOf(result);
    expect(text.endsWith("a\nEND\n")).toBe(true);
    const spool = /\[… line 1 of 2 omitted \(\d+ bytes\); all 5000005 bytes are in (\S+): read_content it from start_line 1 …\]/.exec(text);
    expect(readFileSync(spool![1]!, "utf8")).toBe(`${"a".repeat(5_000_000)}\nEND\n`);
    const page = await server.call("read_content", { path: spool![1]!, start_line: 1 });
    expect(bytes(page)).toBeLessThanOrEqual(BUDGET);
    expect(textOf(page)).toMatch(/\[line 1 cut after \d+ bytes: /);
  }, 120_000);

  it("read of a 3 MB single line: the line is cut where it says, and its hints read on to the end of the file", async () => {
    const result = await server.call("read_content", { path: "longline.txt" });
    expect(bytes(result)).toBeLessThanOrEqual(BUDGET);
    expect(result.structuredContent).toEqual({
      items: [expect.objectContaining({ path: "longline.txt", start_line: 1, end_line: 1, total_lines: 1, line_cut: true })],
    });
    expect(result.structuredContent).not.toHaveProperty("items.0.next_start_line");
    // The line's first page: a file larger than a call reads is read one answer's worth at a time.
    const kept = textOf(result).split("\n");
    expect(kept[0]).toBe("==> longline.txt (lines 1-1 of 1) <==");
    const hint =
      /^\[line 1 cut after (\d+) bytes: read on with run \(env shell\), (\d+) bytes a call: (tail -c \+)(\d+)( \/project\/longline\.txt \| head -c \d+), then \+(\d+) and so on\]$/.exec(
        kept.at(-1)!,
      );
    expect(hint).not.toBeNull();
    const [, cutAt, perCall, command, from, rest, then] = hint!;
    let read = kept.slice(1, -1).join("");
    expect(Buffer.byteLength(read)).toBe(Number(cutAt));
    expect(Number(from)).toBe(Number(cutAt) + 1);
    expect(Number(then)).toBe(Number(from) + Number(perCall));
    // Then run, as it says, until the output is shorter than a call's share.
    for (let offset = Number(from); ; offset += Number(perCall)) {
      const run = await server.call("run", { env: "shell", code: `${command}${offset}${rest}` });
      expect(bytes(run)).toBeLessThanOrEqual(BUDGET);
      // stdout alone: on a busy machine bash may say on stderr that it retried a fork.
      const chunk = textOf(run).split("\n--- stderr\n")[0]!.split("\n--- stdout\n")[1] ?? "";
      read += chunk;
      if (chunk.length < Number(perCall)) break;
    }
    expect(read.length).toBe(LONG_LINE.length);
    expect(read === LONG_LINE).toBe(true);
  }, 120_000);

  it("keeps the whole texts read-only, outside the project", async () => {
    const { path } = marker(await server.call("run", { env: "shell", code: "seq 1 100000" }));
    expect(path.startsWith(join(cache, "results"))).toBe(true);
    const write = await server.call("write_content", { items: [{ path, content: "planted" }] });
    expect(JSON.stringify(write)).toMatch(/read-only root/);
    const beside = await server.call("write_content", { items: [{ path: join(path, "..", "new.txt"), content: "planted" }] });
    expect(JSON.stringify(beside)).toMatch(/read-only root/);
    expect(readdirSync(project).sort()).toEqual(["big.txt", "huge.txt", "latin1.txt", "longline.txt", "many", "quoted.txt"]);
  });

  it("fits a session call and an error the same way", async () => {
    const session = await server.call("run", { env: "python", session: "loud", code: "for i in range(200000): print(i)" });
    expect(bytes(session)).toBeLessThanOrEqual(BUDGET);
    expect(textOf(session).endsWith("199998\n199999\n")).toBe(true);
    const failing = await server.call("run", { env: "shell", code: "seq 1 100000 >&2; exit 3" });
    expect(bytes(failing)).toBeLessThanOrEqual(BUDGET);
    expect(textOf(failing)).toMatch(/^exit 3 /);
    expect(textOf(failing).endsWith("100000\n")).toBe(true);
  });
});

/** The spool a stream's marker names (where all of it is kept), and the lines of it the marker says are omitted. */
function spoolOf(stream: string): { first: number; last: number; lines: number; written: number; path: string } {
  const found =
    /^\[… lines (\d+)-(\d+) of (\d+) omitted \(\d+ bytes\); all (\d+) bytes are in (\S+): read_content it from start_line \1 …\]$/m.exec(
      stream,
    );
  if (!found) throw new Error(`no spool named in: ${stream.slice(0, 300)}`);
  const [first, last, lines, written] = found.slice(1, 5).map(Number) as [number, number, number, number];
  return { first, last, lines, written, path: found[5]! };
}

describe("output beyond what a call keeps in memory (sandbox.max_output_bytes)", () => {
  // seq 1 3000000 writes 22,888,896 bytes: over five times the 4 MiB a stream keeps in memory.
  const SEQ_BYTES = 22_888_896;

  it("run: under 32 KB with its head and tail, one marker numbering the lines between in the file that has them all", async () => {
    const result = await server.call("run", { env: "shell", code: "seq 1 3000000" });
    expect(bytes(result)).toBeLessThanOrEqual(BUDGET);
    // Shown whole: the answer needs no second cut, and names no second file.
    expect(result._meta?.["nixshed/cut"]).not.toMatch(/whole text is in/);
    const text = textOf(result);
    expect(text).toMatch(/stdout: \d+ bytes dropped from the middle/);
    expect(text.endsWith("2999999\n3000000\n")).toBe(true);
    expect(text.match(/ bytes are in /g)).toHaveLength(1);
    const spool = spoolOf(text);
    expect(spool.written).toBe(SEQ_BYTES);
    // seq's line n is n: the lines either side of the marker are the ones it does not count.
    expect(spool.lines).toBe(3_000_000);
    expect(text).toContain(`\n${spool.first - 1}\n[… lines ${spool.first}-${spool.last} `);
    expect(text).toContain(` …]\n${spool.last + 1}\n`);
    expect(spool.path.startsWith(join(cache, "results"))).toBe(true);
    const whole = readFileSync(spool.path, "utf8");
    expect(whole.length).toBe(SEQ_BYTES);
    expect(whole.startsWith("1\n2\n3\n")).toBe(true);
    expect(whole).toContain("\n1500000\n1500001\n");
    expect(whole.endsWith("\n3000000\n")).toBe(true);
    // The agent pages it with read_content (read-only, like every kept text).
    const page = await server.call("read_content", { path: spool.path, start_line: 1500000, end_line: 1500002 });
    expect(textOf(page)).toContain("1500000\n1500001\n1500002");
  });

  it("a session call and stderr likewise", async () => {
    const result = await server.call("run", {
      env: "python",
      session: "spooled",
      code: "import sys\nfor i in range(1_000_000): sys.stderr.write(f'{i:07d}\\n')",
    });
    expect(bytes(result)).toBeLessThanOrEqual(BUDGET);
    const spool = spoolOf(textOf(result));
    expect(spool.written).toBe(8_000_000);
    // A program reading the structured content finds the file there.
    expect(result.structuredContent).toMatchObject({ output_in: { stderr: spool.path } });
    expect(result.structuredContent).not.toHaveProperty("output_in.stdout");
    const whole = readFileSync(spool.path, "utf8");
    expect(whole.slice(4_000_000, 4_000_016)).toBe("0500000\n0500001\n");
  });
});

describe("every tool's worst case", () => {
  const long = (i: number) => `many/${"n".repeat(150)}-${i}.txt`;
  const paths = Array.from({ length: 100 }, (_, i) => long(i));
  // The largest answer each tool can be made to give here; a tool missing from this table fails the test.
  const worst: Record<string, Record<string, unknown>[]> = {
    list_files: [{ recursive: true, include_stats: true }, { path: "many" }],
    stat_items: [{ paths }],
    read_content: [{ paths: ["big.txt", "big.txt", "big.txt"] }, { paths }, { path: "longline.txt" }],
    search_files: [
      { pattern: "line|match", context_lines: 3 },
      { pattern: "n+", path: "many" },
    ],
    write_content: [{ items: paths.map((path) => ({ path: `${path}/x`, content: "x" })) }],
    edit_file: [{ path: "big.txt", edits: [{ old_text: "", new_text: "" }], dry_run: true }],
    create_directories: [{ paths: paths.map((path) => `${path}/d`) }],
    run: [
      { env: "shell", code: "seq 1 400000; seq 1 400000 >&2" },
      { env: "shell", code: "head -c 3000000 /dev/urandom | base64 -w0" },
    ],
    list_sessions: [{}],
    close_session: [{ session: "x".repeat(5000) }],
    scan_packages: [{ limit: 5000 }],
    read_package: [{ package: "x".repeat(5000) }],
    nixpkgs_search: [{ query: "a", limit: 100 }],
    nixpkgs_execute: [{ package: "coreutils", program: "seq", args: ["1", "400000"] }],
    nixpkgs_install_tool: [{ package: "x".repeat(5000) }],
    nixpkgs_uninstall_tool: [{ package: "x".repeat(5000) }],
    nixpkgs_list_installed: [{}],
  };

  it("stays under the budget for every listed tool", async () => {
    const big = readFileSync(join(project, "big.txt"), "utf8");
    worst.edit_file = [{ path: "big.txt", edits: [{ old_text: big, new_text: big.toUpperCase() }], dry_run: true }];
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name).filter((name) => !(name in worst))).toEqual([]);
    for (const tool of tools) {
      for (const args of worst[tool.name]!) {
        const result = await server.call(tool.name, args);
        expect(bytes(result), `${tool.name} ${JSON.stringify(args).slice(0, 80)}`).toBeLessThanOrEqual(BUDGET);
      }
    }
  }, 300_000);
});
