import { ExpectedError } from "../common/expected-error.js";

/** An expected failure of the nixpkgs core (bad query, unknown attribute, failed build); the CLI prints it and exits 1. */
export class NixpkgsError extends ExpectedError {}
