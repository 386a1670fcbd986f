// The agent surface budget (issue 13): tools/list is sent on every turn, so by default it stays at
// most 20 tools and 12 KB of JSON (read strictly: 12,000 bytes of UTF-8), every capability one call away. A byte count is an invariant, not
// a timing, so it is a test; `npm run bench -- surface` prints the numbers beside the official
// filesystem server. Checked on the default configuration with the harness metadata, and with a
// nixpkgs to realise from and no index yet (every nixpkgs tool listed, the whole everyday set named:
// the largest list a default configuration gives).
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { startServer } from "../daemon/test/support/mcp-client.js";
import { fsCapability } from "../daemon/src/fs/tools.js";
import { nixpkgsCapability } from "../daemon/src/nixpkgs/tools.js";
import { pkglocalCapability } from "../daemon/src/pkglocal/tools.js";
import { sandboxCapability } from "../daemon/src/sandbox/tools.js";
import { harnessMetadata } from "./harness/metadata.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/nixpkgs", import.meta.url));
const BUDGET = { tools: 20, bytes: 12_000 };

async function toolList(extra: string[]) {
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-surface-")));
  const handle = await startServer({
    args: [
      "--metadata",
      harnessMetadata(),
      "--project",
      scratch,
      "--state-dir",
      join(scratch, "state"),
      "--cache-dir",
      join(scratch, "cache"),
      ...extra,
    ],
  });
  try {
    const result = await handle.client.listTools();
    return { names: result.tools.map((tool) => tool.name), bytes: Buffer.byteLength(JSON.stringify(result)) };
  } finally {
    await handle.close();
  }
}

describe("tools/list by default", () => {
  it("is at most 20 tools and 12 KB, with fs, run and sessions, pkg-local", async () => {
    const { names, bytes } = await toolList([]);
    expect(names.length).toBeLessThanOrEqual(BUDGET.tools);
    expect(bytes).toBeLessThanOrEqual(BUDGET.bytes);
    expect(names).toEqual(
      expect.arrayContaining([
        "read_content",
        "write_content",
        "edit_file",
        "search_files",
        "run",
        "close_session",
        "scan_packages",
        "read_package",
      ]),
    );
  });

  it("stays within it with every nixpkgs tool listed and the everyday packages named", async () => {
    const { names, bytes } = await toolList(["--set", `nixpkgs.source=${FIXTURE}`]);
    expect(names).toEqual(
      expect.arrayContaining([
        "nixpkgs_search",
        "nixpkgs_execute",
        "nixpkgs_install_tool",
        "nixpkgs_list_installed",
        "nixpkgs_uninstall_tool",
        "run",
      ]),
    );
    expect(names.length).toBeLessThanOrEqual(BUDGET.tools);
    expect(bytes).toBeLessThanOrEqual(BUDGET.bytes);
  });

  it("lists every tool a capability says it can offer, once all are on (what a call of an absent one is told rests on it)", async () => {
    const { names } = await toolList([
      "--set",
      `nixpkgs.source=${FIXTURE}`,
      "--set",
      "fs.allow_move=true",
      "--set",
      "fs.allow_delete=true",
    ]);
    const offerable = [fsCapability, sandboxCapability, nixpkgsCapability, pkglocalCapability].flatMap((capability) => capability.tools);
    expect([...names].sort()).toEqual([...offerable].sort());
  });

  it("stays within it when packages get the network, which names the network group too", async () => {
    const { bytes } = await toolList(["--set", `nixpkgs.source=${FIXTURE}`, "--set", "nixpkgs.network=true"]);
    expect(bytes).toBeLessThanOrEqual(BUDGET.bytes);
  });
});
