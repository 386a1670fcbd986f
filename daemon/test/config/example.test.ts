// config.example.toml documents every key of the schema with its default; this keeps it so, for
// the keys other capabilities add later too: it walks the schema, not a list.
import { readFileSync } from "node:fs";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { isTable } from "../../src/config/layers.js";
import { configSchema } from "../../src/config/schema.js";
import { nodeOf } from "../../src/config/shape.js";
import { TRUST_RULES } from "../../src/config/trust.js";

const text = readFileSync(new URL("../../../config.example.toml", import.meta.url), "utf8");
const lines = text.split("\n");
const example = parse(text) as Record<string, unknown>;

const valueAt = (config: unknown, dotted: string): unknown =>
  dotted.split(".").reduce<unknown>((node, key) => (isTable(node) ? node[key] : undefined), config);

interface Found {
  leaves: string[][];
  records: { path: string[]; value: z.ZodType }[];
}

function walk(schema: z.ZodType, path: string[], found: Found): Found {
  const node = nodeOf(schema);
  if (node.kind === "table") for (const [key, child] of Object.entries(node.keys)) walk(child, [...path, key], found);
  else if (node.kind === "record") found.records.push({ path, value: node.value });
  else found.leaves.push(path);
  return found;
}

const { leaves, records } = walk(configSchema, [], { leaves: [], records: [] });

/** The commented example table `# [PATH.NAME]` that follows a record's explanation, uncommented. */
function commentedExample(path: string[]): string | undefined {
  const header = lines.findIndex((line) => line.startsWith(`# [${path.join(".")}.`));
  if (header === -1) return undefined;
  const body: string[] = [];
  for (const line of lines.slice(header + 1)) {
    if (!/^# [a-z_]+ = /.test(line)) break;
    body.push(line.slice(2));
  }
  return body.join("\n");
}

describe("config.example.toml", () => {
  it("sets every key of the schema", () => {
    const missing = leaves.map((path) => path.join(".")).filter((dotted) => valueAt(example, dotted) === undefined);
    expect(missing).toEqual([]);
  });

  it("sets each key to its default and nothing the schema does not know", () => {
    expect(configSchema.parse(example)).toEqual(configSchema.parse({}));
  });

  it("explains every key with a comment above it", () => {
    const bare = lines.filter((line, index) => /^[a-z_]+ = /.test(line) && !lines[index - 1]?.startsWith("#"));
    expect(bare).toEqual([]);
  });

  it("shows a commented, valid example of every table of entries, using all its keys", () => {
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) {
      const block = commentedExample(record.path);
      expect(block, `no "# [${record.path.join(".")}.NAME]" example`).toBeDefined();
      const entry = parse(block!) as Record<string, unknown>;
      expect(() => record.value.parse(entry)).not.toThrow();
      const node = nodeOf(record.value);
      if (node.kind === "table") expect(Object.keys(entry).sort(), record.path.join(".")).toEqual(Object.keys(node.keys).sort());
    }
  });

  it("names every key only trusted layers may set, as config/trust.ts classifies them", () => {
    const line = lines.find((each) => each.startsWith("# Only trusted layers may set: "));
    const listed = line
      ?.replace(/^# Only trusted layers may set: /, "")
      .replace(/\.$/, "")
      .split(", ");
    const trustedOnly = Object.entries(TRUST_RULES)
      .filter(([, rule]) => rule.allows === undefined)
      .map(([key]) => key);
    expect(listed?.sort()).toEqual(trustedOnly.sort());
  });
});
