// A line that is no JSON-RPC message gets its JSON-RPC error, where the SDK's transport only logged
// it and the client's request waited forever; the server goes on answering.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { malformedReply } from "../../src/mcp/malformed.js";
import { CLI, ONLY_FS } from "../support/mcp-client.js";

const reply = (line: string) => malformedReply(Buffer.from(line));

describe("malformedReply", () => {
  it("answers what is no message: not JSON, no object, no method, no jsonrpc", () => {
    expect(reply("not json")).toMatchObject({ id: null, code: -32700 });
    expect(reply("[1, 2]")).toMatchObject({ id: null, code: -32600 });
    expect(reply('{"jsonrpc":"2.0","id":4}')).toMatchObject({ id: 4, code: -32600, message: 'Invalid Request: no "method"' });
    expect(reply('{"id":5,"method":"ping"}')).toMatchObject({ id: 5, code: -32600 });
  });

  it("answers a request whose params are no object, by its id", () => {
    for (const params of ["null", "[]", '"str"', "7"]) {
      expect(reply(`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":${params}}`)).toEqual({
        id: "a",
        code: -32602,
        message: "Invalid params: tools/call takes params as an object",
      });
    }
  });

  it("leaves messages, responses, notifications and blank lines to the SDK", () => {
    for (const line of [
      '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}',
      '{"jsonrpc":"2.0","id":0,"result":{"roots":[]}}',
      '{"jsonrpc":"2.0","id":0,"error":{"code":1,"message":"no"}}',
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":null}',
      "  ",
    ]) {
      expect(reply(line)).toBeUndefined();
    }
  });
});

describe("a server given malformed lines", () => {
  it("answers each with its error and goes on serving", async () => {
    const cache = mkdtempSync(join(tmpdir(), "nixshed-malformed-"));
    const child = spawn(process.execPath, [CLI, "serve", "--project", cache, ...ONLY_FS], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CACHE_HOME: cache },
      stdio: ["pipe", "pipe", "ignore"],
    });
    const init = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } };
    child.stdin.write(
      [
        JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: init }),
        JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
        JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: null }),
        "{not json",
        JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" }),
        "",
      ].join("\n"),
    );
    let out = "";
    await new Promise<void>((resolve) =>
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk;
        if (out.includes('"id":3')) resolve();
      }),
    );
    child.kill();
    const replies = out
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id: unknown; error?: { code: number } });
    expect(replies.find((message) => message.id === 2)?.error?.code).toBe(-32602);
    expect(replies.find((message) => message.id === null)?.error?.code).toBe(-32700);
    expect(replies.find((message) => message.id === 3)).not.toHaveProperty("error");
  });
});
