// Assembles the MCP server from the enabled capabilities and serves it over stdio until the client
// goes away or a signal arrives; then every capability is closed (sessions killed) before exit.
// The MCP SDK is imported only here and only when the server is built: `instructionsFor` (needed
// for the early initialize reply) costs no more than the capability modules themselves.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Capability, ServerContext } from "./capability.js";
import { JailBudget } from "./jail/budget.js";
import type { Logger } from "./log.js";
import type { LoadedConfig } from "./config/load.js";
import { maxJails, type Config } from "./config/schema.js";
import type { Discovery } from "./discovery/types.js";
import { fsCapability } from "./fs/tools.js";
import type { EarlyStdio } from "./mcp/early-stdio.js";
import { SERVER_CAPABILITIES, SERVER_INFO } from "./mcp/identity.js";
import { checkToolCalls, markToolsOff } from "./mcp/tool-calls.js";
import { compactToolList } from "./mcp/tool-list.js";
import { ResultStore } from "./mcp/results.js";
import { setResponsePolicy } from "./mcp/tool.js";
import { nixpkgsCapability } from "./nixpkgs/tools.js";
import { pkglocalCapability } from "./pkglocal/tools.js";
import { sandboxCapability } from "./sandbox/tools.js";

const capabilities: Capability[] = [fsCapability, sandboxCapability, nixpkgsCapability, pkglocalCapability];

const enabledCapabilities = (config: Config) => capabilities.filter((capability) => config[capability.name].enabled);

/** The server's instructions: one line overall, one per enabled capability. */
export function instructionsFor(config: Config): string {
  return [
    "nixshed: tools for this project, jailed code execution and every nixpkgs package.",
    ...enabledCapabilities(config)
      .map((capability) => (typeof capability.instructions === "function" ? capability.instructions(config) : capability.instructions))
      .filter(Boolean),
  ].join("\n");
}

export interface RunningServer {
  mcp: McpServer;
  close(): Promise<void>;
}

export async function buildServer(loaded: LoadedConfig, discovery: Discovery, log: Logger): Promise<RunningServer> {
  const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
  const mcp = new McpServer(SERVER_INFO, {
    instructions: instructionsFor(loaded.config),
    capabilities: SERVER_CAPABILITIES,
    // Tools added or removed together (the index ruling out everyday tools) make one list_changed, not one each.
    debouncedNotificationMethods: ["notifications/tools/list_changed"],
  });
  const { responses } = loaded.config;
  // The whole text of a cut answer is kept only where an agent can read it: through the fs tools.
  const results = loaded.config.fs.enabled
    ? await ResultStore.open(loaded.cacheDir, {
        files: responses.keep_files,
        seconds: responses.keep_seconds,
        bytes: responses.keep_bytes,
        answerBytes: responses.max_bytes,
      }).catch((error: Error) => {
        log.warn(`responses: cut answers will not be kept in full: ${error.message}`);
        return undefined;
      })
    : undefined;
  setResponsePolicy(mcp, { maxBytes: responses.max_bytes, store: results });
  const ctx: ServerContext = {
    loaded,
    config: loaded.config,
    projectRoot: loaded.projectRoot,
    stateDir: loaded.stateDir,
    cacheDir: loaded.cacheDir,
    discovery,
    log,
    jails: new JailBudget(maxJails(loaded.config.sandbox.max_jails), loaded.config.sandbox.max_queued_jails),
    mcp,
    results,
  };
  const closers: { close(): Promise<void> }[] = [];
  for (const capability of capabilities) {
    if (!loaded.config[capability.name].enabled) {
      markToolsOff(mcp, capability.tools, `${capability.name}.enabled = false`);
      continue;
    }
    const closer = await capability.register(ctx);
    if (closer) closers.push(closer);
  }
  compactToolList(mcp);
  checkToolCalls(mcp);
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      await Promise.allSettled(closers.map((closer) => closer.close()));
      await mcp.close();
    })());
  return { mcp, close };
}

/**
 * Serves over stdio (through the early-initialize streams when given) until the client leaves.
 * Resolves true when it ended as it should (the client left, or a signal), false when the
 * connection failed; either way the reason is logged.
 */
export async function serveStdio(server: RunningServer, log: Logger, early?: EarlyStdio): Promise<boolean> {
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const transport = early
    ? new StdioServerTransport(early.stdin, early.stdout, { maxBufferSize: early.maxMessageBytes })
    : new StdioServerTransport();
  // What the SDK drops (a line that is not JSON-RPC, a failed send) is at least logged.
  server.mcp.server.onerror = (error) => log.warn(`stdio: ${error.message}`);
  const finished = new Promise<boolean>((resolve) => {
    const stop = (why: string, clean: boolean) => {
      if (clean) log.debug(`shutting down: ${why}`);
      else log.error(`shutting down: ${why}`);
      void server.close().finally(() => resolve(clean));
    };
    process.stdin.once("end", () => stop("client closed stdin", true));
    process.stdout.once("error", () => stop("client closed stdout", true));
    // SIGHUP too: a client's terminal that closes must not leave sessions or kept results behind.
    for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.once(signal, () => stop(signal, true));
    transport.onclose = () => stop("the stdio transport closed", process.stdin.readableEnded);
  });
  await server.mcp.connect(transport);
  log.info("serving over stdio");
  const clean = await finished;
  // Stopped by a signal, stdin may still be open; it must not keep the process alive.
  process.stdin.destroy();
  return clean;
}
