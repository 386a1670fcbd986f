// A tools/call as an agent's first guess makes it: a tool that is not one, an argument the tool does
// not take, a missing or mistyped one. Each is one line of the agent's words naming what would work,
// as a tool result, where the SDK answered "MCP error -32602: …" with zod's dump or went on
// silently without the argument.
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CallToolResultSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ONLY_FS, startServer, textOf, type ServerHandle } from "../support/mcp-client.js";

let handle: ServerHandle;

beforeAll(async () => {
  const project = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-calls-")));
  writeFileSync(join(project, "notes.txt"), Array.from({ length: 300 }, (_, i) => `line ${i + 1}`).join("\n"));
  handle = await startServer({ args: [...ONLY_FS, "--project", project], env: { XDG_CACHE_HOME: join(project, ".cache") } });
});

afterAll(async () => {
  await handle.close();
});

/** The error: one line, an error result, never the SDK's wording, never a dump. */
function refusal(result: CallToolResult): string {
  expect(result.isError).toBe(true);
  const text = textOf(result);
  expect(text).not.toMatch(/MCP error|-32602|Input validation error|"code":|\n/);
  return text;
}

describe("a tool that is not one", () => {
  it("names the tool meant, by the name other servers give it or by spelling", async () => {
    expect(refusal(await handle.call("read_file", { path: "notes.txt" }))).toMatch(
      /^no tool `read_file`; did you mean read_content\? Tools: /,
    );
    expect(refusal(await handle.call("read_contnet", { path: "notes.txt" }))).toMatch(
      /^no tool `read_contnet`; did you mean read_content\? Tools: /,
    );
    expect(refusal(await handle.call("frobnicate"))).toMatch(/^no tool `frobnicate`; tools: (?=.*\bread_content\b)(?=.*\blist_files\b)/);
  });
});

describe("a tool the configuration leaves out", () => {
  it("says which setting does, not a tool of a similar name", async () => {
    expect(refusal(await handle.call("run", { code: "ls" }))).toMatch(/^run is off here: sandbox\.enabled = false; tools: /);
    const project = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-calls-ro-")));
    const readOnly = await startServer({
      args: [...ONLY_FS, "--project", project, "--set", "fs.read_only=true"],
      env: { XDG_CACHE_HOME: join(project, ".cache") },
    });
    try {
      expect(refusal(await readOnly.call("write_content", { items: [{ path: "a", content: "b" }] }))).toMatch(
        /^write_content is off here: fs\.read_only = true; tools: /,
      );
    } finally {
      await readOnly.close();
    }
    expect(refusal(await handle.call("delete_items", { paths: ["notes.txt"] }))).toMatch(
      /^delete_items is off here: fs\.allow_delete = false;/,
    );
  });

  it("says no sandbox environment was discovered when sandboxes are on but none is there", async () => {
    const project = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-calls-noenv-")));
    const bare = await startServer({
      args: ["--project", project, "--set", "nixpkgs.enabled=false", "--set", "pkglocal.enabled=false"],
      env: { XDG_CACHE_HOME: join(project, ".cache"), XDG_CONFIG_HOME: join(project, ".config") },
    });
    try {
      expect(refusal(await bare.call("run", { code: "ls" }))).toMatch(
        /^run is off here: no sandbox environment was discovered \(see `nixshed doctor`\); tools: /,
      );
    } finally {
      await bare.close();
    }
  });
});

describe("arguments", () => {
  it("refuses one the tool does not take, naming the closest and those it takes, where it went on without it", async () => {
    expect(refusal(await handle.call("read_content", { path: "notes.txt", from: 100, count: 2 }))).toMatch(
      /^read_content: unknown argument `from`, `count`; it takes: path, paths, .*start_line/,
    );
    expect(refusal(await handle.call("list_files", { pth: "." }))).toMatch(
      /^list_files: unknown argument `pth` \(did you mean `path`\?\); /,
    );
  });

  it("refuses names every object has (toString, constructor, __proto__) as unknown, where the call crashed with -32603", async () => {
    for (const name of ["toString", "constructor", "hasOwnProperty", "__proto__"]) {
      const args = JSON.parse(`{"path": "notes.txt", "${name}": 1}`) as Record<string, unknown>;
      expect(refusal(await handle.call("read_content", args))).toMatch(new RegExp(`^read_content: unknown argument \`${name}\``));
    }
    expect(refusal(await handle.call("write_content", { items: [JSON.parse('{"path": "a.txt", "content": "x", "valueOf": 2}')] }))).toMatch(
      /unknown argument `items\[0\]\.valueOf`/,
    );
  });

  it("refuses one unknown within an item, by its place", async () => {
    expect(refusal(await handle.call("write_content", { items: [{ path: "a.txt", text: "hi" }] }))).toMatch(
      /^write_content: `items\[0\]\.content` is required .*unknown argument `items\[0\]\.text`/,
    );
  });

  it("says which is missing or of the wrong kind, and what it is; the arguments it takes only where a name is wrong", async () => {
    expect(refusal(await handle.call("search_files", { text: "TODO" }))).toMatch(
      /^search_files: `pattern` is required \(.+\); unknown argument `text`/,
    );
    expect(refusal(await handle.call("read_content", { path: 7 }))).toMatch(/^read_content: `path`: must be a string, not 7$/);
    expect(refusal(await handle.call("read_content", { path: "notes.txt", start_line: 1.5 }))).toMatch(
      /^read_content: `start_line`: must be a whole number, not 1\.5$/,
    );
    expect(refusal(await handle.call("read_content", { path: "notes.txt", start_line: 0 }))).toMatch(
      /^read_content: `start_line`: must be at least 1, not 0$/,
    );
    expect(refusal(await handle.call("read_content", { paths: [] }))).toMatch(/^read_content: `paths`: must be at least 1 item, not 0$/);
    // A whole number's own bound (2^53) is broken too, but the tool's is what to know.
    expect(refusal(await handle.call("list_files", { max_depth: 1e20 }))).toMatch(
      /^list_files: `max_depth`: must be at most 64, not 100000000000000000000$/,
    );
  });

  it("refuses arguments that are not an object of named arguments", async () => {
    const result = (await handle.client.request(
      { method: "tools/call", params: { name: "read_content", arguments: ["notes.txt"] } },
      CallToolResultSchema,
    )) as CallToolResult;
    expect(refusal(result)).toMatch(/^read_content: arguments must be an object of named arguments, e\.g\. \{"path": …\}; /);
  });

  it("answers a call without a tool name as invalid params, in one line", async () => {
    for (const params of [undefined, {}, { name: 7 }]) {
      const call = handle.client.request({ method: "tools/call", ...(params && { params }) } as never, CallToolResultSchema);
      await expect(call).rejects.toMatchObject({
        code: -32602,
        message: expect.stringMatching(/takes params \{"name": "<tool>", "arguments": \{…\}\}$/),
      });
      await expect(call).rejects.not.toThrow(/\n/);
    }
  });

  it("takes a number or a yes/no sent as text, as models often send them; other text stays refused", async () => {
    const read = await handle.call("read_content", { path: "notes.txt", start_line: "2", end_line: " 2 " });
    expect(textOf(read)).toMatch(/^==> notes\.txt \(lines 2-2/);
    expect((await handle.call("list_files", { recursive: "true" })).isError).toBeFalsy();
    expect(refusal(await handle.call("read_content", { path: "notes.txt", start_line: "two" }))).toMatch(
      /^read_content: `start_line`: must be a number, not "two"$/,
    );
    expect(refusal(await handle.call("list_files", { recursive: "yes please" }))).toMatch(/^list_files: `recursive`: /);
    // A string argument keeps its text, digits and all.
    expect(textOf(await handle.call("search_files", { pattern: "2", path: "notes.txt" }))).toMatch(/line 2/);
  });

  it("lets a call with only known arguments through, camelCase spellings a tool accepts included", async () => {
    const read = await handle.call("read_content", { path: "notes.txt", start_line: 2, end_line: 3 });
    expect(read.isError).toBeFalsy();
    const edit = await handle.call("edit_file", { path: "notes.txt", edits: [{ oldText: "line 2\n", newText: "two\n" }], dry_run: true });
    expect(edit.isError).toBeFalsy();
  });

  it("takes the spellings agents bring from other tools for a tool's own arguments: camelCase, file_path", async () => {
    for (const args of [
      { path: "notes.txt", startLine: 2, endLine: 2 },
      { file_path: "notes.txt", start_line: 2, end_line: 2 },
      { filePath: "notes.txt", startLine: 2, endLine: 2 },
    ]) {
      const read = await handle.call("read_content", args);
      expect(read.isError).toBeFalsy();
      expect(textOf(read)).toMatch(/line 2/);
      expect(textOf(read)).not.toMatch(/line 3/);
    }
    const edit = await handle.call("edit_file", { filePath: "notes.txt", oldText: "line 2\n", newText: "two\n", dryRun: true });
    expect(edit.isError).toBeFalsy();
    expect(textOf(edit)).toMatch(/^\[dry run, not written\]/);
    // An optional argument sent as null, as clients send one unset, is left out; a required one is not.
    const nulls = await handle.call("read_content", { path: "notes.txt", paths: null, start_line: null, end_line: 1 });
    expect(textOf(nulls)).toMatch(/line 1/);
    expect(refusal(await handle.call("search_files", { pattern: null }))).toMatch(/^search_files: `pattern`: must be a string, not null/);
    expect(textOf(await handle.call("read_content", { file: "notes.txt", end_line: 1 }))).toMatch(/line 1/);
    // Given both, the tool's own name wins, and the other is named as unknown.
    const both = await handle.call("read_content", { path: "notes.txt", file_path: "other.txt" });
    expect(refusal(both)).toMatch(/unknown argument `file_path`/);
  });

  it("takes other agents' names for the same arguments: offset/limit, query/include, a glob's pattern, oldString, an item's filePath", async () => {
    const page = textOf(await handle.call("read_content", { file_path: "notes.txt", offset: 2, limit: 1 }));
    expect(page).toMatch(/line 2/);
    expect(page).not.toMatch(/line [13]/);
    expect(textOf(await handle.call("search_files", { query: "line 2", include: "*.txt" }))).toMatch(/^notes\.txt\n2:line 2$/m);
    expect(textOf(await handle.call("search_files", { pattern: "line.2", regex: false }))).toMatch(/^no matches/);
    expect(textOf(await handle.call("list_files", { pattern: "*.txt" }))).toMatch(/^notes\.txt$/m);
    expect(textOf(await handle.call("stat_items", { path: "notes.txt" }))).toMatch(/^notes\.txt: file/);
    const edit = await handle.call("edit_file", { filePath: "notes.txt", oldString: "line 2\n", newString: "two\n", dryRun: true });
    expect(textOf(edit)).toMatch(/^\[dry run, not written\]/);
    const nested = await handle.call("edit_file", {
      path: "notes.txt",
      edits: [{ oldString: "line 2\n", newString: "two\n" }],
      dry_run: true,
    });
    expect(nested.isError).toBeFalsy();
    // Two spellings of one edit's text are refused, as they are at the top level, not one silently dropped.
    const both = await handle.call("edit_file", {
      path: "notes.txt",
      edits: [{ oldString: "line 2\n", old_text: "line 3\n", newString: "two\n" }],
    });
    expect(refusal(both)).toMatch(/^edit_file: `edits\[0\]\.oldString`: give one of `old_text`, `oldString`/);
    // Spellings and nulls count at any depth, as at the top level: an item's filePath, its unset append.
    const written = await handle.call("write_content", { items: [{ filePath: "copy.txt", content: "x\n", append: null }] });
    expect(textOf(written)).toBe("created copy.txt (2 bytes)");
  });

  it("takes Anthropic's editor spellings (old_str, new_str), replace_all, grep's ignore_case, one path given as paths, a limit for max_results and a list of globs", async () => {
    const renamed = textOf(
      await handle.call("edit_file", { file_path: "notes.txt", old_str: "line 2\n", new_str: "two\n", dry_run: true }),
    );
    expect(renamed).toMatch(/^-line 2\n\+two$/m);
    const nested = await handle.call("edit_file", {
      path: "notes.txt",
      edits: [{ old_str: "line 3\n", new_str: "three\n" }],
      dry_run: true,
    });
    expect(textOf(nested)).toMatch(/^\+three$/m);
    // "line 1" is in line 1 and lines 10-19, 100-199: every one is replaced.
    for (const args of [
      { path: "notes.txt", old_string: "line 1", new_string: "LINE 1", replace_all: true, dry_run: true },
      { path: "notes.txt", edits: [{ oldText: "line 1", newText: "LINE 1", replaceAll: true }], dry_run: true },
    ]) {
      const all = textOf(await handle.call("edit_file", args));
      expect(all.match(/^\+LINE 1/gm)).toHaveLength(111);
    }
    expect(refusal(await handle.call("edit_file", { path: "notes.txt", old_text: "line 1", new_text: "x" }))).toMatch(
      /matches 111 times .*set replace_all/,
    );
    expect(textOf(await handle.call("search_files", { pattern: "LINE 25$", case_insensitive: true }))).toMatch(/^25:line 25$/m);
    expect(textOf(await handle.call("search_files", { pattern: "LINE 25$", ignore_case: false }))).toMatch(/^no matches/);
    // Globs given as a list are their alternatives.
    expect(textOf(await handle.call("search_files", { pattern: "line 25$", glob: ["*.md", "*.txt"] }))).toMatch(/^25:line 25$/m);
    // Not a path's, a negation or alternatives of their own, which braces would change: those are refused as a list.
    for (const glob of [
      ["*.txt", "!notes.txt"],
      ["*.{md,txt}", "*.py"],
      ["*.md", "docs/*.txt"],
    ]) {
      expect(refusal(await handle.call("search_files", { pattern: "line", glob })), glob.join(" ")).toMatch(/`glob`: must be a string/);
    }
    // nixpkgs_search's limit is search_files' max_results.
    expect(textOf(await handle.call("search_files", { pattern: "line", limit: 2 }))).toMatch(/\[stopped at 2 matches/);
    expect(textOf(await handle.call("read_content", { paths: "notes.txt", end_line: 1 }))).toMatch(
      /^==> notes\.txt \(lines 1-1 of 300\) <==\nline 1\n/,
    );
  });

  it("takes the shapes other tools give: one directory as path, a file's text as text, one edit as edits, several paths as path", async () => {
    expect(textOf(await handle.call("create_directories", { path: "out/d" }))).toBe("created out/d/");
    expect(textOf(await handle.call("write_content", { file_path: "out/t.txt", text: "hi\n" }))).toBe("created out/t.txt (3 bytes)");
    expect(textOf(await handle.call("write_content", { path: "out/u.txt", contents: "yo\n" }))).toBe("created out/u.txt (3 bytes)");
    const edit = await handle.call("edit_file", { path: "out/t.txt", edits: { old_text: "hi", new_text: "ho" }, dry_run: true });
    expect(textOf(edit)).toMatch(/^\[dry run, not written\]/);
    // A glob given as the path is the glob it is: listed, searched, read.
    expect(textOf(await handle.call("list_files", { path: "out/*.txt" }))).toBe("out/t.txt\nout/u.txt");
    expect(textOf(await handle.call("search_files", { pattern: "yo", path: "out/*.txt" }))).toBe("out/u.txt\n1:yo");
    expect(textOf(await handle.call("read_content", { path: "out/*.txt" }))).toMatch(
      /^==> out\/t\.txt .*\nhi\n+==> out\/u\.txt .*\nyo\n*$/s,
    );
    const both = textOf(await handle.call("read_content", { path: ["out/t.txt", "out/u.txt"] }));
    expect(both).toMatch(/^==> out\/t\.txt .*\nhi\n+==> out\/u\.txt .*\nyo\n*$/s);
  });
});
