// An expected failure, worded for the agent: what went wrong and what to do instead. Each
// capability's core throws its own subclass (FsError, SandboxError, …) and knows nothing of MCP;
// mcp/tool.ts turns any of them into an isError result, so no capability maps errors itself.
export class ExpectedError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}
