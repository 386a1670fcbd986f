// The early initialize reply must be the one the SDK's own Server would give.
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { initializeResult, PROTOCOL_VERSIONS, SERVER_CAPABILITIES, SERVER_INFO } from "../../src/mcp/identity.js";

async function sdkReply(protocolVersion: string) {
  const server = new McpServer(SERVER_INFO, { instructions: "hello", capabilities: SERVER_CAPABILITIES });
  server.registerTool("t", { description: "t" }, async () => ({ content: [] }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  let reply: unknown;
  clientSide.onmessage = (message) => {
    if ("id" in message && message.id === 1) reply = (message as { result: unknown }).result;
  };
  await clientSide.start();
  await clientSide.send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion, capabilities: {}, clientInfo: { name: "t", version: "0" } },
  });
  await new Promise((resolve) => setTimeout(resolve, 10));
  await server.close();
  return reply;
}

describe("early initialize reply", () => {
  it("knows the protocol versions the SDK supports, newest first", () => {
    expect(PROTOCOL_VERSIONS).toEqual(SUPPORTED_PROTOCOL_VERSIONS);
    expect(PROTOCOL_VERSIONS[0]).toBe(LATEST_PROTOCOL_VERSION);
  });

  it.each(["2025-06-18", "2024-11-05", "1999-01-01"])("equals the SDK's reply to protocol version %s", async (version) => {
    expect(JSON.stringify(initializeResult(version, "hello"))).toBe(JSON.stringify(await sdkReply(version)));
  });
});
