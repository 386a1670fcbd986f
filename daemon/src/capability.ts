// The contract between the server and a capability folder (fs, sandbox, nixpkgs, pkglocal).
// Each folder keeps an MCP-free core and one `tools.ts` that exports a Capability.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { JailBudget } from "./jail/budget.js";
import type { Logger } from "./log.js";
import type { LoadedConfig } from "./config/load.js";
import type { Config } from "./config/schema.js";
import type { Discovery } from "./discovery/types.js";
import type { ResultStore } from "./mcp/results.js";

export interface ServerContext {
  loaded: LoadedConfig;
  config: Config;
  projectRoot: string;
  stateDir: string;
  cacheDir: string;
  discovery: Discovery;
  log: Logger;
  /** Where the whole text of an answer cut to the response budget is kept (fs serves it read-only). */
  results?: ResultStore;
  /** The jails running at once, shared by every capability that starts one. */
  jails: JailBudget;
  /** For what goes beyond registering tools: list_changed, the client's roots. */
  mcp: McpServer;
}

export interface Capability {
  name: "fs" | "sandbox" | "nixpkgs" | "pkglocal";
  /** Every tool the group can offer (not the per-package ones): a call of one the configuration leaves out is told why. */
  tools: readonly string[];
  /**
   * One line for the server's instructions, shown to the agent once. A function of the config and
   * nothing else: `serve` remembers the instructions per configuration to answer initialize before
   * loading anything (mcp/initialize-cache.ts).
   */
  instructions: string | ((config: Config) => string);
  /** Registers the group's tools; what it returns is closed when the server shuts down. */
  register(ctx: ServerContext): Promise<{ close(): Promise<void> } | void>;
}
