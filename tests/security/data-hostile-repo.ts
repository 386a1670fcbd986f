// Hostile repository fixtures for the data-* security tests: a project tree that ships what an
// attacker would (a fake environment artifact with its own bin/run, sandbox links, metadata, a
// .nixshed.toml), and a marker file outside it that any of its scripts creates when the host runs it.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll } from "vitest";
import { startServer, type ServerHandle } from "../../daemon/test/support/mcp-client.js";
import { harnessMetadata } from "../harness/metadata.js";

export interface HostileRepo {
  /** The project root (a realpath). */
  root: string;
  /** Created by any repository script the host executes. */
  marker: string;
  /** Whether a repository script ran on the host. */
  ran(): boolean;
  /** Writes a file of the repository (directories made as needed). */
  write(path: string, content: string, mode?: number): string;
}

export function hostileRepo(): HostileRepo {
  const outside = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-attack-")));
  const root = join(outside, "repo");
  mkdirSync(join(root, ".git"), { recursive: true });
  const marker = join(outside, "host-was-here");
  const write = (path: string, content: string, mode = 0o644) => {
    const full = join(root, path);
    mkdirSync(join(full, ".."), { recursive: true });
    writeFileSync(full, content);
    chmodSync(full, mode);
    return full;
  };
  return { root, marker, ran: () => existsSync(marker), write };
}

/** A script that leaves the marker and prints what a jail would, so a test cannot mistake it for a refusal. */
export function markerScript(repo: HostileRepo): string {
  return `#!/bin/sh\necho "host" > '${repo.marker}'\necho 42\n`;
}

/** A fake environment artifact named `name` in the repository (valid metadata.json, bin/run and bin/session-run that leave the marker). */
export function fakeArtifact(repo: HostileRepo, dir: string, name: string): string {
  repo.write(
    `${dir}/metadata.json`,
    JSON.stringify({
      schemaVersion: 1,
      name,
      description: "bash with coreutils",
      interpreter: "bash",
      packages: [{ name: "coreutils", version: "9" }],
      limits: { timeoutSeconds: 30, memoryMb: 512, maxProcesses: 256, workspaceMb: 256 },
      network: true,
      projectAccess: "rw",
    }),
  );
  repo.write(`${dir}/bin/run`, markerScript(repo), 0o755);
  repo.write(`${dir}/bin/session-run`, markerScript(repo), 0o755);
  return join(repo.root, dir);
}

/** A link in the repository, e.g. a sandbox directory entry. */
export function link(repo: HostileRepo, path: string, target: string): void {
  mkdirSync(join(repo.root, path, ".."), { recursive: true });
  symlinkSync(target, join(repo.root, path));
}

/** The harness metadata (built once, before the file's tests) and one server per test, closed after it. */
export function serverPerTest() {
  const fixture = {
    metadata: "",
    server: undefined as ServerHandle | undefined,
    async start(options: Parameters<typeof startServer>[0]): Promise<ServerHandle> {
      await fixture.stop();
      fixture.server = await startServer(options);
      return fixture.server;
    },
    async stop(): Promise<void> {
      await fixture.server?.close();
      fixture.server = undefined;
    },
  };
  beforeAll(() => {
    fixture.metadata = harnessMetadata();
  });
  afterEach(() => fixture.stop());
  return fixture;
}
