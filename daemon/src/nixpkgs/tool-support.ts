// What the nixpkgs tools share: the core's expected failures as tool errors, progress as MCP
// notifications, and how a jailed run is annotated and its timeout put in words.
import { ToolError, type ToolAnnotations, type ToolCallContext } from "../mcp/tool.js";
import { NixpkgsError } from "./errors.js";

export const runAnnotations: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };

export const TIMED_OUT = "timed out: killed with everything it started";

/** NixpkgsError → ToolError, so the agent sees the message and the hint. */
export async function asTool<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof NixpkgsError) throw new ToolError(error.message, error.hint);
    throw error;
  }
}

export const progressOf = (call: ToolCallContext) => (done: number, total: number | undefined, message: string) => void call.progress(done, total, message);
