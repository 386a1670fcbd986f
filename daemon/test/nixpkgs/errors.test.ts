import { describe, expect, it } from "vitest";
import { nixFailure } from "../../src/nixpkgs/errors.js";

describe("a failed nix command in the agent's words", () => {
  it("says an attribute that is a set or a function is no package, and what to name instead", () => {
    const set = nixFailure(
      "evaluating lib",
      "lib",
      "error: cannot coerce a set to a string\n\n       at /nix/store/x/mkEnvironment.nix:12:5:",
    );
    expect(set.message).toBe("`lib` is no package but a set of attributes");
    expect(set.hint).toBe("Name a package inside it (lib.<name>), or find one with nixpkgs_search.");
    const fn = nixFailure("evaluating runCommand", "runCommand", "error: cannot coerce a function to a string");
    expect(fn.message).toBe("`runCommand` is no package but a function");
  });

  it("points to nix's whole output where it is, whatever the log level", () => {
    const other = nixFailure("evaluating jq", "jq", "error: something unforeseen");
    expect(other.message).toBe("evaluating jq failed: something unforeseen");
    expect(other.hint).toBe("As for why, the daemon logs nix's whole output at debug level (--log-level debug).");
  });
});
