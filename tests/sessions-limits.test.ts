// Session limits end to end (harness jail, built daemon over MCP): the least recently used idle
// session makes room, a full set of busy sessions refuses a new one, idle and over-age sessions are
// reaped within seconds, and no process outlives its session or the daemon.
import { mkdtempSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startServer, textOf, type ServerHandle } from "../daemon/test/support/mcp-client.js";
import { harnessMetadata } from "./harness/metadata.js";
import { sessionRun } from "./sessions-client.js";

const servers: ServerHandle[] = [];

/** A server of its own project, so that its jails can be told apart from other tests' (see jailProcesses). */
async function serve(sessions: Record<string, number> = {}, metadata = harnessMetadata()) {
  const project = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-limits-")));
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(sessions)) env[`NIXSHED_SANDBOX__SESSIONS__${key.toUpperCase()}`] = String(value);
  // --project first: tests/sandbox-isolation.test.ts finds its own daemon by "serve --metadata …".
  const server = await startServer({ args: ["--project", project, "--metadata", metadata], env });
  servers.push(server);
  return { server, project, run: sessionRun(server) };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const read = (path: string) => {
  try {
    return readFileSync(path, "latin1");
  } catch {
    return "";
  }
};

/**
 * Every host process of the project's jails: the ones that carry the project in their environment
 * (bin/session-run, bwrap) and all their descendants (the kernels and what they started).
 */
function jailProcesses(project: string): number[] {
  const parent = new Map<number, number>();
  const found = new Set<number>();
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const stat = read(`/proc/${pid}/stat`);
    parent.set(pid, Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    if (read(`/proc/${pid}/environ`).includes(`NIXSHED_JAIL_PROJECT_DIR=${project}\0`)) found.add(pid);
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parent) {
      if (found.has(ppid) && !found.has(pid)) {
        found.add(pid);
        grew = true;
      }
    }
  }
  return [...found];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` until it holds or `ms` pass: a deadline for a loaded machine, not a wait (a passing run returns at once). */
async function until(condition: () => boolean, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(50)) if (condition()) return true;
  return condition();
}

const listed = async (server: ServerHandle) =>
  ((await server.call("list_sessions")).structuredContent as { sessions: { id: string }[] }).sessions.map((s) => s.id).sort();

describe("session limits", () => {
  it("close the least recently used idle session to make room, and say so in the call that made it and in its next call", async () => {
    const { server, run } = await serve({ max_sessions: 2 });
    await run({ env: "python", session: "a", code: "a = 1" });
    await run({ env: "python", session: "b", code: "b = 1" });
    await run({ env: "python", session: "a", code: "pass" });
    const making = await run({ env: "shell", session: "c", code: "true" });
    expect(making.notices.join(" ")).toContain("Closed session 'b', the least recently used, to make room (at most 2 sessions).");
    expect(await listed(server)).toEqual(["a", "c"]);
    expect(textOf(await server.call("close_session", { session: "b" }))).toMatch(
      /^no session 'b': it was closed to make room for session 'c'/,
    );
    const again = await run({ env: "python", session: "b", code: "print('b' in globals())" });
    expect(again.stdout).toBe("False\n");
    expect(again.notices.join(" ")).toMatch(
      /'b' was closed to make room for session 'c' \(at most 2 sessions; it was the least recently used\)/,
    );
  });

  it("refuse a new session when every session is busy", async () => {
    const { server, run } = await serve({ max_sessions: 2 });
    const busy = [run({ env: "shell", session: "x", code: "sleep 2" }), run({ env: "shell", session: "y", code: "sleep 2" })];
    await sleep(500);
    const refused = await server.call("run", { env: "shell", session: "z", code: "true" });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("all 2 sessions are busy");
    await Promise.all(busy);
  });

  it("reap idle sessions within seconds of their timeout, killing their jails", async () => {
    const { server, project, run } = await serve({ idle_timeout_seconds: 1 });
    await run({ env: "python", session: "idle", code: "v = 1" });
    expect(jailProcesses(project).length).toBeGreaterThan(0);
    expect(await until(() => jailProcesses(project).length === 0, 4000)).toBe(true);
    expect(await listed(server)).toEqual([]);
    const next = await run({ env: "python", session: "idle", code: "print('v' in globals())" });
    expect(next.stdout).toBe("False\n");
    expect(next.notices.join(" ")).toMatch(/closed after 1 s without calls/);
  });

  it("close a session at the end of its maximum lifetime even while it is used", async () => {
    const { run } = await serve({ max_lifetime_seconds: 2 });
    await run({ env: "shell", session: "old", code: "v=1" });
    let notice = "";
    for (const deadline = Date.now() + 6000; !notice && Date.now() < deadline; await sleep(200)) {
      notice = (await run({ env: "shell", session: "old", code: "true" })).notices.join(" ");
    }
    expect(notice).toMatch(/end of its maximum lifetime of 2 s/);
  });
});

describe("jail limits in a session", () => {
  it("report a kernel the memory limit stopped, then start fresh", async () => {
    const { server } = await serve({}, harnessMetadata({ testEnvironments: true }));
    await server.call("run", { env: "tight", session: "hog", code: "kept = 1" });
    const hog = await server.call("run", {
      env: "tight",
      session: "hog",
      code: "b = bytearray(400 * 1024 * 1024)\nb[::4096] = b'x' * len(b[::4096])",
    });
    expect(hog.structuredContent).toMatchObject({ limit_hit: "memory", timed_out: false });
    expect(textOf(hog)).toMatch(/python was stopped by the jail's memory limit/);
    const next = await server.call("run", { env: "tight", session: "hog", code: "print('kept' in globals())" });
    expect(next.structuredContent).toMatchObject({ stdout: "False\n", exit_code: 0 });
  });
});

describe("no process left behind", () => {
  it("after 200 session create/close cycles", async () => {
    const { server, project, run } = await serve();
    for (let i = 0; i < 200; i++) {
      const env = ["shell", "python", "node"][i % 3]!;
      await run({ env, session: `s${i}`, code: env === "python" ? "pass" : env === "node" ? "0" : ":" });
      if (i === 0) expect(jailProcesses(project).length).toBeGreaterThan(0);
      expect((await server.call("close_session", { session: `s${i}` })).isError).toBeFalsy();
    }
    expect(await until(() => jailProcesses(project).length === 0, 3000)).toBe(true);
  }, 300_000);

  it("when the client goes away", async () => {
    const { server, project, run } = await serve();
    await Promise.all(["python", "node", "shell"].map((env) => run({ env, session: env, code: env === "shell" ? "sleep 300 &" : "0" })));
    expect(jailProcesses(project).length).toBeGreaterThanOrEqual(3);
    await server.close();
    expect(await until(() => jailProcesses(project).length === 0, 15_000)).toBe(true);
  });

  it.each(["SIGTERM", "SIGINT", "SIGHUP"] as const)("when the daemon gets %s", async (signal) => {
    const { project, run } = await serve();
    await run({ env: "python", session: "p", code: "import subprocess; subprocess.Popen(['sleep', '300'])" });
    await run({ env: "shell", session: "s", code: "sleep 300 &" });
    const daemon = daemonOf(project);
    process.kill(daemon, signal);
    // 5 s once ran out under a full parallel test run: a deadline, not the expected time.
    expect(await until(() => jailProcesses(project).length === 0, 15_000)).toBe(true);
  });
});

/** The daemon serving the project (its command line names the project). */
/**
 * The daemon serving `project`: the process started with `--project <project>`. Not the first whose arguments name
 * the project: a jail's bwrap binds it too, and once pids wrap around (32768 here, soon reached in a full test run)
 * a jail can sit below its daemon in /proc, and the signal went to the jail instead.
 */
function daemonOf(project: string): number {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const args = read(`/proc/${entry}/cmdline`).split("\0");
    const at = args.indexOf("--project");
    if (at >= 0 && args[at + 1] === project) return Number(entry);
  }
  throw new Error(`no daemon serving ${project}`);
}
