import { ExpectedError } from "../common/expected-error.js";

/** An expected failure of the sandbox core. */
export class SandboxError extends ExpectedError {}
