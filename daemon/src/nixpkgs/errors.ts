// The nixpkgs core's expected failures, worded for the agent. A failed nix command becomes one line
// saying what it means (a package this nixpkgs lacks, a broken or unfree one, a failed build); its
// raw output stays on the error for the debug log, never in the agent's context.
import { ExpectedError } from "../expected-error.js";

/** An expected failure of the nixpkgs core (bad query, unknown attribute, failed build); the CLI prints it and exits 1. */
export class NixpkgsError extends ExpectedError {}

/** What a failed nix command meant, as far as its output says. */
export type NixFailureKind = "missing" | "refused" | "build" | "other";

export class NixCommandError extends NixpkgsError {
  constructor(
    message: string,
    readonly kind: NixFailureKind,
    /** nix's own output (its last lines): for the debug log. */
    readonly trace: string,
    hint?: string,
    /** For a package this nixpkgs lacks, the names Nix suggested instead, as attribute paths. */
    readonly suggestions: string[] = [],
  ) {
    super(message, hint);
  }
}

/** "no package `x` in this nixpkgs; did you mean a, b?", or a pointer to search when nothing is close. */
export function noPackage(attr: string, close: string[]): [message: string, hint?: string] {
  return close.length > 0
    ? [`no package \`${attr}\` in this nixpkgs; did you mean ${close.join(", ")}?`]
    : [`no package \`${attr}\` in this nixpkgs`, "Find the attribute with nixpkgs_search."];
}

/**
 * Nix's "Did you mean X?" / "Did you mean one of X, Y or Z?" after an attribute `missing` from
 * `attr`, as attribute paths: each suggestion in place of the missing component.
 */
function nixSuggestions(trace: string, attr: string, missing: string): string[] {
  const said = /Did you mean (?:one of )?(.+)\?\s*$/m.exec(trace);
  if (!said) return [];
  const path = attr.split(".");
  const at = path.indexOf(missing);
  return said[1]!.split(/, | or /).map((name) => [...path.slice(0, at), name, ...path.slice(at + 1)].join("."));
}

/** Where nix's own output is, true at any log level (the daemon may already log at debug). */
const WHOLE_OUTPUT = "the daemon logs nix's whole output at debug level (--log-level debug).";

const REFUSALS: [RegExp, string, string][] = [
  [
    /is marked as broken/,
    "is marked broken in this nixpkgs",
    "Pick another version or package (nixpkgs_search with include_broken shows them).",
  ],
  [/has an unfree license/, "is unfree, and this nixpkgs refuses unfree packages", "Pick a free alternative (nixpkgs_search)."],
  [/is marked as insecure/, "is marked insecure in this nixpkgs", "Pick another version or package."],
  [
    /is not available on the requested hostPlatform|not supported on/,
    "is not available on this platform",
    "Pick another package (nixpkgs_search shows the platform's).",
  ],
];

/** One line for the agent from a failed nix command's stderr, about package `attr`; `what` is the step ("building jq"). */
export function nixFailure(what: string, attr: string, stderr: string): NixCommandError {
  const trace = stderr.trim();
  const missing = /attribute '([^']+)' missing/.exec(trace);
  if (missing && attr.split(".").includes(missing[1]!)) {
    const suggestions = nixSuggestions(trace, attr, missing[1]!);
    const [message, hint] = noPackage(attr, suggestions);
    return new NixCommandError(message, "missing", trace, hint, suggestions);
  }
  for (const [pattern, says, hint] of REFUSALS)
    if (pattern.test(trace)) return new NixCommandError(`\`${attr}\` ${says}`, "refused", trace, hint);
  // lib, jq.meta, python3Packages: a set where a package goes; runCommand: a function.
  const notPackage = /cannot coerce an? (set|function) to a string/.exec(trace);
  if (notPackage) {
    const set = notPackage[1] === "set";
    return new NixCommandError(
      `\`${attr}\` is no package but ${set ? "a set of attributes" : "a function"}`,
      "other",
      trace,
      set ? `Name a package inside it (${attr}.<name>), or find one with nixpkgs_search.` : "Find the package with nixpkgs_search.",
    );
  }
  const builder = /builder for '\/nix\/store\/[a-z0-9]{32}-([^']+?)(\.drv)?' failed/.exec(trace);
  if (builder)
    return new NixCommandError(
      `${what} failed: the build of ${builder[1]} failed`,
      "build",
      trace,
      `Try another version of the package; ${WHOLE_OUTPUT}`,
    );
  const first =
    trace
      .split("\n")
      .find((line) => line.startsWith("error:"))
      ?.replace(/^error:\s*/, "") ??
    trace.split("\n").pop() ??
    "";
  const line = first.length > 200 ? `${first.slice(0, 199)}…` : first;
  return new NixCommandError(`${what} failed${line ? `: ${line}` : ""}`, "other", trace, `As for why, ${WHOLE_OUTPUT}`);
}
