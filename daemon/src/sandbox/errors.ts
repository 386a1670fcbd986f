// An expected failure of the sandbox core: tools.ts turns it into a ToolError for the agent.
export class SandboxError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}
