// Assembles the MCP server from the enabled capabilities and serves it over stdio until the client
// goes away or a signal arrives; then every capability is closed (sessions killed) before exit.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Capability, ServerContext } from "./capability.js";
import type { Logger } from "./common/log.js";
import type { LoadedConfig } from "./config/load.js";
import type { Discovery } from "./discovery/types.js";
import { fsCapability } from "./fs/tools.js";
import { nixpkgsCapability } from "./nixpkgs/tools.js";
import { pkglocalCapability } from "./pkglocal/tools.js";
import { sandboxCapability } from "./sandbox/tools.js";
import { VERSION } from "./version.js";

const capabilities: Capability[] = [fsCapability, sandboxCapability, nixpkgsCapability, pkglocalCapability];

export interface RunningServer {
  mcp: McpServer;
  close(): Promise<void>;
}

export async function buildServer(loaded: LoadedConfig, discovery: Discovery, log: Logger): Promise<RunningServer> {
  const enabled = capabilities.filter((capability) => loaded.config[capability.name].enabled);
  const instructions = [
    "nixshed: tools for this project, jailed code execution and every nixpkgs package.",
    ...enabled
      .map((capability) => (typeof capability.instructions === "function" ? capability.instructions(loaded.config) : capability.instructions))
      .filter(Boolean),
  ].join("\n");
  const mcp = new McpServer({ name: "nixshed", version: VERSION }, { instructions, capabilities: { tools: { listChanged: true } } });
  const ctx: ServerContext = {
    loaded,
    config: loaded.config,
    projectRoot: loaded.projectRoot,
    stateDir: loaded.stateDir,
    cacheDir: loaded.cacheDir,
    discovery,
    log,
    mcp,
  };
  const closers: { close(): Promise<void> }[] = [];
  for (const capability of enabled) {
    const closer = await capability.register(ctx);
    if (closer) closers.push(closer);
  }
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      await Promise.allSettled(closers.map((closer) => closer.close()));
      await mcp.close();
    })());
  return { mcp, close };
}

export async function serveStdio(server: RunningServer, log: Logger): Promise<void> {
  const transport = new StdioServerTransport();
  const finished = new Promise<void>((resolve) => {
    const stop = (why: string) => {
      log.debug(`shutting down: ${why}`);
      void server.close().finally(resolve);
    };
    process.stdin.once("end", () => stop("client closed stdin"));
    process.once("SIGTERM", () => stop("SIGTERM"));
    process.once("SIGINT", () => stop("SIGINT"));
    transport.onclose = () => stop("transport closed");
  });
  await server.mcp.connect(transport);
  log.info("serving over stdio");
  await finished;
}
