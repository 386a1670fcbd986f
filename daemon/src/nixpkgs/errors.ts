// An expected failure of the nixpkgs core (bad query, unknown attribute, failed build): tool-support.ts
// turns it into a ToolError, the CLI into a message and exit code 1.
export class NixpkgsError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}
