// A hostile repository names protected paths the jail must bind exactly as the daemon checked them: a
// directory "L " (a space at the end) beside a symlink "L -> ../etc", and a .nixshed.toml that only adds
// protected paths ("L /x", which adding may). Were the name trimmed on its way to bwrap, the jail would
// bind the symlink, the project's sibling, over its own /etc, read-write.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PROTECTED_PATHS } from "../../daemon/src/config/protected-paths.js";
import { startServer, textOf, type ServerHandle } from "../../daemon/test/support/mcp-client.js";
import { harnessMountsFlag } from "../harness/extra-mounts.js";
import { harnessMetadata } from "../harness/metadata.js";

let scratch: string;
let sibling: string;
let project: string;
let server: ServerHandle;

beforeAll(async () => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-protected-names-")));
  // The project's sibling stands for the host's /etc beside a project at /app.
  sibling = join(scratch, "etc");
  project = join(scratch, "app");
  mkdirSync(sibling);
  writeFileSync(join(sibling, "hostfile"), "host secret\n");
  // What the trimmed names would reach: each added entry's last part, beside the secret.
  mkdirSync(join(sibling, "x"));
  mkdirSync(project);
  for (const [name, link] of [
    ["L ", "L"],
    [" M", "M"],
    ["N\t", "N"],
  ]) {
    mkdirSync(join(project, name!));
    symlinkSync("../etc", join(project, link!));
  }
  const added = ["L /x", " M/x", "N\t/x"];
  writeFileSync(join(project, ".nixshed.toml"), `protected_paths = ${JSON.stringify([...DEFAULT_PROTECTED_PATHS, ...added])}\n`);
  const state = ["--state-dir", join(scratch, "state"), "--cache-dir", join(scratch, "cache")];
  server = await startServer({
    args: ["--metadata", harnessMetadata({ testEnvironments: true }), "--project", project, ...state, ...harnessMountsFlag()],
  });
}, 600_000);

afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("protected paths a project names", () => {
  it("are bound as named: no symlink beside a name with spaces or tabs reaches the project's siblings", async () => {
    const code = String.raw`
import os
for path in ["/etc/hostfile", "/project/L/hostfile", "/project/L /x"]:
    print(path, os.path.exists(path))
try:
    open("/etc/PWNED", "w").write("from the jail\n")
    print("wrote /etc/PWNED")
except OSError as e:
    print("denied", type(e).__name__)
`;
    const result = await server.call("run", { env: "tight", code });
    const text = textOf(result);
    expect(text).toContain("/etc/hostfile False");
    expect(readdirSync(sibling).sort()).toEqual(["hostfile", "x"]);
    expect(existsSync(join(sibling, "PWNED"))).toBe(false);
  });
});
