// The client's MCP roots: asked for (roots/list) once the client has initialized, and again on
// every notifications/roots/list_changed. Only file:// roots are passed on, as paths.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { RootsListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { fileURLToPath } from "node:url";
import type { Logger } from "../log.js";

export interface ClientRootsWatch {
  /** Settles once the latest roots/list answer (if any is under way) has been applied, or after a short wait. */
  settled(): Promise<void>;
}

/** How long a tool call waits for a client that is slow to answer roots/list. */
const ROOTS_WAIT_MS = 2000;

export function watchClientRoots(mcp: McpServer, apply: (paths: string[]) => Promise<void>, log: Logger): ClientRootsWatch {
  const server = mcp.server;
  let latest: Promise<void> = Promise.resolve();
  const refresh = () => {
    if (!server.getClientCapabilities()?.roots) return;
    latest = (async () => {
      try {
        const { roots } = await server.listRoots();
        await apply(roots.filter((root) => root.uri.startsWith("file://")).map((root) => fileURLToPath(root.uri)));
      } catch (error) {
        log.warn(`could not read the client's roots: ${(error as Error).message}`);
      }
    })();
  };
  const previous = server.oninitialized;
  server.oninitialized = () => {
    previous?.();
    refresh();
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => refresh());
  return {
    settled: () => Promise.race([latest, new Promise<void>((resolve) => setTimeout(resolve, ROOTS_WAIT_MS).unref())]),
  };
}
