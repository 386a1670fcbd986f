// Walks zod schemas: the configuration's (which keys a table allows, and what each leaf is: to word
// config errors, "allowed here: …", and to check config.example.toml against the schema) and a
// tool's arguments (mcp/tool-calls.ts: which arguments it takes, and what each is).
import type { z } from "zod";

type AnySchema = z.ZodType;

export interface Def {
  type: string;
  innerType?: AnySchema;
  valueType?: AnySchema;
  shape?: Record<string, AnySchema>;
  /** An array's. */
  element?: AnySchema;
}

export const defOf = (schema: AnySchema): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schema under defaults, prefaults and optionals. */
export function unwrap(schema: AnySchema): AnySchema {
  let current = schema;
  for (
    let def = defOf(current);
    def.innerType && ["default", "prefault", "optional", "nullable"].includes(def.type);
    def = defOf(current)
  ) {
    current = def.innerType;
  }
  return current;
}

export type Node = { kind: "table"; keys: Record<string, AnySchema> } | { kind: "record"; value: AnySchema } | { kind: "leaf" };

export function nodeOf(schema: AnySchema): Node {
  const def = defOf(unwrap(schema));
  if (def.type === "object" && def.shape) return { kind: "table", keys: def.shape };
  if (def.type === "record" && def.valueType) return { kind: "record", value: def.valueType };
  return { kind: "leaf" };
}

/** The schema of a table's key, its own keys only ("constructor" or "toString" is none), or of any record entry. */
export function childOf(node: Node, key: string): AnySchema | undefined {
  if (node.kind === "table") return Object.hasOwn(node.keys, key) ? node.keys[key] : undefined;
  return node.kind === "record" ? node.value : undefined;
}

/** The schema at a dotted path (record entries are any key), or undefined when there is none. */
export function schemaAt(root: AnySchema, path: (string | number)[]): AnySchema | undefined {
  let current: AnySchema | undefined = root;
  for (const key of path) {
    if (!current) return undefined;
    current = childOf(nodeOf(current), String(key));
  }
  return current;
}

/** The keys a table at `path` allows, or [] when it is not a table. */
export function allowedKeys(root: AnySchema, path: (string | number)[]): string[] {
  const schema = schemaAt(root, path);
  const node = schema ? nodeOf(schema) : undefined;
  return node?.kind === "table" ? Object.keys(node.keys) : [];
}

/** Every key of the schema's tables, dotted (`fs`, `fs.read_only`, `sandbox.sessions.max_sessions`), not the entries of a table of entries. */
export function keyPaths(schema: AnySchema, prefix: string[] = []): string[] {
  const node = nodeOf(schema);
  if (node.kind !== "table") return [];
  return Object.entries(node.keys).flatMap(([key, child]) => [[...prefix, key].join("."), ...keyPaths(child, [...prefix, key])]);
}

/** Every leaf key of the schema, dotted, with `*` for any entry of a table of entries (`nixpkgs.permissions.*.network`). */
export function leafPatterns(schema: AnySchema, prefix: string[] = []): string[] {
  const node = nodeOf(schema);
  if (node.kind === "table") return Object.entries(node.keys).flatMap(([key, child]) => leafPatterns(child, [...prefix, key]));
  if (node.kind === "record") return leafPatterns(node.value, [...prefix, "*"]);
  return [prefix.join(".")];
}
