// What the nixpkgs tools share: progress as MCP notifications, how a jailed run is annotated and
// its timeout put in words.
import { reachesOut, type NetworkSetting } from "../../config/network.js";
import type { ProjectAccess } from "../../config/schema.js";
import type { ToolAnnotations, ToolCallContext } from "../../mcp/tool.js";

export interface RunPermissions {
  network: NetworkSetting;
  projectAccess: ProjectAccess;
}

/**
 * A jailed run changes nothing outside its jail unless it may write the project or reach the
 * network, so it is annotated by the permissions of what it may run: read-only with the project
 * read-only (clients then need not ask before `jq`), destructive only where the project is writable.
 */
export function runAnnotations(permissions: RunPermissions[]): ToolAnnotations {
  const writes = permissions.some((p) => p.projectAccess === "rw");
  const network = permissions.some((p) => reachesOut(p.network));
  return { readOnlyHint: !writes && !network, destructiveHint: writes, idempotentHint: false, openWorldHint: network };
}

export const TIMED_OUT = "timed out: killed with everything it started";

export const progressOf = (call: ToolCallContext) => (done: number, total: number | undefined, message: string) =>
  void call.progress(done, total, message);
