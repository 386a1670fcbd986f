// The session core on the host's interpreters: what the manager decides, independent of the jail.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SandboxError } from "../../src/sandbox/errors.js";
import { SessionManager, type SessionLimits } from "../../src/sandbox/sessions/manager.js";
import { environment, hostLauncher } from "./host-launcher.js";

const python = environment("py", "python");
const shell = environment("sh", "bash");
const call = (code: string, timeoutMs = 10_000) => ({ code, timeoutMs, maxOutputBytes: 65536 });
const limits: SessionLimits = { maxSessions: 4, idleTimeoutMs: 600_000, maxLifetimeMs: 3_600_000 };
const managers: SessionManager[] = [];

function manager(options: Partial<ConstructorParameters<typeof SessionManager>[0]> = {}) {
  const created = new SessionManager({ launcher: hostLauncher(), limits, ...options });
  managers.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(managers.splice(0).map((each) => each.closeAll()));
});

describe("SessionManager", () => {
  it("explains a kernel that cannot start, with what it said", async () => {
    const sessions = manager({ launcher: hostLauncher(["bash", "-c", "echo 'no kernel here' >&2; exit 125"]) });
    await expect(sessions.run("s", python, call("pass"))).rejects.toThrow(
      /python session kernel of 'py' exited with code 125: no kernel here/,
    );
  });

  it("names the session's env when a call asks for another", async () => {
    const sessions = manager();
    await sessions.run("s", python, call("pass"));
    expect(() => sessions.run("s", shell, call(":"))).toThrow(SandboxError);
    expect(() => sessions.run("s", shell, call(":"))).toThrow("session 's' runs in env 'py', not 'sh'");
  });

  it("reaps idle sessions on its clock and says why in the next call", async () => {
    let now = 0;
    const sessions = manager({ limits: { ...limits, idleTimeoutMs: 1000 }, now: () => now, reapIntervalMs: 20 });
    await sessions.run("s", python, call("v = 1"));
    now = 999;
    // Five reaps on the 20 ms interval, none of which may close it (nothing to wait for: it must not happen).
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sessions.list().map((s) => s.id)).toEqual(["s"]);
    now = 2000;
    await vi.waitFor(() => expect(sessions.list()).toEqual([]));
    const next = await sessions.run("s", python, call("print('v' in globals())"));
    expect(next.stdout).toBe("False\n");
    expect(next.notices).toEqual([
      "Fresh session: 's' was closed after 1 s without calls (sandbox.sessions.idle_timeout_seconds); its state is gone.",
    ]);
  });

  it("knows a session's env while it lives and after the daemon closed it on its own, not after close_session", async () => {
    const sessions = manager({ limits: { ...limits, maxSessions: 1 } });
    expect(sessions.envOf("a")).toBeUndefined();
    await sessions.run("a", python, call("pass"));
    expect(sessions.envOf("a")).toBe("py");
    // Room for b closes a, the least recently used.
    await sessions.run("b", shell, call(":"));
    expect(sessions.list().map((s) => s.id)).toEqual(["b"]);
    expect(sessions.envOf("a")).toBe("py");
    await sessions.close("b");
    expect(sessions.envOf("b")).toBeUndefined();
  });

  it("fails calls still queued when their session is closed", async () => {
    const sessions = manager();
    await sessions.run("s", shell, call(":"));
    const started = join(mkdtempSync(join(tmpdir(), "session-")), "started");
    const running = sessions.run("s", shell, call(`touch ${started}; sleep 5`));
    const queued = sessions.run("s", shell, call("echo never"));
    await vi.waitFor(() => expect(existsSync(started)).toBe(true));
    await sessions.close("s");
    expect((await running).notices).toEqual([
      "Session 's' was closed while this call ran (close_session, a session limit or shutdown); its state is gone.",
    ]);
    await expect(queued).rejects.toThrow("session 's' was closed while this call waited");
  });

  it("says so when the kernel ended between calls", async () => {
    const sessions = manager();
    await sessions.run("s", python, call("import os, threading\nthreading.Timer(0.1, os._exit, [9]).start()"));
    await new Promise((resolve) => setTimeout(resolve, 400));
    const next = await sessions.run("s", python, call("print('again')"));
    expect(next.stdout).toBe("again\n");
    expect(next.notices).toEqual([
      "Fresh session: the previous one ended between calls (the session's python exited with code 9); its state is gone.",
    ]);
  });

  it("stops a kernel that breaks the reply protocol and says so", async () => {
    const sessions = manager({ launcher: hostLauncher(["bash", "-c", "echo 'not a reply' >&4; sleep 30"]) });
    await expect(sessions.run("s", python, call("pass"))).rejects.toThrow(
      /kernel of 'py' was stopped: session kernel sent a malformed reply: "not a reply"/,
    );
  });

  it("refuses new calls once shutting down", async () => {
    const sessions = manager();
    await sessions.closeAll();
    expect(() => sessions.run("s", python, call("pass"))).toThrow("shutting down");
  });
});
