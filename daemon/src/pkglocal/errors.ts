import { ExpectedError } from "../expected-error.js";

/** An expected failure of the pkg-local core, with what to do about it. */
export class PkgLocalError extends ExpectedError {}
