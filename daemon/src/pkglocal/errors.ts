// An expected failure of the core, with what to do about it; tool-support.ts's core() hands it to the agent as a ToolError.
export class PkgLocalError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}
