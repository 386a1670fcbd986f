// Persistent sessions end to end: harness-built presets, their bin/session-run in the real bwrap
// jail, the agent/ kernels, the built daemon over MCP.
import { existsSync, mkdtempSync, realpathSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, textOf, type ServerHandle } from "../daemon/test/support/mcp-client.js";
import { harnessMetadata } from "./harness/metadata.js";
import { sessionRun, type SessionRunResult } from "./sessions-client.js";
import { waitFor } from "./support/wait-for.js";

let server: ServerHandle;
let project: string;
let run: (args: Record<string, unknown>) => Promise<SessionRunResult>;

beforeAll(async () => {
  project = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-sessions-")));
  server = await startServer({ args: ["--project", project, "--metadata", harnessMetadata({ testEnvironments: true })] });
  run = sessionRun(server);
});

afterAll(async () => {
  await server?.close();
});

describe("python sessions", () => {
  it("see the environment's packages, keep one __main__ namespace; SystemExit gives its code, an exception a traceback and 1", async () => {
    expect(
      (await run({ env: "python", session: "py", code: "import math, yaml, requests\nx = 41\ndef f(): return x + 1" })).exit_code,
    ).toBe(0);
    expect(await run({ env: "python", session: "py", code: "print(f(), math.pi > 3, __name__)" })).toMatchObject({
      stdout: "42 True __main__\n",
      exit_code: 0,
    });
    expect((await run({ env: "python", session: "py", code: "import sys; sys.exit(7)" })).exit_code).toBe(7);
    const failed = await run({ env: "python", session: "py", code: "print('before')\n1 / 0" });
    expect(failed).toMatchObject({ stdout: "before\n", exit_code: 1 });
    expect(failed.stderr).toMatch(/^Traceback[\s\S]*File "<session>", line 2[\s\S]*ZeroDivisionError/);
    expect(failed.stderr).not.toContain("kernel.py");
    expect((await run({ env: "python", session: "py", code: "print(x)" })).stdout).toBe("41\n");
  });

  it("run top-level await, and interrupt an endless one without resuming it later", async () => {
    await run({
      env: "python",
      session: "py-async",
      code: "import asyncio\nasync def later(v):\n    await asyncio.sleep(0.01)\n    return v",
    });
    expect((await run({ env: "python", session: "py-async", code: "print(await later(5))" })).stdout).toBe("5\n");
    const code = "async def tick():\n    while True:\n        print('tick', flush=True)\n        await asyncio.sleep(0.2)\nawait tick()";
    expect((await run({ env: "python", session: "py-async", code, timeout_seconds: 1 })).notices.join(" ")).toMatch(/kept its state/);
    expect((await run({ env: "python", session: "py-async", code: "print(await later('no tick before me'))" })).stdout).toBe(
      "no tick before me\n",
    );
  });

  it("give child-process and raw fd output to the call, and no protocol descriptor to anyone", async () => {
    const result = await run({
      env: "python",
      session: "py-fds",
      code: [
        "import os, subprocess",
        "os.system('echo from-system; echo system-err >&2')",
        "os.write(1, b'raw-out\\n'); os.write(2, b'raw-err\\n')",
        "subprocess.run(['bash', '-c', 'echo child >&2; echo x >&3 || echo no-fd3; echo x >&4 || echo no-fd4'], stderr=subprocess.DEVNULL)",
        "for fd in (3, 4):",
        "    try: os.write(fd, b'x')",
        "    except OSError as e: print('in-process', fd, e.strerror)",
      ].join("\n"),
    });
    expect(result.stdout).toBe(
      "from-system\nraw-out\nno-fd3\nno-fd4\nin-process 3 Bad file descriptor\nin-process 4 Bad file descriptor\n",
    );
    expect(result.stderr).toBe("system-err\nraw-err\n");
    expect((await run({ env: "python", session: "py-fds", code: "print('still fine')" })).stdout).toBe("still fine\n");
    const forked = await run({
      env: "python",
      session: "py-fds",
      code: "import os\npid = os.fork()\nprint('parent' if pid else 'child')\nif pid: os.waitpid(pid, 0)",
    });
    expect(forked.stdout.split("\n").sort()).toEqual(["", "child", "parent"]);
    const kernels =
      "import os\nprint(sum(open(f'/proc/{p}/comm').read().startswith('python') for p in os.listdir('/proc') if p.isdigit()))";
    expect(await run({ env: "python", session: "py-fds", code: kernels })).toMatchObject({ stdout: "1\n", notices: [] });
  });

  it("read EOF from stdin, or the call's stdin", async () => {
    const code = "import os, sys\nprint(repr(sys.stdin.read()))\n_ = os.system('cat; echo cat-done')";
    expect((await run({ env: "python", session: "py-in", code })).stdout).toBe("''\ncat-done\n");
    expect(
      (await run({ env: "python", session: "py-in", code: "import sys; print(sys.stdin.read().upper())", stdin: "hello" })).stdout,
    ).toBe("HELLO\n");
    expect((await run({ env: "python", session: "py-in", code: "import os; _ = os.system('cat')", stdin: "to the child\n" })).stdout).toBe(
      "to the child\n",
    );
    expect((await run({ env: "python", session: "py-in", code })).stdout).toBe("''\ncat-done\n");
  });

  it("interrupt a call at its timeout and keep the state, saying so", async () => {
    await run({ env: "python", session: "py-int", code: "kept = 'yes'" });
    const slow = await run({
      env: "python",
      session: "py-int",
      code: "import time\nprint('started', flush=True)\ntime.sleep(60)",
      timeout_seconds: 1,
    });
    expect(slow).toMatchObject({ stdout: "started\n", timed_out: true, exit_code: 130 });
    expect(slow.stderr).toContain("KeyboardInterrupt");
    expect(slow.notices.join(" ")).toMatch(/kept its state/);
    expect(await run({ env: "python", session: "py-int", code: "print(kept)" })).toMatchObject({ stdout: "yes\n", notices: [] });
  });

  it("kill code that ignores SIGINT and restart with a notice, never giving a stale reply", async () => {
    await run({ env: "python", session: "py-kill", code: "lost = 1" });
    const stubborn = "import time\nwhile True:\n    try: time.sleep(0.05)\n    except KeyboardInterrupt: print('ignored', flush=True)";
    const killed = await run({ env: "python", session: "py-kill", code: stubborn, timeout_seconds: 1 });
    expect(killed.timed_out).toBe(true);
    expect(killed.stdout).toContain("ignored\n");
    expect(killed.notices.join(" ")).toMatch(/was killed.*state is lost; the next call starts a fresh session/);
    const fresh = await run({ env: "python", session: "py-kill", code: "print('fresh', 'lost' in globals())" });
    expect(fresh).toMatchObject({ stdout: "fresh False\n", stderr: "", exit_code: 0 });
    expect(fresh.notices.join(" ")).toMatch(/^Fresh session: the previous one ended/);
  });

  it("show a final expression's value as the REPL does: its repr, nothing for None or a statement", async () => {
    const show = async (code: string) => (await run({ session: "py-repl", code })).stdout;
    expect((await run({ env: "python", session: "py-repl", code: "x = 21" })).stdout).toBe("");
    expect(await show("x * 2")).toBe("42\n");
    expect(await show("print('printed')\n'a' + 'b'")).toBe("printed\n'ab'\n");
    expect(await show("None")).toBe("");
    expect(await show("print('once')")).toBe("once\n");
    expect(await show("for i in range(2): i")).toBe("");
    expect(await show("import asyncio\nawait asyncio.sleep(0, result=[1, 2])")).toBe("[1, 2]\n");
    const failed = await run({ session: "py-repl", code: "y = 1\nx / 0" });
    expect(failed).toMatchObject({ stdout: "", exit_code: 1 });
    expect(failed.stderr).toMatch(/File "<session>", line 2[\s\S]*ZeroDivisionError/);
    expect(await show("y")).toBe("1\n");
  });

  it("say which output came from earlier code still running after its call ended, not from this call", async () => {
    // A thread writes to stderr between the calls, then tells the test so through the project (tight's is read-write).
    const code = [
      "import sys, threading",
      "def late():",
      "    sys.stderr.write('late\\n'); sys.stderr.flush()",
      "    open('/project/late-written', 'w').close()",
      "threading.Timer(0.05, late).start()",
    ].join("\n");
    expect((await run({ env: "tight", session: "py-late", code })).notices).toEqual([]);
    expect(await waitFor(() => existsSync(join(project, "late-written")), 10_000)).toBe(true);
    const next = await run({ session: "py-late", code: "1 + 1" });
    expect(next).toMatchObject({ stdout: "2\n", stderr: "late\n", exit_code: 0 });
    expect(next.notices).toEqual([
      "The first 5 bytes of stderr came between calls, from code still running after its call ended (a timer, a callback or a background job).",
    ]);
    expect((await run({ session: "py-late", code: "2 + 2" })).notices).toEqual([]);
  });

  it("stop a kernel whose code writes to the hidden reply descriptor: no flood reaches the daemon's memory", async () => {
    // The kernel's reply descriptor is hidden at fd 201 in its own process (kernel.py: requests 200, replies 201), which the code shares.
    const flood = "import os\nfor _ in range(64): os.write(201, b'A' * 65536)\nprint('all written')";
    const stopped = await run({ env: "python", session: "py-flood", code: flood, timeout_seconds: 60 });
    // Stopped at its first bytes, not read to the end (the daemon held all 4 MiB, as it would have held 4 GiB).
    expect(stopped.stdout).not.toContain("all written");
    expect(stopped.notices.join(" ")).toMatch(/was stopped: session kernel sent a malformed reply: "AAAA/);
    // Replies out of turn, each a well-formed line, are refused as well.
    const refused = await run({
      env: "python",
      session: "py-flood",
      code: "import os\nos.write(201, b'ready 1\\n' * 1000)",
      timeout_seconds: 60,
    });
    expect(refused.notices.join(" ")).toMatch(/was stopped: session kernel sent a reply out of turn: ready/);
  });

  it("run a command line calling python3 by bash, in the session's directory, its exit code the call's, the state kept", async () => {
    await run({
      env: "python",
      session: "py-line",
      code: "import os\nx = 41\nos.makedirs('/workspace/sub', exist_ok=True)\nos.chdir('/workspace/sub')",
    });
    expect(await run({ env: "python", session: "py-line", code: "python3 -c 'import os; print(os.getcwd())'" })).toMatchObject({
      stdout: "/workspace/sub\n",
      exit_code: 0,
    });
    expect((await run({ env: "python", session: "py-line", code: "python3 -c 'import sys; sys.exit(3)'" })).exit_code).toBe(3);
    // A subprocess.py where a fresh session imports from (a project's own) has no say in how the line runs.
    const forged = "def run(*args, **kwargs):\n    class Done:\n        returncode = 0\n    return Done()\n";
    const plant = `import os\nos.chdir('/workspace')\nopen('subprocess.py', 'w').write(${JSON.stringify(forged)})`;
    await run({ env: "python", session: "py-shadowed", code: plant });
    expect((await run({ session: "py-shadowed", code: "python3 -c 'import sys; sys.exit(3)'" })).exit_code).toBe(3);
    await server.call("close_session", { session: "py-shadowed" });
    // An interrupted line ends with the call: what it would print later lands in no later call.
    const stubborn = "python3 -c 'import signal, time; signal.signal(signal.SIGINT, signal.SIG_IGN); time.sleep(2); print(\"late\")'";
    expect((await run({ env: "python", session: "py-line", code: stubborn, timeout_seconds: 1 })).timed_out).toBe(true);
    expect((await run({ session: "py-line", code: "import time\ntime.sleep(3)\nprint('next')" })).stdout).toBe("next\n");
    expect((await run({ env: "python", session: "py-line", code: "x + 1" })).stdout).toBe("42\n");
  });

  it("report a crashed interpreter, then start fresh with a notice", async () => {
    await run({ env: "python", session: "py-crash", code: "y = 1" });
    const crashed = await run({ env: "python", session: "py-crash", code: "import os\nprint('bye', flush=True)\nos._exit(3)" });
    expect(crashed).toMatchObject({ stdout: "bye\n", exit_code: 3, timed_out: false });
    expect(crashed.notices.join(" ")).toMatch(/python exited with code 3/);
    const fresh = await run({ env: "python", session: "py-crash", code: "print('y' in globals())" });
    expect(fresh.stdout).toBe("False\n");
    expect(fresh.notices.join(" ")).toMatch(/Fresh session/);
  });
});

describe("node sessions", () => {
  it("keep let/const/functions, run top-level await, give 1 for an uncaught error", async () => {
    await run({ env: "node", session: "js", code: "let n = 1; const k = 2; function twice(v) { return 2 * v }" });
    expect(
      (await run({ env: "node", session: "js", code: "n += 1; const v = await Promise.resolve(twice(k)); console.log(n, v)" })).stdout,
    ).toBe("2 4\n");
    expect((await run({ env: "node", session: "js", code: "console.log(v + n)" })).stdout).toBe("6\n");
    const thrown = await run({ env: "node", session: "js", code: "throw new TypeError('bad')" });
    expect(thrown.exit_code).toBe(1);
    expect(thrown.stderr).toMatch(/TypeError: bad/);
    expect((await run({ env: "node", session: "js", code: "await Promise.reject(new Error('async bad'))" })).exit_code).toBe(1);
    expect((await run({ env: "node", session: "js", code: "console.log(n)" })).stdout).toBe("2\n");
  });

  it("report a promise the code left rejected in its own call, not the next", async () => {
    const rejected = await run({ env: "node", session: "js-rejects", code: "Promise.reject(new Error('rej')); 'after'" });
    expect(rejected.stderr).toMatch(/Uncaught Error: rej/);
    expect(await run({ session: "js-rejects", code: "1 + 1" })).toMatchObject({ stdout: "2\n", stderr: "", exit_code: 0 });
    // As a final value, the promise shows its error and the user's frames, not node's or the kernel's.
    const shown = await run({ session: "js-rejects", code: "Promise.reject(new Error('boom'))" });
    expect(shown.stdout).toMatch(/^Promise \{\n {2}<rejected> Error: boom\n/);
    expect(shown.stdout).not.toMatch(/kernel\.mjs|node:internal|async_id_symbol/);
  });

  it("take import declarations as they take require: a module's bindings stay for later calls", async () => {
    const imports = [
      "import fs from 'fs';",
      "import * as path from 'node:path'",
      "import { join as j, sep } from 'node:path';",
      "import 'node:os'",
    ];
    expect(
      await run({ env: "node", session: "js-imports", code: `${imports.join("\n")}\nconsole.log(typeof fs.readFileSync)` }),
    ).toMatchObject({
      stdout: "function\n",
      exit_code: 0,
    });
    expect((await run({ session: "js-imports", code: "console.log(path.basename(j('a', 'b.txt')), sep)" })).stdout).toBe("b.txt /\n");
    expect((await run({ session: "js-imports", code: "const os = require('os'); typeof os.cpus" })).stdout).toBe("'function'\n");
  });

  it("run a command line calling node by bash, its exit code the call's", async () => {
    expect(await run({ env: "node", session: "js-line", code: "node -e 'console.log(6 * 7)'" })).toMatchObject({
      stdout: "42\n",
      exit_code: 0,
    });
    const failed = await run({ env: "node", session: "js-line", code: "node -e 'process.exit(4)'" });
    expect(failed).toMatchObject({ exit_code: 4, stderr: "" });
    // Killed by a signal, it ends as a shell says: 128 + the signal's number.
    expect((await run({ session: "js-line", code: "node -e 'process.kill(process.pid, \"SIGKILL\")'" })).exit_code).toBe(137);
    expect(await run({ session: "js-line", code: "process.exitCode = 3; 'set'" })).toMatchObject({ stdout: "'set'\n", exit_code: 3 });
    expect(await run({ session: "js-line", code: "1 + 1" })).toMatchObject({ stdout: "2\n", exit_code: 0 });
  });

  it("show a final expression's value as the REPL does, nothing for undefined", async () => {
    const show = async (code: string) => (await run({ session: "js-repl", code })).stdout;
    expect((await run({ env: "node", session: "js-repl", code: "const x = 21" })).stdout).toBe("");
    expect(await show("x * 2")).toBe("42\n");
    expect(await show("console.log('printed'); ({ a: [1, 'b'] })")).toBe("printed\n{ a: [ 1, 'b' ] }\n");
    expect(await show("undefined")).toBe("");
    expect(await show("console.log('once')")).toBe("once\n");
    expect(await show("function f() { return 1 }")).toBe("");
    expect(await show("await Promise.resolve('awaited')")).toBe("'awaited'\n");
  });

  it("give execSync output with inherited stdio to the call; stdin is EOF or the call's", async () => {
    const code =
      "const cp = require('child_process'); cp.execSync('echo child; echo child-err >&2; cat; echo x >&4 || echo no-fd4', { stdio: 'inherit' }); console.log(JSON.stringify(require('fs').readFileSync(0, 'utf8')))";
    expect(await run({ env: "node", session: "js-io", code })).toMatchObject({ stdout: 'child\nno-fd4\n""\n', exit_code: 0 });
    const withStdin = await run({
      env: "node",
      session: "js-io",
      code: "console.log(require('fs').readFileSync(0, 'utf8').toUpperCase())",
      stdin: "abc",
    });
    expect(withStdin.stdout).toBe("ABC\n");
  });

  it("interrupt a synchronous loop and an endless await, keeping the state", async () => {
    await run({ env: "node", session: "js-int", code: "const kept = 'yes'" });
    const loop = await run({ env: "node", session: "js-int", code: "for (;;) {}", timeout_seconds: 1 });
    expect(loop).toMatchObject({ timed_out: true, exit_code: 130 });
    const waiting = await run({ env: "node", session: "js-int", code: "await new Promise(() => {})", timeout_seconds: 1 });
    expect(waiting).toMatchObject({ timed_out: true, exit_code: 130 });
    expect(waiting.notices.join(" ")).toMatch(/kept its state/);
    expect((await run({ env: "node", session: "js-int", code: "console.log(kept)" })).stdout).toBe("yes\n");
  });

  it("report process.exit as a crash", async () => {
    const crashed = await run({ env: "node", session: "js-crash", code: "process.exit(5)" });
    expect(crashed.exit_code).toBe(5);
    expect(crashed.notices.join(" ")).toMatch(/node exited with code 5/);
  });
});

describe("bash sessions", () => {
  it("keep exported variables, functions and the cwd; $? is the exit code", async () => {
    await run({
      env: "shell",
      session: "sh",
      code: 'export GREETING=hi; count=3; greet() { echo "$GREETING $1"; }; mkdir -p /workspace/d && cd /workspace/d',
    });
    expect(
      (await run({ env: "shell", session: "sh", code: "greet you; pwd; bash -c 'echo child sees $GREETING'; echo $count" })).stdout,
    ).toBe("hi you\n/workspace/d\nchild sees hi\n3\n");
    expect((await run({ env: "shell", session: "sh", code: "false" })).exit_code).toBe(1);
    expect(await run({ env: "shell", session: "sh", code: 'echo "previous: $?"; (exit 9)' })).toMatchObject({
      stdout: "previous: 1\n",
      exit_code: 9,
    });
  });

  it("name the code's own lines in bash's errors, not the kernel's; noclobber set by the code changes nothing", async () => {
    const failed = await run({ env: "shell", session: "lines", code: "echo a\nnosuchcommand" });
    expect(failed.stderr).toMatch(/line 2: nosuchcommand: command not found/);
    expect(failed.stderr).not.toMatch(/kernel/);
    const syntax = await run({ env: "shell", session: "lines", code: "true\nbar(" });
    expect(syntax.stderr).toMatch(/line 2: syntax error/);
    expect(syntax.stderr).not.toMatch(/kernel/);
    await run({ env: "shell", session: "lines", code: "set -o noclobber" });
    expect(await run({ env: "shell", session: "lines", code: "echo still", stdin: "in" })).toMatchObject({
      stdout: "still\n",
      exit_code: 0,
    });
  });

  it("give background jobs' output to the call; stdin is EOF or the call's", async () => {
    const jobs = await run({
      env: "shell",
      session: "sh-io",
      code: "{ echo job-out; echo job-err >&2; } & { sleep 0.1; echo slow-job; } & wait; cat; echo x >&4 || echo no-fd4",
    });
    expect(jobs.stdout).toBe("job-out\nslow-job\nno-fd4\n");
    expect(jobs.stderr).toMatch(/^job-err\n.*Bad file descriptor/);
    expect((await run({ env: "shell", session: "sh-io", code: "tr a-z A-Z", stdin: "shout\n" })).stdout).toBe("SHOUT\n");
    expect((await run({ env: "shell", session: "sh-io", code: "cat; echo done" })).stdout).toBe("done\n");
  });

  it("give a background job's output written after its call ended to the next call, never to the protocol", async () => {
    expect((await run({ env: "shell", session: "sh-late", code: "{ sleep 0.3; echo late; } & echo now" })).stdout).toBe("now\n");
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await run({ env: "shell", session: "sh-late", code: "echo next" })).toMatchObject({ stdout: "late\nnext\n", exit_code: 0 });
  });

  it("refuse stdin with NUL bytes, which the bash kernel cannot take", async () => {
    const result = await server.call("run", { env: "shell", session: "sh-nul", code: "cat", stdin: "a\u0000b" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("stdin contains a NUL byte");
  });

  it("interrupt a builtin loop at the timeout, keeping the state; report `exit` as a crash", async () => {
    await run({ env: "shell", session: "sh-int", code: "kept=yes" });
    expect(await run({ env: "shell", session: "sh-int", code: "while :; do :; done", timeout_seconds: 1 })).toMatchObject({
      timed_out: true,
      exit_code: 130,
    });
    expect((await run({ env: "shell", session: "sh-int", code: "sleep 60", timeout_seconds: 1 })).timed_out).toBe(true);
    expect((await run({ env: "shell", session: "sh-int", code: "echo $kept" })).stdout).toBe("yes\n");
    const exited = await run({ env: "shell", session: "sh-int", code: "exit 4" });
    expect(exited.exit_code).toBe(4);
    expect(exited.notices.join(" ")).toMatch(/bash exited with code 4/);
    expect((await run({ env: "shell", session: "sh-int", code: 'echo "[$kept]"' })).stdout).toBe("[]\n");
  });
});

// Each kernel keeps reading both streams while a call writes megabytes to them (its own writes and
// a child's), keeps head and tail within the cap, and serves the next call afterwards.
describe("megabytes of output", () => {
  const cases = [
    {
      env: "python",
      code: [
        "import os, sys",
        "for i in range(40):",
        "    os.write(1, b'o' * 100_000); sys.stderr.write('e' * 100_000)",
        'os.system(\'head -c 2000000 /dev/zero | tr "\\\\0" o; head -c 2000000 /dev/zero | tr "\\\\0" e >&2\')',
        "print('end')",
      ].join("\n"),
      written: { stdout: 6_000_004, stderr: 6_000_000 },
      ending: "ooooend\n",
      next: "print('next')",
    },
    {
      env: "node",
      code: "for (let i = 0; i < 50; i++) { process.stdout.write('o'.repeat(100_000)); process.stderr.write('e'.repeat(100_000)) }\nrequire('child_process').execSync('head -c 1000000 /dev/zero >&2', { stdio: 'inherit' }); console.log('end')",
      written: { stdout: 5_000_004, stderr: 6_000_000 },
      ending: "ooend\n",
      next: "console.log('next')",
    },
    {
      env: "shell",
      code: "for i in 1 2 3 4 5; do head -c 1000000 /dev/zero | tr '\\0' o; head -c 1000000 /dev/zero | tr '\\0' e >&2; done; echo end",
      written: { stdout: 5_000_004, stderr: 5_000_000 },
      ending: "ooend\n",
      next: "echo next",
    },
  ];

  it.each(cases)(
    "$env: written to stdout and stderr together without deadlock, capped head and tail",
    async ({ env, code, written, ending, next }) => {
      const session = `${env}-big`;
      const result = await run({ env, session, code });
      // Over sandbox.max_output_bytes (4 MiB per stream by default): all of each stream is in a file, its ends shown.
      expect(result).toMatchObject({ exit_code: 0 });
      for (const stream of ["stdout", "stderr"] as const) {
        expect(statSync(result.output_in![stream]!).size).toBe(written[stream]);
        expect(result.truncated[stream]).toBeGreaterThan(written[stream] - 4_194_304);
      }
      expect(result.stdout.endsWith(ending)).toBe(true);
      expect((await run({ env, session, code: next })).stdout).toBe("next\n");
    },
  );
});

describe("concurrency", () => {
  it("runs calls on one session one at a time, in arrival order", async () => {
    await run({ env: "python", session: "order", code: "log = []" });
    const calls = [0, 1, 2, 3, 4].map((i) =>
      run({ env: "python", session: "order", code: `import time\nlog.append('start ${i}')\ntime.sleep(0.05)\nlog.append('end ${i}')` }),
    );
    await Promise.all(calls);
    const expected = [0, 1, 2, 3, 4].flatMap((i) => [`start ${i}`, `end ${i}`]);
    expect((await run({ env: "python", session: "order", code: "print(log)" })).stdout).toBe(
      `${JSON.stringify(expected).replaceAll('"', "'").replaceAll(",", ", ")}\n`,
    );
  });

  it("runs different sessions in parallel", async () => {
    await Promise.all(["par-a", "par-b", "par-c"].map((session) => run({ env: "shell", session, code: ":" })));
    const started = performance.now();
    await Promise.all(["par-a", "par-b", "par-c"].map((session) => run({ env: "shell", session, code: "sleep 1" })));
    expect(performance.now() - started).toBeLessThan(1900);
  });
});

describe("cancellation", () => {
  it("interrupts the session's code when the client cancels the call, keeping the state", async () => {
    await run({ env: "python", session: "cancel", code: "kept = 'yes'" });
    const aborter = new AbortController();
    const cancelled = server.client.callTool(
      { name: "run", arguments: { env: "python", session: "cancel", code: "import time; time.sleep(60)" } },
      undefined,
      {
        signal: aborter.signal,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    aborter.abort();
    await expect(cancelled).rejects.toThrow();
    const started = performance.now();
    expect((await run({ env: "python", session: "cancel", code: "print(kept)" })).stdout).toBe("yes\n");
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe("session tools", () => {
  it("refuse another env for an existing session, naming its env", async () => {
    await run({ env: "python", session: "mine", code: "pass" });
    const result = await server.call("run", { env: "shell", session: "mine", code: "true" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("session 'mine' runs in env 'python'");
  });

  it("run a call without env in its session's env, else the one its #! line names or its code's language, else the shell", async () => {
    await run({ env: "python", session: "inferred", code: "v = 'kept'" });
    expect(await run({ session: "inferred", code: "import sys; print(v, sys.version_info.major)" })).toMatchObject({
      stdout: "kept 3\n",
      exit_code: 0,
    });
    expect(await run({ session: "nobody-yet", code: "echo $BASH_VERSION | cut -c1" })).toMatchObject({ stdout: "5\n", exit_code: 0 });
    expect(await run({ session: "nobody-yet", code: "echo again" })).toMatchObject({ stdout: "again\n" });
    expect(await run({ code: "ls /project >/dev/null && echo listed" })).toMatchObject({ stdout: "listed\n", exit_code: 0 });
    expect(await run({ code: "#!/usr/bin/env python3\nprint(6 * 7)" })).toMatchObject({ stdout: "42\n", exit_code: 0 });
    expect(await run({ code: "#!/usr/bin/env node\nconsole.log(6 * 7)" })).toMatchObject({ stdout: "42\n", exit_code: 0 });
    // Else the language the code is plainly written in: a new session too.
    expect(await run({ session: "new-python", code: "import sys\nsys.version_info[0]" })).toMatchObject({ stdout: "3\n", exit_code: 0 });
    expect(await run({ code: "console.log(6 * 7)" })).toMatchObject({ stdout: "42\n", exit_code: 0 });
    const unknown = await server.call("run", { env: "cobol", code: "true" });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/^unknown environment 'cobol'; valid environments: .*python/);
  });

  it("list sessions and close one", async () => {
    await run({ env: "shell", session: "listed", code: "true" });
    await run({ env: "shell", session: "listed", code: "true" });
    const { sessions } = (await server.call("list_sessions")).structuredContent as {
      sessions: { id: string; env: string; calls: number }[];
    };
    expect(sessions.find((s) => s.id === "listed")).toMatchObject({ env: "shell", calls: 2 });
    expect((await server.call("close_session", { session: "listed" })).isError).toBeFalsy();
    const closedAgain = await server.call("close_session", { session: "listed" });
    expect(closedAgain.isError).toBe(true);
    expect(textOf(closedAgain)).toContain("no session 'listed'");
  });
});
