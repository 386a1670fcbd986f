// An expected failure of the core, with what to do about it; tools.ts hands it to the agent as is.
export class PkgLocalError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}
