// zod's words for a value of the wrong kind, made plainer for whoever wrote it (a config file, a
// --set flag, a tool call's arguments): a whole number rather than "int", true or false rather than
// "boolean", and for one of a few values the closest one ("did you mean `python`?").
import type { z } from "zod";
import { closest } from "./suggest.js";

const PLAIN_KINDS: Record<string, string> = {
  int: "a whole number",
  number: "a number",
  string: "a string",
  boolean: "true or false",
  array: "a list",
  object: "a table of keys",
};

/** A value as it was given, in a few characters: "abc", 7, null, a list. */
function given(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value !== null && typeof value === "object") return "a table of keys";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** The value at `path` under `root`: own keys only ("constructor" is none), undefined where the path leads through no object. */
export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    value =
      typeof value === "object" && value !== null && Object.hasOwn(value, key) ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  }
  return value;
}

/** The issue in plain words; `root` is what was validated, for the value the issue is about. */
export function valueWords(issue: z.core.$ZodIssue, root: unknown): string {
  if (issue.code === "invalid_type" && PLAIN_KINDS[issue.expected]) {
    // "must be a number, not "abc"": the value given, not only its type (a --set value is always a string).
    const value = valueAt(root, issue.path);
    if (value !== undefined) return `must be ${PLAIN_KINDS[issue.expected]}, not ${given(value)}`;
    return issue.message.replace(/expected \w+/, `expected ${PLAIN_KINDS[issue.expected]}`);
  }
  if (issue.code === "invalid_value") {
    // "must be one of error, warn, info, debug, not "verbose"", not zod's "Invalid option: expected one of "error"|…".
    const value = valueAt(root, issue.path);
    const options = issue.values.map(String);
    const near = typeof value === "string" ? closest(value, options) : undefined;
    return `must be one of ${options.join(", ")}${value === undefined ? "" : `, not ${given(value)}`}${near ? `; did you mean \`${near}\`?` : ""}`;
  }
  if (issue.code === "too_small" || issue.code === "too_big") return boundWords(issue, valueAt(root, issue.path));
  return issue.message;
}

/** "must be at least 1, not 0" for zod's "Too small: expected number to be >=1". */
function boundWords(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig, given: unknown): string {
  const small = issue.code === "too_small";
  const bound = Number(small ? issue.minimum : issue.maximum);
  const inclusive = issue.inclusive !== false;
  const side = small ? (inclusive ? "at least" : "more than") : inclusive ? "at most" : "less than";
  const unit = { string: " character", array: " item", set: " item", file: " byte" }[issue.origin as string];
  const units = unit === undefined ? "" : bound === 1 ? unit : `${unit}s`;
  const size = typeof given === "string" || Array.isArray(given) ? given.length : typeof given === "number" ? given : undefined;
  return `must be ${side} ${bound}${units}${size === undefined ? "" : `, not ${size}`}`;
}
