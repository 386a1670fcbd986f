// Big input never kills the server: a write of megabytes of newlines (each escaped to two bytes in
// JSON), and a request over the message limit, through a spawned server. The first must work, the
// second must get an error naming the limit, and the server must go on answering after both.
import { mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MAX_MESSAGE_BYTES, idOfOversized } from "../../src/mcp/early-stdio.js";
import { type ServerHandle, startServer, textOf, ONLY_FS } from "../support/mcp-client.js";

let project: string;
let server: ServerHandle;

beforeAll(async () => {
  project = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-big-")));
  server = await startServer({
    cwd: project,
    args: ["--project", project, ...ONLY_FS],
  });
});
afterAll(() => server.close());

describe("big input", () => {
  it("writes 9 MB of newlines (an 18 MB request line, over the SDK's own 10 MB buffer)", async () => {
    const result = await server.call("write_content", { items: [{ path: "newlines.txt", content: "\n".repeat(9_000_000) }] });
    expect(result.isError).toBeFalsy();
    expect(readFileSync(join(project, "newlines.txt")).length).toBe(9_000_000);
    expect(textOf(await server.call("list_files", {}))).toContain("newlines.txt");
  });

  it("answers a request over the message limit with an error naming the limit, and goes on serving", async () => {
    const content = "x".repeat(DEFAULT_MAX_MESSAGE_BYTES + 1024);
    await expect(server.call("write_content", { items: [{ path: "huge.txt", content }] })).rejects.toThrow(
      /over this server's limit of \d+ bytes per message/,
    );
    expect(server.stderr()).toMatch(/refused a \d+-byte message/);
    expect(textOf(await server.call("list_files", {}))).toContain("newlines.txt");
  });
});

describe("idOfOversized", () => {
  it.each([
    ['{"method":"tools/call","params":{"arguments":{"id":7', '"x"}},"jsonrpc":"2.0","id":42}\n', 42],
    ['{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"x":"', 'xxxx"}}', "a-1"],
    ['{"method":"notifications/progress","params":{"x":"', 'xx"}}', undefined],
    ['{"method":"tools/call","params":{"x":"', 'xx"}}', null],
    // An id with an escape JSON refuses: answered as unknown, not a SyntaxError thrown in the stdin reader.
    ['{"method":"tools/call","params":{"x":"', 'xx"}},"id":"\\u12"}', null],
  ])("%s … %s → %s", (head, tail, id) => {
    expect(idOfOversized(head, tail)).toBe(id);
  });
});
