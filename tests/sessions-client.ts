// The `run` tool with a session, as the session tests call it.
import type { ServerHandle } from "../daemon/test/support/mcp-client.js";
import { textOf } from "../daemon/test/support/mcp-client.js";

export interface SessionRunResult {
  stdout: string;
  stderr: string;
  exit_code: number | null;
  timed_out: boolean;
  truncated: { stdout: number; stderr: number };
  output_in?: { stdout?: string; stderr?: string };
  session: string;
  notices: string[];
}

export function sessionRun(server: ServerHandle) {
  return async (args: Record<string, unknown>): Promise<SessionRunResult> => {
    const result = await server.call("run", args);
    if (result.isError) throw new Error(`run failed: ${textOf(result)}`);
    const output = result.structuredContent as unknown as SessionRunResult;
    return { ...output, notices: output.notices ?? [] };
  };
}
