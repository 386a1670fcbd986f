// Tool arguments and project files shaped to be slow to handle: the server has one thread, so one
// parse in time quadratic (or worse) in its input held every other call. Each case took from tens
// of seconds to hours; each now answers at once, and so does the next call.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, textOf, type ServerHandle } from "../../daemon/test/support/mcp-client.js";
import { harnessMetadata } from "../harness/metadata.js";

let scratch: string;
let project: string;
let server: ServerHandle;

/** A call that must answer within 20 s, and a cheap one after it that must answer too. */
async function answers(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await server.client.callTool({ name, arguments: args }, undefined, { timeout: 20_000 });
  const later = await server.client.callTool({ name: "stat_items", arguments: { paths: ["."] } }, undefined, { timeout: 20_000 });
  expect(later.isError, textOf(later as never)).toBeFalsy();
  return textOf(result as never);
}

beforeAll(async () => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-slow-")));
  project = join(scratch, "project");
  mkdirSync(project);
  const state = ["--state-dir", join(scratch, "state"), "--cache-dir", join(scratch, "cache")];
  server = await startServer({ args: ["--metadata", harnessMetadata(), "--project", project, ...state] });
}, 600_000);

afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("arguments shaped to be slow", () => {
  it("create_directories of a path 1,000 levels deep (a bare repository was looked for again at each level)", async () => {
    const deep = Array(1000).fill("d").join("/");
    expect(await answers("create_directories", { paths: [deep] })).toMatch(/d\/d/);
  });

  it("edit_file of a needle of repeats in a file of repeats (each match was looked for one character on)", async () => {
    writeFileSync(join(project, "repeats.txt"), "a".repeat(400_000));
    const text = await answers("edit_file", { path: "repeats.txt", edits: [{ old_text: "a".repeat(200_000), new_text: "b" }] });
    // Two matches that do not overlap, as replace_all would replace them.
    expect(text).toMatch(/matches 2 times/);
  });

  it("run in an environment named by 400,000 digits and a letter", async () => {
    expect(await answers("run", { env: `${"1".repeat(400_000)}x`, code: "echo" })).toMatch(/unknown environment/);
  });

  it("run of code given no environment: 100,000 heredocs that never end", async () => {
    expect(await answers("run", { code: "a -b <<c\n".repeat(100_000) })).toBeDefined();
  });
});
