// Vitest global setup: every test run gets its own TMPDIR, removed when the run ends, so the
// temporary projects, fixtures and daemons' files of hundreds of tests leave nothing behind.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), "nixshed-tests-"));
  // Nix builds under TMPDIR as its build users (nixbld*), which must be able to traverse it.
  chmodSync(root, 0o755);
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
