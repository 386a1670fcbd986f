import { ExpectedError } from "../expected-error.js";

/** An expected failure of the sandbox core. */
export class SandboxError extends ExpectedError {}
