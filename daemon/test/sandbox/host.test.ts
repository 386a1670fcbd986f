// Which limit mechanism the host probe reports, from a stand-in cgroup root and PATH.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { limitMechanism, probeHost } from "../../src/common/host.js";

describe("limitMechanism", () => {
  it("picks cgroup v1 when the memory and pids hierarchies are writable", () => {
    const root = mkdtempSync(join(tmpdir(), "nixshed-cgroup-"));
    mkdirSync(join(root, "memory"));
    mkdirSync(join(root, "pids"));
    writeFileSync(join(root, "pids", "cgroup.procs"), "");
    expect(limitMechanism({ PATH: "" }, root)).toBe("cgroup1");
  });

  it("falls back to a systemd scope when systemd-run and a manager are there, else to rlimits", () => {
    const root = mkdtempSync(join(tmpdir(), "nixshed-cgroup-"));
    const bin = mkdtempSync(join(tmpdir(), "nixshed-bin-"));
    writeFileSync(join(bin, "systemd-run"), "#!/bin/sh\n");
    chmodSync(join(bin, "systemd-run"), 0o755);
    const runtime = mkdtempSync(join(tmpdir(), "nixshed-runtime-"));
    mkdirSync(join(runtime, "systemd"));
    writeFileSync(join(runtime, "systemd", "private"), "");
    const user = 1000;
    expect(limitMechanism({ PATH: bin, XDG_RUNTIME_DIR: runtime }, root, user)).toBe("systemd");
    expect(limitMechanism({ PATH: bin, XDG_RUNTIME_DIR: join(runtime, "absent") }, root, user)).toBe("rlimit");
    expect(limitMechanism({ PATH: "", XDG_RUNTIME_DIR: runtime }, root, user)).toBe("rlimit");
  });
});

describe("probeHost", () => {
  it("reports this machine: nix, bwrap, user namespaces and cgroup v1 as root", async () => {
    const report = await probeHost();
    expect(report.nix).toMatchObject({ ok: true, detail: expect.stringContaining("nix") });
    expect(report.bwrap.ok).toBe(true);
    expect(report.userNamespace.ok).toBe(true);
    expect(report.limits.mechanism).toBe("cgroup1");
  });
});
