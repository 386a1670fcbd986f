// One way to declare a tool: zod input and output shapes, truthful annotations, a handler that
// returns plain data, and a compact text rendering of it. Failures become isError results that say
// what went wrong and what to do instead; cancellation reaches the handler as an AbortSignal. Every
// answer, success or failure, is fitted to the server's response budget here (response-budget.ts).
import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { ExpectedError } from "../expected-error.js";
import type { Logger } from "../log.js";
import { DEFAULT_RESPONSE_BYTES } from "../config/schema.js";
import { fitResponse, type Kept, partText, type TextPart } from "./response-budget.js";
import type { ResultStore } from "./results.js";

/** An expected failure of a tool itself: its message (and hint) go to the agent as they are. */
export class ToolError extends ExpectedError {}

export interface ToolCallContext {
  signal: AbortSignal;
  /** Sends notifications/progress when the client asked for it; a no-op otherwise. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolDefinition<I extends z.ZodRawShape = z.ZodRawShape, O extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  run(args: z.infer<z.ZodObject<I>>, call: ToolCallContext): Promise<z.infer<z.ZodObject<O>>>;
  /**
   * The text; given as parts (a program's streams, a file read), each part is cut on its own when the
   * answer is too long, a file part's marker pointing into its file.
   */
  render(result: z.infer<z.ZodObject<O>>): string | TextPart[];
  /**
   * Other shapes agents first give the arguments in ("old_text" beside "path", no "edits"), made the
   * tool's own before they are checked (tool-calls.ts); arguments of its own shape come back as they are.
   */
  otherForms?: (args: Record<string, unknown>) => Record<string, unknown>;
}

/** What other tools call a path argument (tool-calls.ts takes them for a tool's `path`). */
export const PATH_SPELLINGS: ReadonlySet<string> = new Set(["file_path", "filePath", "filepath", "file"]);

/**
 * What other agents' tools call an argument ours take under another name (Claude Code's Bash `command`,
 * `timeout`; session_id): tool-calls.ts takes each for a tool's own name where the tool has it.
 */
export const OTHER_SPELLINGS: Readonly<Record<string, string>> = {
  ...Object.fromEntries([...PATH_SPELLINGS].map((spelling) => [spelling, "path"])),
  command: "code",
  cmd: "code",
  script: "code",
  language: "env",
  lang: "env",
  interpreter: "env",
  input: "stdin",
  arguments: "args",
  argv: "args",
  session_id: "session",
  sessionId: "session",
  // search_files counts max_results, nixpkgs_search and scan_packages a limit.
  max_results: "limit",
  limit: "max_results",
};

/** Per server, the tools that take other shapes of their arguments. */
const otherForms = new WeakMap<McpServer, Map<string, (args: Record<string, unknown>) => Record<string, unknown>>>();

/** The tool's own shape of arguments given in another it takes (the arguments as they are otherwise). */
export function ownForm(server: McpServer, name: string, args: Record<string, unknown>): Record<string, unknown> {
  const reshape = otherForms.get(server)?.get(name);
  return reshape ? reshape(args) : args;
}

/** Identity, for type inference of a tool's args and result. */
export function defineTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(tool: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return tool;
}

/** A failure and what to do instead, in one line: "no package `x` in this nixpkgs; find the attribute with nixpkgs_search." */
export function errorResult(message: string, hint?: string): CallToolResult {
  const text = hint ? `${message}${hintAfter(message, hint)}` : message;
  const lines = text.split("\n");
  // A long output (a failure's whole log) is the response budget's to cut and keep whole.
  return { isError: true, content: [{ type: "text", text: lines.length > MAX_SHORTENED_LINES ? text : lines.map(shortLine).join("\n") }] };
}

/**
 * The longest line of an error: one that echoes a long input (a path, a pattern, a file's line) keeps
 * its ends. Room enough for a listing the agent needs whole (coreutils' hundred programs).
 */
const MAX_ERROR_LINE = 2000;
/** Errors of up to this many lines are words about inputs (a message, the closest lines of a file), not output to page. */
const MAX_SHORTENED_LINES = 20;

function shortLine(line: string): string {
  if (line.length <= MAX_ERROR_LINE) return line;
  const head = line.slice(0, 1400);
  const tail = line.slice(-400);
  return `${head}…[${line.length - head.length - tail.length} characters]…${tail}`;
}

/** A hint after the message: a new sentence after one that ends, else a clause of it; after a block of lines, a line of its own. */
function hintAfter(message: string, hint: string): string {
  if (message.includes("\n")) return `\n${hint}`;
  if (/[.?!]$/.test(message)) return ` ${hint}`;
  return `; ${/^[A-Z][a-z]/.test(hint) ? hint.charAt(0).toLowerCase() + hint.slice(1) : hint}`;
}

/** How big one answer may be, and where the whole text of a cut one is kept. */
export interface ResponsePolicy {
  maxBytes: number;
  store?: ResultStore;
}

/** Each server's policy, set once when it is built, before any tool is registered. */
const policies = new WeakMap<McpServer, ResponsePolicy>();

export function setResponsePolicy(server: McpServer, policy: ResponsePolicy): void {
  policies.set(server, policy);
}

export function registerTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(
  server: McpServer,
  tool: ToolDefinition<I, O>,
  log: Logger,
): RegisteredTool {
  if (tool.otherForms) {
    const forms = otherForms.get(server) ?? new Map();
    forms.set(tool.name, tool.otherForms);
    otherForms.set(server, forms);
  }
  return server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: tool.input,
      outputSchema: tool.output,
      annotations: { title: tool.title, ...tool.annotations },
    },
    // The SDK's callback type is generic over every schema flavour; our shapes are plain zod objects.
    (async (args: z.infer<z.ZodObject<I>>, extra: RequestExtra): Promise<CallToolResult> => {
      const token = extra._meta?.progressToken;
      const call: ToolCallContext = {
        signal: extra.signal,
        progress: async (progress, total, message) => {
          if (token === undefined) return;
          await extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken: token, progress, total, message },
          });
        },
      };
      const policy = policies.get(server) ?? { maxBytes: DEFAULT_RESPONSE_BYTES };
      const keep = (text: string): Promise<Kept> =>
        policy.store ? policy.store.keep(tool.name, text) : Promise.resolve({ error: "no results directory: the fs tools are off" });
      const { result, parts } = await answer(tool, args, call, log);
      return fitResponse(result, policy.maxBytes, keep, parts);
    }) as never,
  );
}

async function answer<I extends z.ZodRawShape, O extends z.ZodRawShape>(
  tool: ToolDefinition<I, O>,
  args: z.infer<z.ZodObject<I>>,
  call: ToolCallContext,
  log: Logger,
): Promise<{ result: CallToolResult; parts?: TextPart[] }> {
  try {
    const output = await tool.run(args, call);
    const parts = [tool.render(output)].flat();
    return {
      result: { content: [{ type: "text", text: parts.map(partText).join("\n") }], structuredContent: output as Record<string, unknown> },
      parts,
    };
  } catch (error) {
    if (error instanceof ExpectedError) return { result: errorResult(error.message, error.hint) };
    if (call.signal.aborted) return { result: errorResult(`${tool.name}: cancelled`) };
    log.error(`${tool.name}: ${(error as Error).stack ?? error}`);
    return { result: errorResult(`${tool.name}: internal error: ${(error as Error).message}`, "This is a nixshed bug; please report it.") };
  }
}

interface RequestExtra {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification(notification: { method: "notifications/progress"; params: Record<string, unknown> }): Promise<void>;
}
