// tools/list goes into the agent's context on every turn, so the SDK's answer is sent without what
// says nothing: the JSON Schema dialect on every schema, the ±2^53 bounds zod puts on every integer,
// `execution` when it is the default (no tasks), an annotation title equal to the tool's title, the
// hints the spec calls meaningless on a read-only tool (destructive, idempotent), and of an output
// schema all but the names of its fields (the text result says the rest; the structured one is
// still validated by the daemon against its full schema). Input schemas keep
// every field and description.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

type Json = { [key: string]: unknown };
type Handler = (request: unknown, extra: unknown) => Promise<Json> | Json;

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

/** An output schema as the names of its fields. */
function fieldsOnly(schema: Json): Json {
  return { type: "object", properties: Object.fromEntries(Object.keys((schema.properties ?? {}) as Json).map((name) => [name, {}])) };
}

function hints(annotations: Json, title: unknown): Json {
  const { title: own, destructiveHint, idempotentHint, ...rest } = annotations;
  return {
    ...(own === title ? {} : { title: own }),
    ...rest,
    ...(annotations.readOnlyHint === true ? {} : { destructiveHint, idempotentHint }),
  };
}

export function compactTool(tool: Json): Json {
  const { execution, annotations, inputSchema, outputSchema, ...rest } = tool;
  const out: Json = { ...rest, inputSchema: withoutNoise(inputSchema) };
  if (outputSchema) out.outputSchema = fieldsOnly(outputSchema as Json);
  if (isObject(annotations)) out.annotations = hints(annotations, tool.title);
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
