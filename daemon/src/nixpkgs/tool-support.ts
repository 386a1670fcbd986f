// What the nixpkgs tools share: progress as MCP notifications, and how a jailed run is annotated
// and its timeout put in words.
import type { ToolAnnotations, ToolCallContext } from "../mcp/tool.js";

export const runAnnotations: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };

export const TIMED_OUT = "timed out: killed with everything it started";

export const progressOf = (call: ToolCallContext) => (done: number, total: number | undefined, message: string) => void call.progress(done, total, message);
