// The tool contract of the issue, for every group's tools (not only fs): an output schema, a
// description per input field and readOnlyHint; tools/list leaves out the other hints where they are
// the spec's default (destructive, not idempotent, open world) or, on a read-only tool, meaningless.
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startServer, type ServerHandle } from "../support/mcp-client.js";

let handle: ServerHandle | undefined;

afterEach(async () => {
  await handle?.close();
});

describe("every group's tools", () => {
  it("carry an output schema, described inputs and all four annotations", async () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-contract-")));
    handle = await startServer({ args: ["--project", base], env: { XDG_CACHE_HOME: join(base, "cache") } });
    for (const tool of (await handle.client.listTools()).tools) {
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      expect(typeof tool.annotations?.readOnlyHint, `${tool.name}.readOnlyHint`).toBe("boolean");
      for (const hint of ["destructiveHint", "idempotentHint", "openWorldHint"] as const) {
        expect(["boolean", "undefined"], `${tool.name}.${hint}`).toContain(typeof tool.annotations?.[hint]);
      }
      for (const [field, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((schema as { description?: string }).description, `${tool.name}.${field}`).toBeTruthy();
      }
    }
  });

  it("say the one path world wherever a project path is taken: relative or /project/...", async () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-contract-")));
    handle = await startServer({ args: ["--project", base], env: { XDG_CACHE_HOME: join(base, "cache") } });
    type Schema = { description?: string; properties?: Record<string, Schema>; items?: Schema };
    const pathArguments = (schema: Schema, at: string): [string, Schema][] =>
      Object.entries(schema.properties ?? {}).flatMap(([name, field]): [string, Schema][] => {
        const place = `${at}.${name}`;
        if (name === "path" && !at.startsWith("read_package")) return [[place, field]];
        if (name === "paths") return [[place, field.items!]];
        return field.items?.properties ? pathArguments(field.items, place) : [];
      });
    const found = (await handle.client.listTools()).tools.flatMap((tool) => pathArguments(tool.inputSchema as Schema, tool.name));
    expect(found.length).toBeGreaterThan(5);
    for (const [place, field] of found) expect(field.description, place).toMatch(/[Pp]roject-relative.*\/project\/\.\.\./);
  });
});
