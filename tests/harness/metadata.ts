// Builds the harness metadata (the presets through the flake's own lib.mkMetadata with the
// host-backed stand-in for nixpkgs) for the cross-layer tests, once per test process.
import { execFileSync } from "node:child_process";

const repo = new URL("../..", import.meta.url).pathname;
const built = new Map<boolean, string>();

/** The metadata store path; with testEnvironments, also the `tight` environment (see metadata.nix). */
export function harnessMetadata(options: { testEnvironments?: boolean } = {}): string {
  const withTests = options.testEnvironments ?? false;
  let path = built.get(withTests);
  if (!path) {
    try {
      const output = execFileSync("bash", ["tests/harness/build-metadata.sh", ...(withTests ? ["--test-environments"] : [])], {
        cwd: repo,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      });
      path = output.trim().split("\n").pop()!;
    } catch (error) {
      throw new Error(`building the harness metadata failed:\n${String((error as { stderr?: unknown }).stderr ?? error).slice(-3000)}`);
    }
    built.set(withTests, path);
  }
  return path;
}
