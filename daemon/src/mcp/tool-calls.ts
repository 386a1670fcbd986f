// tools/call as an agent's first guess makes it. The SDK answers a tool that is not one, and
// arguments its schema refuses, with "MCP error -32602: …" and zod's dump, and drops an argument a
// tool does not take without a word (read_content's `offset` read the whole file). Checked here
// first, each becomes one line naming what would work, as a result the model reads.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { type CallToolResult, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { defOf, unwrap } from "../config/shape.js";
import { closest } from "../config/suggest.js";
import { valueWords } from "../config/value-words.js";
import { errorResult, OTHER_SPELLINGS, ownForm } from "./tool.js";

/** What other servers and shells call the tools agents reach for first. */
const NAMES_ELSEWHERE: Record<string, string> = {
  read_file: "read_content",
  read_text_file: "read_content",
  read_multiple_files: "read_content",
  cat: "read_content",
  view: "read_content",
  write_file: "write_content",
  create_file: "write_content",
  list_directory: "list_files",
  directory_tree: "list_files",
  ls: "list_files",
  glob: "list_files",
  grep: "search_files",
  get_file_info: "stat_items",
  str_replace: "edit_file",
  move_file: "move_items",
  bash: "run",
  shell: "run",
  exec: "run",
  execute_command: "run",
  run_command: "run",
  python: "run",
};

type Handler = (request: unknown, extra: unknown) => Promise<unknown>;

/** Per server, the tools its configuration leaves out, and why. */
const offTools = new WeakMap<McpServer, Map<string, string>>();

/** Says why `names` are not offered here ("fs.read_only = true"), should a call name one. */
export function markToolsOff(mcp: McpServer, names: readonly string[], why: string): void {
  const off = offTools.get(mcp) ?? new Map<string, string>();
  for (const name of names) off.set(name, why);
  offTools.set(mcp, off);
}

interface RegisteredInput {
  enabled: boolean;
  inputSchema?: z.ZodType;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** "items[0].content" */
const placeOf = (path: readonly PropertyKey[]) =>
  path.map((key, i) => (typeof key === "number" ? `[${key}]` : `${i > 0 ? "." : ""}${String(key)}`)).join("");

/**
 * Arguments in the spellings agents bring from other tools, under the tool's own names, at any depth
 * (a write_content item's filePath too): camelCase for snake_case (startLine is start_line),
 * file_path for path. Only where the tool takes that name and the call does not give it already;
 * anything else is left for the check to name. An optional argument given as null, as many clients
 * send one unset, is left out. A number or a yes/no sent as text ("3", "true"), as models often send
 * them, is that number or yes/no. A preprocessed item (its own spellings) is its own judge, as below.
 */
function ownNames(schema: z.ZodType, value: unknown, key?: string): unknown {
  const def = defOf(unwrap(schema));
  if (typeof value === "string") return fromText(def.type, value, key);
  // A list of globs of file names where one is taken ("glob": ["*.py", "*.js"]): their alternatives, {*.py,*.js}. Not
  // one with a path (a name's glob matches at any depth, a path's from the root), a negation or alternatives of its own.
  if (def.type === "string" && key === "glob" && Array.isArray(value) && value.length > 0 && value.every(isNameGlob))
    return value.length === 1 ? value[0] : `{${value.join(",")}}`;
  if (def.type === "array" && def.element && Array.isArray(value)) return value.map((item) => ownNames(def.element!, item));
  if (def.type !== "object" || !def.shape || !isRecord(value)) return value;
  const shape = def.shape;
  const taken = new Set(Object.keys(value));
  const unset = (key: string, item: unknown) => item === null && shape[key]!.safeParse(undefined).success;
  // Object.fromEntries, not assignment: a "__proto__" argument stays an argument, to be named unknown.
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, item]) => {
      if (Object.hasOwn(shape, key)) return unset(key, item) ? [] : [[key, ownNames(shape[key]!, item, key)]];
      const own = Object.hasOwn(OTHER_SPELLINGS, key) ? OTHER_SPELLINGS[key]! : key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      if (!Object.hasOwn(shape, own) || taken.has(own)) return [[key, item]];
      taken.add(own);
      return unset(own, item) ? [] : [[own, ownNames(shape[own]!, item, own)]];
    }),
  );
}

const isNameGlob = (glob: unknown) => typeof glob === "string" && glob !== "" && !/[/!{},]/.test(glob);

/**
 * Text that is plainly a number or a yes/no, where the schema takes one; text where it takes a list, a list of
 * one (a path), or a command line's words for a program's `args` ("-c .[0] data.json"); else the text, for the check to name.
 */
function fromText(type: string, text: string, key?: string): unknown {
  const trimmed = text.trim();
  if (type === "number" && /^-?\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  if (type === "boolean" && (trimmed === "true" || trimmed === "false")) return trimmed === "true";
  if (type === "array") return key === "args" ? (shellWords(text) ?? text) : [text];
  return text;
}

/** The words of a command line as a POSIX shell splits them (quotes, backslashes), or undefined when a quote is left open. */
export function shellWords(line: string): string[] | undefined {
  const words: string[] = [];
  let word = "";
  // A word begun: "" is a word ('' given), not the space between words.
  let inWord = false;
  let quote = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = "";
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = "";
      // In double quotes a backslash escapes only $ ` " \ and a newline.
      else if (c === "\\" && /[$`"\\\n]/.test(line[i + 1] ?? "")) word += line[++i];
      else word += c;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      [word, inWord] = ["", false];
    } else {
      inWord = true;
      if (c === "'" || c === '"') quote = c;
      else if (c === "\\" && i + 1 < line.length) word += line[++i];
      else word += c;
    }
  }
  if (quote) return undefined;
  if (inWord) words.push(word);
  return words;
}

/** What an argument other tools take, which ours do not, is done with instead, beside the argument the tool has for it. */
const CHANGE_DIRECTORY = { beside: "code", way: "start the code with `cd DIR &&`" };
const WAYS_INSTEAD: Readonly<Record<string, { beside: string; way: string }>> = {
  cwd: CHANGE_DIRECTORY,
  workdir: CHANGE_DIRECTORY,
  working_directory: CHANGE_DIRECTORY,
  env_vars: { beside: "code", way: "set them in the code (`export NAME=value`, os.environ)" },
  environment: { beside: "code", way: "set variables in the code (`export NAME=value`); env names the environment" },
};

/** Arguments no schema names, in plain objects at any depth; a preprocessed item (its own spellings) is its own judge. */
function unknownArguments(schema: z.ZodType, value: unknown, path: PropertyKey[] = []): { place: string; near?: string; way?: string }[] {
  const def = defOf(unwrap(schema));
  if (def.type === "object" && def.shape && isRecord(value)) {
    const shape = def.shape;
    return Object.entries(value).flatMap(([key, item]) => {
      // Own keys only: "toString" or "constructor" would find Object.prototype's, which is no schema.
      const child = Object.hasOwn(shape, key) ? shape[key] : undefined;
      if (!child) {
        const way =
          Object.hasOwn(WAYS_INSTEAD, key) && Object.hasOwn(shape, WAYS_INSTEAD[key]!.beside) ? WAYS_INSTEAD[key]!.way : undefined;
        return [{ place: placeOf([...path, key]), ...(way ? { way } : { near: closest(key, Object.keys(shape)) }) }];
      }
      return unknownArguments(child, item, [...path, key]);
    });
  }
  if (def.type === "array" && def.element && Array.isArray(value)) {
    return value.flatMap((item, i) => unknownArguments(def.element!, item, [...path, i]));
  }
  return [];
}

/** An argument left out that the tool needs. */
const isMissing = (issue: z.core.$ZodIssue) => issue.code === "invalid_type" && issue.message.endsWith("received undefined");

/** One zod issue in a few words: a missing argument with what it is, else zod's words. */
function issueWords(issue: z.core.$ZodIssue, schema: z.ZodType, args: unknown): string {
  const place = placeOf(issue.path);
  if (isMissing(issue)) {
    const described = describedAt(schema, issue.path);
    return `\`${place}\` is required${described ? ` (${described})` : ""}`;
  }
  return `${place ? `\`${place}\`: ` : ""}${valueWords(issue, args).replace(/^Invalid (input|option): /, "")}`;
}

/** The issues with, of several bounds one value breaks (a whole number's safe range, then max 64), only the tightest. */
function tightestBounds(issues: z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  const bound = (issue: z.core.$ZodIssue) =>
    issue.code === "too_big" ? Number(issue.maximum) : issue.code === "too_small" ? -Number(issue.minimum) : undefined;
  return issues.filter((issue) => {
    const own = bound(issue);
    if (own === undefined) return true;
    const place = placeOf(issue.path);
    return !issues.some((other) => other !== issue && other.code === issue.code && placeOf(other.path) === place && bound(other)! < own);
  });
}

/** The description of the argument at `path`, when it has one. */
function describedAt(schema: z.ZodType, path: readonly PropertyKey[]): string | undefined {
  let current: z.ZodType | undefined = schema;
  for (const key of path) {
    const def = defOf(unwrap(current));
    current =
      typeof key === "number" ? def.element : def.shape && Object.hasOwn(def.shape, String(key)) ? def.shape[String(key)] : undefined;
    if (!current) return undefined;
  }
  return current.description;
}

/** The problem with a call, in one line and a hint, or undefined when the SDK should take it. */
function callProblem(
  tools: Record<string, RegisteredInput>,
  off: Map<string, string>,
  params: { name: string; arguments?: unknown },
): CallToolResult | undefined {
  const { name, arguments: args } = params;
  const tool = Object.hasOwn(tools, name) ? tools[name] : undefined;
  if (!tool?.enabled) {
    const available = Object.keys(tools).filter((candidate) => tools[candidate]!.enabled);
    const why = off.get(name);
    if (why) return errorResult(`${name} is off here: ${why}`, `Tools: ${available.join(", ")}`);
    // A package tool not installed (nixpkgs_jq): the package runs through nixpkgs_execute.
    // The number that tells a package's second tool apart (nixpkgs_jq-2) is no part of the package's name.
    const packageName = /^nixpkgs_(.+?)(?:-\d+)?$/.exec(name)?.[1];
    if (packageName && available.includes("nixpkgs_execute")) {
      return errorResult(`no tool \`${name}\`; run the package with nixpkgs_execute {"package": "${packageName}"}`);
    }
    const elsewhere = NAMES_ELSEWHERE[name.toLowerCase()];
    const near = elsewhere && available.includes(elsewhere) ? elsewhere : closest(name, available);
    return errorResult(`no tool \`${name}\`${near ? `; did you mean ${near}?` : ""}`, `Tools: ${available.join(", ")}`);
  }
  const schema = tool.inputSchema;
  if (!schema) return undefined;
  const names = Object.keys(defOf(unwrap(schema)).shape ?? {});
  const takes = names.length ? `It takes: ${names.join(", ")}` : "It takes no arguments";
  if (args !== undefined && !isRecord(args)) {
    return errorResult(`${name}: arguments must be an object of named arguments, e.g. {"${names[0]}": …}`, takes);
  }
  const unknown = unknownArguments(schema, args ?? {});
  const parsed = schema.safeParse(args ?? {});
  if (unknown.length === 0 && parsed.success) return undefined;
  const issues = parsed.success ? [] : tightestBounds(parsed.error.issues).map((issue) => issueWords(issue, schema, args));
  if (unknown.length > 0) {
    const [only] = unknown.length === 1 ? unknown : [];
    const near = only?.way ? ` (${only.way})` : only?.near ? ` (did you mean \`${only.near}\`?)` : "";
    issues.push(`unknown argument ${unknown.map(({ place }) => `\`${place}\``).join(", ")}${near}`);
  }
  // The arguments it takes help with a name missing or unknown, not with a value out of bounds.
  const aboutNames = unknown.length > 0 || (!parsed.success && parsed.error.issues.some(isMissing));
  return errorResult(`${name}: ${issues.join("; ")}`, aboutNames ? takes : undefined);
}

/** The SDK's registered tools, a field it does not expose (the tool-calls test notices if that changes). */
const registeredTools = (mcp: McpServer) => (mcp as unknown as { _registeredTools: Record<string, RegisteredInput> })._registeredTools;

/** Whether the server lists a tool now (registered and enabled): what a note may point an agent to. */
export function toolOffered(mcp: McpServer, name: string): boolean {
  const tools = registeredTools(mcp);
  return Object.hasOwn(tools, name) && tools[name]!.enabled;
}

/**
 * Wraps the SDK's tools/call handler (installed with the first registered tool) so that a call is
 * checked before the SDK sees it, the raw request included (arguments that are no object). The SDK
 * keeps handlers and tools in fields it does not expose (the tool-calls test notices if that changes).
 */
export function checkToolCalls(mcp: McpServer): void {
  const handlers = (mcp.server as unknown as { _requestHandlers: Map<string, Handler> })._requestHandlers;
  const tools = registeredTools(mcp);
  const sdk = handlers.get("tools/call");
  if (!sdk) return;
  handlers.set("tools/call", async (request, extra) => {
    const params = (request as { params?: unknown }).params;
    // The SDK answers this with -32603 and zod's dump of its request schema.
    if (!isRecord(params) || typeof params.name !== "string") {
      throw new McpError(ErrorCode.InvalidParams, 'tools/call takes params {"name": "<tool>", "arguments": {…}}');
    }
    const name = params.name;
    if (isRecord(params.arguments)) {
      const schema = Object.hasOwn(tools, name) ? tools[name]?.inputSchema : undefined;
      params.arguments = ownForm(mcp, name, schema ? (ownNames(schema, params.arguments) as Record<string, unknown>) : params.arguments);
    }
    const problem = callProblem(tools, offTools.get(mcp) ?? new Map(), { name, arguments: params.arguments });
    return problem ?? sdk(request, extra);
  });
}
