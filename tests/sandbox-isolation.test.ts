// The jail's promises, each by a test that fails when the property breaks, all through the daemon:
// host secrets unreadable, host processes invisible, no network, project access as granted, memory
// and process limits enforced with nothing left behind, timeouts that keep partial output, output
// bounded without the daemon growing, a full /workspace or /dev/shm instead of a full host disk or memory. After each, the
// daemon must still answer.
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer, connect, type Server } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startServer, textOf, type ServerHandle } from "../daemon/test/support/mcp-client.js";
import { harnessMetadata } from "./harness/metadata.js";

interface RunResult {
  stdout: string;
  stderr: string;
  exit_code: number | null;
  duration_ms: number;
  timed_out: boolean;
  truncated: { stdout: number; stderr: number };
  limit_hit?: string;
}

let metadata: string;
let server: ServerHandle;
let parent: string;
let project: string;
const homeSecret = join(homedir(), `.nixshed-test-secret-${process.pid}`);

async function run(env: string, code: string, extra: Record<string, unknown> = {}, on: ServerHandle = server): Promise<RunResult> {
  const result = await on.call("run", { env, code, ...extra });
  if (result.isError) throw new Error(`run failed: ${textOf(result)}`);
  return result.structuredContent as unknown as RunResult;
}

/** keyctl(2) and add_key(2) from Python, for the host and a jail alike (x86_64's numbers, else aarch64's). */
const KEYCTL_PY = [
  "import ctypes, platform, sys",
  "libc = ctypes.CDLL(None, use_errno=True)",
  'KEYCTL, ADD_KEY = (250, 248) if platform.machine() == "x86_64" else (219, 217)',
  "call = lambda nr, *args: libc.syscall(nr, *[ctypes.c_long(a) if isinstance(a, int) else a for a in args])",
  "ctl = lambda op, *args: call(KEYCTL, op, *args)",
  "JOIN, LINK, UNLINK, SEARCH, READ = 1, 8, 9, 10, 11",
  "SESSION_KEYRING, USER_KEYRING = -3, -4",
  "NAME = sys.argv[1].encode()",
].join("\n");

/** Host processes whose command line contains the marker. */
function hostProcessesWith(marker: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      if (cmdline.includes(marker)) found.push(`${pid}: ${cmdline}`);
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** A reader of the resident memory of the newest daemon serving the test metadata, in bytes. */
function newestDaemonRss(): () => number {
  const daemons = hostProcessesWith(`main.js serve --metadata ${metadata}`).map((line) => Number(line.split(":")[0]));
  const pid = Math.max(...daemons);
  return () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;
}

beforeAll(async () => {
  metadata = harnessMetadata({ testEnvironments: true });
  parent = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-isolation-")));
  project = join(parent, "project");
  mkdirSync(project);
  writeFileSync(join(project, "data.txt"), "project data\n");
  writeFileSync(join(parent, "sibling-secret.txt"), "sibling secret\n");
  writeFileSync(homeSecret, "home secret\n");
  server = await startServer({ args: ["--metadata", metadata, "--project", project] });
});

afterAll(async () => {
  await server?.close();
  rmSync(homeSecret, { force: true });
  rmSync(parent, { recursive: true, force: true });
});

afterEach(async () => {
  expect((await run("shell", "echo alive")).stdout).toBe("alive\n");
});

describe("the jail", () => {
  it("cannot read host secrets: /etc/shadow, a file in the user's home, siblings of the project", async () => {
    const paths = ["/etc/shadow", homeSecret, join(parent, "sibling-secret.txt"), "/project/../sibling-secret.txt", "/project/data.txt"];
    const result = await run(
      "python",
      `import json\nfor p in ${JSON.stringify(paths)}:\n    try:\n        print("READ", p, open(p).read().strip())\n    except OSError as e:\n        print("DENIED", p, type(e).__name__)`,
    );
    const lines = result.stdout.trim().split("\n");
    expect(lines.slice(0, 4).every((line) => line.startsWith("DENIED"))).toBe(true);
    expect(lines[4]).toBe("READ /project/data.txt project data");
  });

  it("does not see host processes", async () => {
    const marker = "31337.25";
    const sleeper: ChildProcess = spawn("sleep", [marker], { stdio: "ignore" });
    try {
      for (let i = 0; i < 100 && hostProcessesWith(marker).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(hostProcessesWith(marker)).toHaveLength(1);
      const result = await run("shell", "for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < $f; echo; done");
      expect(result.stdout).not.toContain(marker);
      expect(result.stdout).not.toContain("main.js");
      expect(result.stdout).toContain("/run/nixshed/main.sh");
    } finally {
      sleeper.kill();
    }
  });

  it("has no network: a loopback listener on the host is unreachable", async () => {
    let connections = 0;
    const listener: Server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const port = (listener.address() as { port: number }).port;
    try {
      await new Promise<void>((resolve, reject) => connect(port, "127.0.0.1", resolve).on("error", reject).unref());
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(connections).toBe(1);
      const result = await run(
        "python",
        `import socket\ntry:\n    socket.create_connection(("127.0.0.1", ${port}), timeout=3)\n    print("CONNECTED")\nexcept OSError as e:\n    print("FAILED", type(e).__name__)\nprint(sorted(n for _, n in socket.if_nameindex()))`,
      );
      expect(result.stdout).toBe("FAILED ConnectionRefusedError\n['lo']\n");
      expect(connections).toBe(1);
    } finally {
      listener.close();
    }
  });

  it("gets the project read-only when the environment says ro", async () => {
    const result = await run(
      "python",
      `try:\n    open("/project/new.txt", "w").write("x")\n    print("WROTE")\nexcept OSError as e:\n    print(e.errno, e.strerror)`,
    );
    expect(result.stdout).toBe("30 Read-only file system\n");
    expect(existsSync(join(project, "new.txt"))).toBe(false);
  });

  it("cannot leave a set-user-ID or set-group-ID file in a project it may write: the host would run it as the daemon's user", async () => {
    // The jail's user is the daemon's outside it (root, in a container or CI): such a file is root's to anybody.
    const code = [
      "import os",
      'open("/project/chmodded", "w").write("x")',
      'for name, make in [("chmod", lambda: os.chmod("/project/chmodded", 0o4755)), ("chmod g+s", lambda: os.chmod("/project/chmodded", 0o2755)),',
      '                   ("create", lambda: os.close(os.open("/project/created", os.O_CREAT | os.O_WRONLY, 0o6755)))]:',
      "    try:",
      "        make()",
      '        print(name, "done")',
      "    except OSError as e:",
      "        print(name, e.strerror)",
      'os.chmod("/project/chmodded", 0o755)',
      'print("plain chmod", oct(os.stat("/project/chmodded").st_mode & 0o7777))',
    ].join("\n");
    try {
      const result = await run("tight", code);
      const setId = (name: string) => (existsSync(join(project, name)) ? statSync(join(project, name)).mode & 0o6000 : 0);
      expect([setId("chmodded"), setId("created")], result.stdout).toEqual([0, 0]);
      expect(result.stdout).toBe(
        "chmod Operation not permitted\nchmod g+s Operation not permitted\ncreate Operation not permitted\nplain chmod 0o755\n",
      );
    } finally {
      rmSync(join(project, "chmodded"), { force: true });
      rmSync(join(project, "created"), { force: true });
    }
  });

  it("cannot read or plant keys in the daemon user's kernel keyring, which no user namespace separates", async (context) => {
    // The host keeps a secret the ordinary way (keyctl add user NAME DATA @u); /proc/keys in the jail names that keyring.
    const name = `nixshed-test-${process.pid}`;
    const keyctl = (script: string) =>
      execFileSync("python3", ["-c", `${KEYCTL_PY}\n${script}`, name])
        .toString()
        .trim();
    const added = keyctl('print(call(ADD_KEY, b"user", NAME, b"host secret", 11, USER_KEYRING))');
    if (Number(added) < 0) context.skip("this host gives its own processes no kernel keyrings");
    try {
      const code = [
        KEYCTL_PY.replace("sys.argv[1].encode()", `b${JSON.stringify(name)}`),
        "rings = [int(f[0], 16) for f in map(str.split, open('/proc/keys')) if f[7] == 'keyring' and f[8].startswith('_uid.')]",
        'print("join", ctl(JOIN, b"attack") > 0)',
        "for ring in rings: ctl(LINK, ring, SESSION_KEYRING)",
        "key = ctl(SEARCH, SESSION_KEYRING, b'user', NAME, 0)",
        "buffer = ctypes.create_string_buffer(64)",
        'print("read", buffer.raw[: max(ctl(READ, key, buffer, 64), 0)])',
        'print("planted", call(ADD_KEY, b"user", NAME + b"-planted", b"x", 1, rings[0] if rings else USER_KEYRING) > 0)',
      ].join("\n");
      const result = await run("python", code);
      expect(result.stdout).toBe("join False\nread b''\nplanted False\n");
      expect(keyctl('print(ctl(SEARCH, USER_KEYRING, b"user", NAME + b"-planted", 0) > 0)')).toBe("False");
    } finally {
      keyctl('for name in (NAME, NAME + b"-planted"): ctl(UNLINK, ctl(SEARCH, USER_KEYRING, b"user", name, 0), USER_KEYRING)');
    }
  });

  it("gets the project read-write when the environment says rw, capped by sandbox.project_access", async () => {
    const write = `try:\n    open("/project/from-jail.txt", "w").write("written in the jail")\n    print("WROTE")\nexcept OSError as e:\n    print(e.errno, e.strerror)`;
    expect((await run("tight", write)).stdout).toBe("WROTE\n");
    expect(readFileSync(join(project, "from-jail.txt"), "utf8")).toBe("written in the jail");
    rmSync(join(project, "from-jail.txt"));

    const capped = await startServer({ args: ["--metadata", metadata, "--project", project, "--set", "sandbox.project_access=ro"] });
    try {
      expect((await run("tight", write, {}, capped)).stdout).toBe("30 Read-only file system\n");
      expect(existsSync(join(project, "from-jail.txt"))).toBe(false);
    } finally {
      await capped.close();
    }
  });

  it("stops a memory hog at the limit and says so", async () => {
    const result = await run("tight", `s = "x" * (512 << 20)\nprint("allocated", len(s))`);
    expect(result.stdout).toBe("");
    expect(result.exit_code).toBe(137);
    expect(result.limit_hit).toBe("memory");
    expect(result.stderr).toContain("memory limit reached (128 MiB)");
  });

  it("contains a process bomb and leaves no process behind", async () => {
    const marker = "4242.75";
    const result = await run(
      "tight",
      `import os\nn = 0\ntry:\n    while True:\n        if os.fork() == 0:\n            os.execvp("sleep", ["sleep", "${marker}"])\n        n += 1\nexcept OSError as e:\n    print("contained after", n, e.errno)`,
    );
    expect(result.stdout).toMatch(/^contained after \d+ 11\n$/);
    expect(Number(result.stdout.split(" ")[2])).toBeLessThan(32);
    expect(result.limit_hit).toBe("processes");
    expect(hostProcessesWith(marker)).toEqual([]);
  });

  it("stops an infinite loop at the timeout with its partial output, killing what it started", async () => {
    const marker = "5151.5";
    const result = await run(
      "python",
      `import subprocess\nsubprocess.Popen(["sleep", "${marker}"])\nprint("started", flush=True)\nwhile True:\n    pass`,
      { timeout_seconds: 2 },
    );
    expect(result.timed_out).toBe(true);
    expect(result.stdout).toBe("started\n");
    expect(result.duration_ms).toBeGreaterThanOrEqual(2000);
    expect(result.duration_ms).toBeLessThan(5000);
    expect(hostProcessesWith(marker)).toEqual([]);
  });

  it("truncates 200 MB of output, keeping head and tail, without the daemon's memory growing with it", async () => {
    // A small cap, so that what the results themselves cost (garbage until V8 collects it) stays
    // far below what buffering the output, or reading it into fresh buffers, would.
    const capped = await startServer({ args: ["--metadata", metadata, "--project", project, "--set", "sandbox.max_output_bytes=65536"] });
    const rss = newestDaemonRss();
    try {
      const code = "echo HEAD; head -c 200000000 /dev/zero | tr '\\0' x; echo; echo TAIL";
      await run("shell", "echo warm", {}, capped);
      const before = rss();
      let result!: RunResult;
      for (let i = 0; i < 3; i++) result = await run("shell", code, { timeout_seconds: 120 }, capped);
      const growth = rss() - before;
      expect(result.exit_code).toBe(0);
      expect(result.truncated.stdout).toBe(200_000_011 - 65_536);
      // What is kept whole goes to a file, up to its own cap (responses.test.ts reads it back).
      expect(result.stdout).toMatch(/^\[199934475 bytes dropped from the middle; its first 67108864 bytes are in \S+ \(.*\)\]\nHEAD\n/);
      expect(result.stdout.endsWith("xxx\nTAIL\n")).toBe(true);
      // Buffering would be 200 MB (the file kept whole 64 MiB); fitting three answers to the budget
      // leaves garbage that can grow V8's young generation by a few MB (measured 5-11 MB) until collected.
      expect(growth).toBeLessThan(16 * 1024 * 1024);
    } finally {
      await capped.close();
    }
  }, 120_000);

  /** Where bin/run started by this process puts the cgroup of `controller` for the run of `pid`. */
  const cgroupOf = (controller: string, pid: number) => {
    const own = readFileSync("/proc/self/cgroup", "utf8");
    const path = new RegExp(`^\\d+:[^:]*\\b${controller}\\b[^:]*:(.*)$`, "m").exec(own)![1]!.replace(/\/$/, "");
    return `/sys/fs/cgroup/${controller}${path}/nixshed-${pid}`;
  };

  it("removes its cgroups after each run, and those of a bin/run that was SIGKILLed on the next run", async () => {
    const tight = JSON.parse(readFileSync(join(metadata, "environments.json"), "utf8")).environments.tight.artifact;
    const marker = `6161.${process.pid}`;
    const sleeping = () => hostProcessesWith(marker).filter((line) => line.includes(`: sleep ${marker}`));
    const victim = spawn(`${tight}/bin/run`, ["--", "sleep", marker], { stdio: "ignore" });
    const cgroups = ["memory", "pids"].map((controller) => cgroupOf(controller, victim.pid!));
    for (let i = 0; i < 100 && sleeping().length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(cgroups.every((dir) => existsSync(dir))).toBe(true);
    victim.kill("SIGKILL");
    await new Promise((resolve) => victim.once("exit", resolve));
    for (let i = 0; i < 100 && sleeping().length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sleeping()).toEqual([]);
    expect(cgroups.every((dir) => existsSync(dir))).toBe(true);

    const next = spawn(`${tight}/bin/run`, ["--", "true"], { stdio: "ignore" });
    await new Promise((resolve) => next.once("exit", resolve));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(cgroups.filter((dir) => existsSync(dir))).toEqual([]);
    expect(["memory", "pids"].filter((controller) => existsSync(cgroupOf(controller, next.pid!)))).toEqual([]);
  });

  // A finished run's cleanup goes on in the background, so the next run's sweep can find a stale
  // cgroup that is gone by the time it reads its cgroup.procs; the failed read's message reached
  // the jail's stderr. A tmpfs over a stale cgroup, in a mount namespace of the run's own, holds
  // that moment still: the directory is there, its cgroup.procs is not.
  it("says nothing on the jail's stderr of a stale cgroup that vanishes while the next run sweeps it", () => {
    const tight = JSON.parse(readFileSync(join(metadata, "environments.json"), "utf8")).environments.tight.artifact;
    const deadPid = Number(readFileSync("/proc/sys/kernel/pid_max", "utf8")) + 1;
    const stale = cgroupOf("pids", deadPid);
    mkdirSync(stale);
    try {
      const script = 'mount -t tmpfs vanished "$1" && exec "$2/bin/run" -- echo ran';
      const result = spawnSync("unshare", ["--mount", "--propagation", "private", "sh", "-c", script, "sh", stale, tight]);
      expect({ stdout: result.stdout.toString(), stderr: result.stderr.toString() }).toEqual({ stdout: "ran\n", stderr: "" });
    } finally {
      rmdirSync(stale);
    }
  });

  it("falls back to rlimits where cgroups are not writable (an unprivileged user)", () => {
    const tight = JSON.parse(readFileSync(join(metadata, "environments.json"), "utf8")).environments.tight.artifact;
    const code = `import resource\nprint(resource.getrlimit(resource.RLIMIT_NPROC)[0])\ntry:\n    s = "x" * (512 << 20)\n    print("allocated")\nexcept MemoryError:\n    print("MemoryError")`;
    const output = execFileSync("setpriv", ["--reuid", "65534", "--regid", "65534", "--clear-groups", `${tight}/bin/run`], {
      input: code,
      env: { PATH: "/usr/bin:/bin" },
    }).toString();
    expect(output).toBe("32\nMemoryError\n");
  });

  // /dev and /dev/shm were bwrap's tmpfs of half the host's memory, which only a cgroup counted against the jail.
  it.each(["/workspace", "/dev/shm", "/dev"])(
    "fills %s to its size (ENOSPC), or may not write it (EROFS), not the host's memory or disk",
    async (dir) => {
      const result = await run(
        "tight",
        `written = 0\ntry:\n    with open("${dir}/fill", "wb") as f:\n        while True:\n            f.write(b"x" * (1 << 20)); f.flush(); written += 1\nexcept OSError as e:\n    print(e.errno, written)`,
      );
      const [errno, megabytes] = result.stdout.trim().split(" ").map(Number);
      expect(errno).toBe(dir === "/dev" ? 30 : 28);
      expect(megabytes).toBeLessThanOrEqual(16);
    },
  );
});
