// Which mechanism enforces a jail's limits is decided once, by the artifact's bin/run; the daemon
// (doctor's probe) asks bin/run --limits. Each case runs the real jail script: as root on cgroup v1,
// as an unprivileged user with a systemd user manager (a stand-in systemd-run and its socket), and
// as one without.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeHost } from "../daemon/src/jail/host.js";
import { jailLimits } from "../daemon/src/jail/runner.js";
import { harnessMetadata } from "./harness/metadata.js";

let shell: string;
let manager: Server | undefined;

beforeAll(() => {
  const metadata = harnessMetadata();
  shell = JSON.parse(readFileSync(join(metadata, "environments.json"), "utf8")).environments.shell.artifact;
});

afterAll(() => manager?.close());

/** bin/run --limits as user nobody, with only the variables given, in `cwd`. */
const asNobody = (env: Record<string, string>, cwd = "/") =>
  execFileSync("/usr/bin/setpriv", ["--reuid", "65534", "--regid", "65534", "--clear-groups", `${shell}/bin/run`, "--limits"], { env, cwd })
    .toString()
    .trim();

describe("the limit mechanism, decided by bin/run alone", () => {
  it("is a cgroup v1 per run as root here, and the daemon's probe reports what bin/run says", async () => {
    expect(await jailLimits(shell)).toBe("cgroup1");
    const report = await probeHost(shell);
    expect(report.limits).toMatchObject({ ok: true, mechanism: "cgroup1" });
    expect(report.nix.ok && report.bwrap.ok && report.userNamespace.ok).toBe(true);
  });

  it("is a systemd scope for a user with a user manager, else rlimits", async () => {
    const dir = mkdtempSync(join(tmpdir(), "nixshed-limits-"));
    chmodSync(dir, 0o755);
    const bin = join(dir, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "systemd-run"), "#!/bin/sh\n", { mode: 0o755 });
    const runtime = join(dir, "runtime");
    mkdirSync(join(runtime, "systemd"), { recursive: true, mode: 0o755 });
    chmodSync(runtime, 0o755);
    const socket = join(runtime, "systemd", "private");
    manager = createServer();
    await new Promise<void>((resolve) => manager!.listen(socket, resolve));
    // Only `id` besides: this machine may have a systemd-run of its own in /usr/bin.
    symlinkSync("/usr/bin/id", join(bin, "id"));
    const without = join(dir, "without");
    mkdirSync(without);
    symlinkSync("/usr/bin/id", join(without, "id"));
    expect(asNobody({ PATH: bin, XDG_RUNTIME_DIR: runtime })).toBe("systemd");
    expect(asNobody({ PATH: bin, XDG_RUNTIME_DIR: join(dir, "elsewhere") })).toBe("rlimit");
    expect(asNobody({ PATH: without, XDG_RUNTIME_DIR: runtime })).toBe("rlimit");
    // An empty PATH entry is the working directory, here a project's with a systemd-run of its own: not the host's.
    const project = join(dir, "project");
    mkdirSync(project);
    chmodSync(project, 0o755);
    writeFileSync(join(project, "systemd-run"), "#!/bin/sh\n", { mode: 0o755 });
    expect(asNobody({ PATH: `:${without}`, XDG_RUNTIME_DIR: runtime }, project)).toBe("rlimit");
  });

  it("is unknown, not guessed, without an environment to ask or from one outside the store", async () => {
    expect((await probeHost(undefined)).limits).toMatchObject({ ok: false, detail: expect.stringContaining("no environment") });
    const planted = mkdtempSync(join(tmpdir(), "nixshed-planted-"));
    mkdirSync(join(planted, "bin"));
    writeFileSync(join(planted, "bin", "run"), "#!/bin/sh\necho cgroup1\n", { mode: 0o755 });
    await expect(jailLimits(planted)).rejects.toThrow(/not in the Nix store/);
    expect((await probeHost(planted)).limits).toMatchObject({ ok: false, detail: expect.stringContaining("not in the Nix store") });
  });
});
