// Spawns the built server (daemon/dist) and connects the SDK's own Client to it over stdio, the
// way a real MCP client does. Every integration test goes through this.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult, ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { fileURLToPath } from "node:url";

export const CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

/** Flags for a server that serves the filesystem tools alone. */
export const ONLY_FS = ["--set", "sandbox.enabled=false", "--set", "nixpkgs.enabled=false", "--set", "pkglocal.enabled=false"];

export interface ServerHandle {
  client: Client;
  /** Calls a tool and returns its result, whether it succeeded or not. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** stderr of the server so far (its logs). */
  stderr(): string;
  close(): Promise<void>;
}

export interface StartOptions {
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Client capabilities, e.g. { roots: { listChanged: true } }. */
  capabilities?: ClientCapabilities;
}

export async function startServer(options: StartOptions = {}): Promise<ServerHandle> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "serve", ...(options.args ?? [])],
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root", ...options.env },
    stderr: "pipe",
  });
  let log = "";
  transport.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const client = new Client({ name: "nixshed-test", version: "0" }, { capabilities: options.capabilities ?? {} });
  await client.connect(transport);
  return {
    client,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    stderr: () => log,
    close: () => client.close(),
  };
}

/** The text of a result's first content item. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first && first.type === "text" ? first.text : "";
}
