// The shapes of arguments agents bring from other tools, taken by the fs tools as their own
// (`otherForms`, applied after mcp/tool-calls.ts has taken camelCase and file_path at any depth):
// one item given beside the path, other tools' names for an argument, an edit's other spellings.
// None is advertised: each would cost every turn's tools/list its bytes.
import type { z } from "zod";
import { PATH_SPELLINGS } from "../mcp/tool.js";
import { isGlobPath } from "./glob.js";

const OLD_TEXT = ["old_text", "oldText", "old_string", "oldString", "old_str", "oldStr"];
const NEW_TEXT = ["new_text", "newText", "new_string", "newString", "new_str", "newStr"];
const REPLACE_ALL = ["replace_all", "replaceAll"];
const EDIT_SPELLINGS = [
  ["old_text", OLD_TEXT],
  ["new_text", NEW_TEXT],
  ["replace_all", REPLACE_ALL],
] as const;

/**
 * An edit in the widely used spellings (oldText/newText, old_string/new_string, old_str/new_str) is
 * taken as ours; not advertised, to keep the schema small. Two spellings of one are refused, as at the top level.
 */
export const editSpellings = (edit: unknown, ctx: z.core.ParsePayload) => {
  if (typeof edit !== "object" || edit === null) return edit;
  const given = edit as Record<string, unknown>;
  const taken: Record<string, unknown> = {};
  for (const [own, spellings] of EDIT_SPELLINGS) {
    const said = spellings.filter((spelling) => Object.hasOwn(given, spelling));
    if (said.length > 1)
      ctx.issues.push({
        code: "custom",
        message: `give one of ${said.map((key) => `\`${key}\``).join(", ")}`,
        path: [said[1]!],
        input: edit,
      });
    if (said.length > 0) taken[own] = given[said[0]!];
  }
  const rest = Object.fromEntries(
    Object.entries(given).filter(([key]) => !EDIT_SPELLINGS.some(([, spellings]) => spellings.includes(key))),
  );
  return { ...rest, ...taken };
};

/** `file_path`, as other editors' tools name it, for the path of write_content's one item (a tool's own `path` is tool-calls.ts's). */
function withPath(args: Record<string, unknown>): Record<string, unknown> {
  const spelled = Object.keys(args).find((key) => PATH_SPELLINGS.has(key));
  if (spelled === undefined || args.path !== undefined) return args;
  const { [spelled]: path, ...rest } = args;
  return { ...rest, path };
}

/**
 * One edit given beside the path ({path, old_text, new_text}; {file_path, old_string, new_string, replace_all}),
 * as a list of one.
 */
export function oneEdit(args: Record<string, unknown>): Record<string, unknown> {
  // One edit given as `edits` itself, not in a list.
  if (typeof args.edits === "object" && args.edits !== null && !Array.isArray(args.edits)) return { ...args, edits: [args.edits] };
  const oldKey = OLD_TEXT.find((key) => key in args);
  const newKey = NEW_TEXT.find((key) => key in args);
  if (args.edits !== undefined || !oldKey || !newKey) return args;
  const allKey = REPLACE_ALL.find((key) => key in args) ?? "replace_all";
  const { [oldKey]: old_text, [newKey]: new_text, [allKey]: replace_all, ...rest } = args;
  return { ...rest, edits: [{ old_text, new_text, ...(replace_all === undefined ? {} : { replace_all }) }] };
}

/** One file given as the arguments themselves ({path, content}; its text as `text` or `contents` too), as a list of one. */
export function oneItem(given: Record<string, unknown>): Record<string, unknown> {
  const args = withPath(renamed({ text: "content", contents: "content" })(given));
  if (args.items !== undefined || args.path === undefined || args.content === undefined) return args;
  const { path, content, append, ...rest } = args;
  return { ...rest, items: [{ path, content, ...(append === undefined ? {} : { append }) }] };
}

/**
 * Arguments under the names other agents' tools give them, as ours ({other: own}); not advertised, to
 * keep the schemas small. Ours win when both are given.
 */
function renamed(names: Record<string, string>): (args: Record<string, unknown>) => Record<string, unknown> {
  return (args) =>
    Object.fromEntries(
      Object.entries(args).map(([key, value]) => {
        const own = Object.hasOwn(names, key) ? names[key]! : undefined;
        return own && args[own] === undefined ? [own, value] : [key, value];
      }),
    );
}

/** A glob given as the path ("src/app/*.py"), with no glob beside it: the glob it is, over the project. */
function globAsPath(args: Record<string, unknown>): Record<string, unknown> {
  if (typeof args.path !== "string" || !isGlobPath(args.path) || args.glob !== undefined) return args;
  const { path, ...rest } = args;
  return { ...rest, glob: path };
}

/** A glob as the `pattern` of glob tools (Claude Code's, opencode's), or as the path. */
export const listForms = (given: Record<string, unknown>) => globAsPath(renamed({ pattern: "glob" })(given));

/** One path, in any of its spellings, as a list of one. */
export function onePath(given: Record<string, unknown>): Record<string, unknown> {
  const args = withPath(given);
  if (args.paths !== undefined || args.path === undefined) return args;
  const { path, ...rest } = args;
  return { ...rest, paths: [path] };
}

/** Several files given as `path`, as `paths`. */
function pathList(args: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(args.path) || args.paths !== undefined) return args;
  const { path, ...rest } = args;
  return { ...rest, paths: path };
}

/** read_content's other forms: Claude Code's `offset` (the first line) and `limit` (how many lines) as start_line and end_line; several files as `path`. */
export function readForms(given: Record<string, unknown>): Record<string, unknown> {
  const args = pathList(given);
  const { offset, limit, ...rest } = args;
  const line = (value: unknown, least: number) => value === undefined || (Number.isInteger(value) && (value as number) >= least);
  if ((offset === undefined && limit === undefined) || args.start_line !== undefined || args.end_line !== undefined) return args;
  if (!line(offset, 0) || !line(limit, 1)) return args;
  const start = Math.max(1, (offset as number | undefined) ?? 1);
  return { ...rest, start_line: start, ...(limit === undefined ? {} : { end_line: start + (limit as number) - 1 }) };
}

/** Other search tools' `query` and `include` (opencode's, Gemini's), a glob as the path, `regex: false` for literal, `case_insensitive` (`ignore_case`, grep's -i) for case_sensitive false. */
export function searchForms(given: Record<string, unknown>): Record<string, unknown> {
  const args = globAsPath(renamed({ query: "pattern", include: "glob" })(given));
  return negated("case_sensitive", ["case_insensitive", "ignore_case"])(negated("literal", ["regex"])(args));
}

/** A yes/no given under a name meaning its opposite ({regex: false} for {literal: true}), where the own one is not given. */
function negated(own: string, opposites: string[]): (args: Record<string, unknown>) => Record<string, unknown> {
  return (args) => {
    const opposite = opposites.find((name) => typeof args[name] === "boolean");
    if (opposite === undefined || args[own] !== undefined) return args;
    const { [opposite]: value, ...rest } = args;
    return { ...rest, [own]: !value };
  };
}
