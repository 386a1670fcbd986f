// The response budget: every answer registerTool sends fits responses.max_bytes, whatever the tool
// returns (huge text, escape-heavy text, one endless line, big structured content), keeps its
// head and tail, says in one line what was omitted and where the whole text is, and still matches
// the tool's output schema (the SDK's client validates it).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createLogger } from "../../src/log.js";
import { cutText, fitResponse, partText, responseBytes, type Kept } from "../../src/mcp/response-budget.js";
import { ResultStore } from "../../src/mcp/results.js";
import { defineTool, registerTool, setResponsePolicy } from "../../src/mcp/tool.js";

const BUDGET = 32_000;
const lines = (count: number) => Array.from({ length: count }, (_, i) => `${i + 1}\n`).join("");
const keptAt = (path: string) => async (): Promise<Kept> => ({ path });
const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;
const escaped = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;
const MARKER =
  /^\[… lines? (\d+)(?:-(\d+))? of (\d+) omitted \((\d+) bytes(?:; lines? ([\d and]+) in part)?\); the answer's whole text is in \S+( \(long lines wrapped\))?: read_content it with start_line (\d+), end_line (\d+) …\]$/gm;

const newlines = (text: string) => text.split("\n").length - 1;

/**
 * Reads a cut text against the whole text kept. Each marker's numbers are exact: the omitted bytes
 * start in line `first` and end in line `last` (neither side shows just the newline of a line it
 * omits), and putting them back gives the kept text. Its page, like every kept line, fits `pageBytes`.
 */
function expectExact(cut: string, whole: string, pageBytes: number): void {
  const kept = whole.split("\n");
  expect(kept.filter((line) => escaped(line) > pageBytes)).toEqual([]);
  const lineAt = (at: number) => 1 + newlines(whole.slice(0, at));
  const bareNewline = (at: number) => whole[at] === "\n" && at > 0 && whole[at - 1] !== "\n";
  const markers = [...cut.matchAll(MARKER)];
  expect(markers.length).toBeGreaterThan(0);
  let at = 0;
  let shown = 0;
  for (const marker of markers) {
    const [first, last = first, total, omitted, , , start, end] = marker.slice(1).map(Number) as number[];
    const inPart = (marker[5] ?? "").split(" and ").filter(Boolean).map(Number);
    expect(total).toBe(kept.length - (whole.endsWith("\n") ? 1 : 0));
    let head = cut.slice(shown, marker.index);
    expect(head === "" || head.endsWith("\n")).toBe(true);
    // The marker has a line of its own: a head that ends within a line gets a newline before it.
    if (!whole.startsWith(head, at)) head = head.slice(0, -1);
    expect(whole.slice(at, at + head.length)).toBe(head);
    const from = at + head.length;
    const to = from + Buffer.from(whole.slice(from)).subarray(0, omitted).toString().length;
    expect([lineAt(from), lineAt(to - 1)]).toEqual([first, last]);
    expect([bareNewline(from), bareNewline(to)]).toEqual([false, false]);
    // A line the cut shows some of is said to be omitted in part, and only such a line.
    const partly = [...new Set([...(from > 0 && whole[from - 1] !== "\n" ? [first] : []), ...(whole[to - 1] !== "\n" ? [last] : [])])];
    expect(inPart).toEqual(partly);
    expect(start).toBe(first);
    expect(escaped(kept.slice(start! - 1, end).join("\n"))).toBeLessThanOrEqual(pageBytes);
    at = to;
    shown = marker.index + marker[0].length + 1;
  }
  expect(cut.slice(shown)).toBe(whole.slice(at));
}

describe("fitResponse", () => {
  it("returns an answer that fits as it is, keeping nothing", async () => {
    const result: CallToolResult = { content: [{ type: "text", text: "small" }], structuredContent: { out: "small" } };
    let kept = 0;
    expect(await fitResponse(result, BUDGET, async () => ({ path: `/kept/${++kept}` }))).toBe(result);
    expect(kept).toBe(0);
  });

  it("keeps head and tail of a long text, names the omitted lines and a page of them, and keeps the whole text", async () => {
    const text = lines(300_000);
    let whole = "";
    const result = await fitResponse(
      { content: [{ type: "text", text }], structuredContent: { stdout: text, exit: 0 } },
      BUDGET,
      async (all) => {
        whole = all;
        return { path: "/kept/1-run.txt" };
      },
    );
    expect(whole).toBe(text);
    expect(responseBytes(result)).toBeLessThanOrEqual(BUDGET);
    const cut = textOf(result);
    const marker =
      /\n\[… lines (\d+)-(\d+) of 300000 omitted \((\d+) bytes\); the answer's whole text is in \/kept\/1-run\.txt: read_content it with start_line (\d+), end_line (\d+) …\]\n/.exec(
        cut,
      );
    expect(marker).not.toBeNull();
    const [first, last, omitted, start, end] = marker!.slice(1).map(Number) as [number, number, number, number, number];
    expect(cut.startsWith(`1\n2\n`)).toBe(true);
    expect(cut).toContain(`\n${first - 1}\n[…`);
    expect(cut).toContain(`…]\n${last + 1}\n`);
    expect(cut.endsWith("299999\n300000\n")).toBe(true);
    expect(omitted).toBe(Buffer.byteLength(lines(last)) - Buffer.byteLength(lines(first - 1)));
    expect(start).toBe(first);
    // The suggested page is about half the budget of the whole text.
    const page = text
      .split("\n")
      .slice(start - 1, end)
      .join("\n");
    expect(page.length).toBeGreaterThan(BUDGET / 4);
    expect(page.length).toBeLessThanOrEqual(BUDGET / 2);
    // Structured content carries the facts and a short head and tail, not the payload again.
    expect(result.structuredContent).toMatchObject({ exit: 0 });
    const stdout = (result.structuredContent as { stdout: string }).stdout;
    expect(stdout.length).toBeLessThan(1024);
    expect(stdout).toMatch(
      /^1\n2\n[\s\S]*\n\[… \d+ characters omitted; the answer's whole text is in \/kept\/1-run\.txt …\]\n[\s\S]*\n300000\n$/,
    );
    expect(result._meta).toEqual({ "nixshed/cut": "the answer's whole text is in /kept/1-run.txt" });
  });

  it("fits text that JSON escapes at up to six bytes a character, and one endless line", async () => {
    const nasty = `"\\\u0001\u001f\t😀\ud800é${"x".repeat(7)}\n`.repeat(20_000);
    for (const text of [nasty, nasty.replaceAll("\n", " "), "\u0001".repeat(100_000), "😀".repeat(100_000)]) {
      const result = await fitResponse({ content: [{ type: "text", text }] }, BUDGET, keptAt("/kept/x"));
      expect(responseBytes(result)).toBeLessThanOrEqual(BUDGET);
      expect(responseBytes(result)).toBeGreaterThan(BUDGET * 0.7);
      expect(textOf(result)).toMatch(/\[… (line 1|lines \d+-\d+) of \d+ omitted/);
      // A cut never splits a surrogate pair.
      expect(textOf(result)).not.toMatch(/[\ud83d](?![\ude00])/);
    }
  });

  /** The answer fitResponse gives for `parts`, with the whole text it kept. */
  async function fit(parts: string[]): Promise<{ cut: string; whole: string }> {
    let whole = "";
    const result = await fitResponse(
      { content: [{ type: "text", text: parts.join("\n") }] },
      BUDGET,
      async (all) => {
        whole = all;
        return { path: "/kept/1" };
      },
      parts,
    );
    expect(responseBytes(result)).toBeLessThanOrEqual(BUDGET);
    return { cut: textOf(result), whole };
  }

  it("names exactly the lines of the kept text it omits, in one text or in parts, and pages from the first of them", async () => {
    // Lines of 10,000 characters: the head ends within one, and the page starts where that line does.
    const wide = Array.from({ length: 50 }, (_, i) => String(i % 10).repeat(10_000)).join("\n");
    for (const parts of [[lines(300_000)], ["exit 0", `--- stdout\n${lines(200_000)}`, `--- stderr\n${lines(100_000)}`], [wide]]) {
      const { cut, whole } = await fit(parts);
      expect(whole).toBe(parts.join("\n"));
      expect(cut).not.toContain("wrapped");
      expectExact(cut, whole, BUDGET / 2);
    }
  });

  it("points a file part's marker at the file, by its own line numbers; with long lines wrapped, at the kept text", async () => {
    // Lines 101-100100 of a file: the head is lines 101 and on, the marker counts from there.
    const text = Array.from({ length: 100_000 }, (_, i) => `${i + 101}`).join("\n");
    const parts = [
      "==> data.txt (lines 101-100100 of 100100) <==",
      { text, file: { call: 'read_content "data.txt"', firstLine: 101, totalLines: 100_100 } },
    ];
    const whole = { content: [{ type: "text" as const, text: parts.map(partText).join("\n") }] };
    const result = await fitResponse(whole, BUDGET, keptAt("/kept/3"), parts);
    const cut =
      /\n(\d+)\n\[… lines (\d+)-(\d+) of 100100 omitted \(\d+ bytes\); read_content "data\.txt" with start_line (\d+), end_line \d+ …\]\n(\d+)\n/.exec(
        textOf(result),
      );
    expect(cut).not.toBeNull();
    const [before, first, last, start, after] = cut!.slice(1).map(Number);
    expect([first, last, start]).toEqual([before! + 1, after! - 1, first]);
    const wide = [{ text: "x".repeat(100_000), file: { call: 'read_content "wide.txt"', firstLine: 1 } }];
    expect(textOf(await fitResponse({ content: [{ type: "text", text: wide[0]!.text }] }, BUDGET, keptAt("/kept/4"), wide))).toMatch(
      /the answer's whole text is in \/kept\/4 \(long lines wrapped\)/,
    );
  });

  it("wraps lines longer than a page in the kept text and says so: every line pages, every page fits", async () => {
    const line = "a".repeat(5_000_000);
    const { cut, whole } = await fit(["exit 0 · 1 ms", `--- stdout\n${line}\nEND\n`]);
    expect(cut).toMatch(
      /^exit 0 · 1 ms\n--- stdout\na{1000,}\n\[… lines 3-\d+ of \d+ omitted .* \(long lines wrapped\): read_content it with start_line 3, end_line 3 …\](\na+)+\nEND\n$/,
    );
    expect(whole.replaceAll("\n", "")).toBe(`exit 0 · 1 ms--- stdout${line}END`);
    expectExact(cut, whole, BUDGET / 2);
  });

  it("wraps escape-heavy lines by their escaped size, never inside a surrogate pair", async () => {
    for (const text of ["😀".repeat(100_000), `"\\\u0001😀é`.repeat(30_000), `${"x".repeat(9)}😀`.repeat(10_000)]) {
      const { cut, whole } = await fit([text]);
      expect(whole.split("\n").join("")).toBe(text);
      // No line of it starts or ends with half a pair.
      expect(whole).not.toMatch(/[\ud800-\udbff]\n|\n[\udc00-\udfff]/);
      expectExact(cut, whole, BUDGET / 2);
    }
  });

  it("cuts next to a newline without counting a line it shows whole as omitted", () => {
    // Where the head and the tail of a long text end, in characters.
    const probe = cutText("x".repeat(100_000), BUDGET, { path: "/k" }, BUDGET);
    const headChars = probe.indexOf("\n");
    const tailChars = probe.length - probe.lastIndexOf("\n") - 1;
    for (let shift = -2; shift <= 2; shift++) {
      const early = `${"x".repeat(headChars + shift)}\n${lines(20_000)}`;
      expectExact(cutText(early, BUDGET, { path: "/k" }, BUDGET), early, BUDGET);
      const late = `${lines(20_000)}${"y".repeat(tailChars + shift)}`;
      expectExact(cutText(late, BUDGET, { path: "/k" }, BUDGET), late, BUDGET);
    }
  });

  it("cuts big structured content to its shape: short strings, first items, same keys", async () => {
    const row = (i: number) => ({ path: `dir/file-${i}.txt`, text: "y".repeat(400), tags: ["a", "b"], n: i });
    const structured = { total: 5000, rows: Array.from({ length: 5000 }, (_, i) => row(i)), note: "n".repeat(100_000) };
    const result = await fitResponse(
      { content: [{ type: "text", text: "5000 rows" }], structuredContent: structured },
      BUDGET,
      keptAt("/kept/2"),
    );
    expect(responseBytes(result)).toBeLessThanOrEqual(BUDGET);
    const cut = result.structuredContent as typeof structured;
    expect(cut.total).toBe(5000);
    expect(cut.rows.length).toBeGreaterThan(0);
    expect(cut.rows.length).toBeLessThan(5000);
    expect(Object.keys(cut.rows[0]!)).toEqual(["path", "text", "tags", "n"]);
    expect(textOf(result)).toBe("5000 rows");
  });

  it("abridges structured content that repeats the text, and leaves it whole beside a summary", async () => {
    const content = lines(3000);
    const read = await fitResponse(
      { content: [{ type: "text", text: `a.txt\n${content}` }], structuredContent: { path: "a.txt", content } },
      BUDGET,
      keptAt("/kept/never"),
    );
    expect(textOf(read)).toBe(`a.txt\n${content}`);
    expect(Buffer.byteLength(JSON.stringify(read.structuredContent))).toBeLessThanOrEqual(BUDGET / 8);
    expect((read.structuredContent as { content: string }).content).toMatch(/characters omitted; the text holds the whole answer/);
    expect(read._meta?.["nixshed/cut"]).toBe("the text holds the whole answer");
    const summary: CallToolResult = { content: [{ type: "text", text: "3000 rows" }], structuredContent: { rows: content.split("\n") } };
    expect(await fitResponse(summary, BUDGET, keptAt("/kept/never"))).toBe(summary);
  });

  it("says so when the whole text could not be kept", async () => {
    const result = await fitResponse({ content: [{ type: "text", text: lines(100_000) }], isError: true }, BUDGET, async () => ({
      error: "disk full",
    }));
    expect(responseBytes(result)).toBeLessThanOrEqual(BUDGET);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/omitted \(\d+ bytes\); the whole text was not kept \(disk full\) …\]/);
  });

  it("gives the text all it has room for and never more", () => {
    for (const room of [0, 100, 1000, 5000]) {
      const cut = cutText(lines(10_000), room + 400, { path: "/k" }, 2000);
      expect(Buffer.byteLength(JSON.stringify(cut))).toBeLessThanOrEqual(room + 400);
    }
  });
});

describe("registerTool", () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  async function serve(maxBytes?: number, store?: ResultStore) {
    const server = new McpServer({ name: "t", version: "0" });
    if (maxBytes !== undefined) setResponsePolicy(server, { maxBytes, store });
    const output = { items: z.array(z.object({ path: z.string(), content: z.string() })), count: z.number().int() };
    const tool = defineTool({
      name: "huge",
      title: "Huge",
      description: "Returns n items of a 1 KB line each",
      input: { n: z.number().int(), fail: z.boolean().optional() },
      output,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      async run({ n, fail }) {
        const items = Array.from({ length: n }, (_, i) => ({ path: `f${i}`, content: `${i}:${"z".repeat(1000)}` }));
        if (fail) throw new Error(items.map((item) => item.content).join("\n"));
        return { items, count: n };
      },
      render: ({ items }) => items.map((item) => item.content).join("\n"),
    });
    registerTool(
      server,
      tool,
      createLogger("error", () => {}),
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "c", version: "0" });
    await client.connect(clientSide);
    close = async () => {
      await client.close();
      await server.close();
    };
    // The client validates structured content against the listed output schema.
    await client.listTools();
    return (args: Record<string, unknown>) => client.callTool({ name: "huge", arguments: args }) as Promise<CallToolResult>;
  }

  it("fits every answer, success or failure, to the server's budget; structured content still matches the output schema", async () => {
    const store = await ResultStore.open(mkdtempSync(join(tmpdir(), "nixshed-results-")), {
      files: 2,
      seconds: 3600,
      bytes: 1 << 30,
      answerBytes: 32_000,
    });
    const call = await serve(8192, store);
    for (const n of [1, 7, 100, 3000]) {
      const result = await call({ n });
      expect(responseBytes(result)).toBeLessThanOrEqual(8192);
      expect(textOf(result)).toContain(`${n - 1}:zzz`);
    }
    const failure = await call({ n: 3000, fail: true });
    expect(failure.isError).toBe(true);
    expect(responseBytes(failure)).toBeLessThanOrEqual(8192);
    expect(textOf(failure)).toMatch(/^huge: internal error: 0:z+\n[\s\S]*omitted[\s\S]*\n2999:z+\nThis is a nixshed bug/);
    // Only the newest files are kept (n = 7 fits once its structured content does not repeat the text: nothing kept).
    const kept = readdirSync(store.dir).sort();
    expect(kept).toEqual(["0002-huge.txt", "0003-huge.txt"]);
    expect(readFileSync(join(store.dir, kept[0]!), "utf8")).toContain("\n2999:z");
  });

  it("cuts to the default budget when no policy was set, saying the whole text was not kept", async () => {
    const result = await (await serve())({ n: 3000 });
    expect(responseBytes(result)).toBeLessThanOrEqual(BUDGET);
    expect(textOf(result)).toMatch(/the whole text was not kept/);
  });
});
