// tools/list is sent on every turn, so the SDK's answer goes without what says nothing: the JSON
// Schema dialect on every schema, the ±2^53 bounds zod puts on every integer, `execution` when it is
// the default (no tasks), hints equal to the spec's defaults or meaningless on a read-only tool
// (readOnlyHint is always said), and what models are never shown (they get a tool's name,
// description and input schema): display titles (clients show the name instead) and the body of
// output schemas (the text result describes itself; the server still validates structured results
// against the full schema). Input schemas keep every field and description.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

type Json = { [key: string]: unknown };
type Handler = (request: unknown, extra: unknown) => Promise<Json> | Json;

/** What an output schema says in tools/list: the result is structured. */
const OUTPUT_SCHEMA = { type: "object" };

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** A schema without the dialect and without integer bounds that only restate JavaScript's. */
function withoutNoise(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutNoise);
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$schema") continue;
    if ((key === "minimum" || key === "maximum") && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) continue;
    out[key] = withoutNoise(value);
  }
  return out;
}

/** The spec's defaults of the hints: a hint equal to its default says nothing. */
const DEFAULT_HINTS: Json = { destructiveHint: true, idempotentHint: false, openWorldHint: true };

function hints(annotations: Json): Json {
  const readOnly = annotations.readOnlyHint === true;
  const kept = Object.entries(annotations).filter(([name, value]) => {
    if (name === "title") return false;
    if (name === "destructiveHint" || name === "idempotentHint") return !readOnly && value !== DEFAULT_HINTS[name];
    return value !== DEFAULT_HINTS[name];
  });
  return Object.fromEntries(kept);
}

export function compactTool(tool: Json): Json {
  const { execution, annotations, inputSchema, outputSchema, title: _title, ...rest } = tool;
  const out: Json = { ...rest, inputSchema: withoutNoise(inputSchema) };
  if (outputSchema) out.outputSchema = OUTPUT_SCHEMA;
  if (isObject(annotations)) out.annotations = hints(annotations);
  if (isObject(execution) && execution.taskSupport !== "forbidden") out.execution = execution;
  return out;
}

/**
 * Wraps the SDK's tools/list handler (installed with the first registered tool) so that its answer
 * is compacted. The SDK keeps handlers in a map it does not expose (the surface test notices if that
 * changes); a server without tools has none.
 */
export function compactToolList(mcp: McpServer): void {
  const handlers = (mcp.server as unknown as { _requestHandlers: Map<string, Handler> })._requestHandlers;
  const sdk = handlers.get("tools/list");
  if (!sdk) return;
  handlers.set("tools/list", async (request, extra) => {
    const result = await sdk(request, extra);
    return { ...result, tools: (result.tools as Json[]).map(compactTool) };
  });
}
