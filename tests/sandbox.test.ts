// The run tool end to end: harness-built presets, the real bwrap jail, the built daemon over MCP.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, textOf, type ServerHandle } from "../daemon/test/support/mcp-client.js";
import { harnessMetadata } from "./harness/metadata.js";

let server: ServerHandle;
let project: string;

interface RunResult {
  stdout: string;
  stderr: string;
  exit_code: number | null;
  timed_out: boolean;
  truncated: { stdout: number; stderr: number };
  limit_hit?: string;
}

async function run(args: Record<string, unknown>): Promise<RunResult> {
  const result = await server.call("run", args);
  if (result.isError) throw new Error(`run failed: ${textOf(result)}`);
  return result.structuredContent as unknown as RunResult;
}

beforeAll(async () => {
  const metadata = harnessMetadata();
  project = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-run-")));
  writeFileSync(join(project, "data.txt"), "from the project\n");
  mkdirSync(join(project, "data"));
  writeFileSync(join(project, "data", "people.json"), '[{"name": "Ada"}]\n');
  mkdirSync(join(project, "helpers"));
  writeFileSync(join(project, "helpers", "names.py"), 'NAME = "Ada"\n');
  writeFileSync(join(project, "helpers", "names.js"), 'module.exports = { name: "Ada" };\n');
  writeFileSync(join(project, "helpers", "hello.py"), 'import sys\nprint("hello", *sys.argv[1:])\n');
  writeFileSync(join(project, "helpers", "child.js"), 'console.log("child", require("./names.js").name);\n');
  mkdirSync(join(project, "src", "shop"), { recursive: true });
  writeFileSync(join(project, "src", "shop", "__init__.py"), "def discount(price, percent):\n    return price * (100 - percent) / 100\n");
  // A src module named as the standard library's shadows nothing.
  writeFileSync(join(project, "src", "json.py"), "raise SystemExit('shadowed')\n");
  server = await startServer({ args: ["--metadata", metadata, "--project", project] });
});

afterAll(async () => {
  await server?.close();
});

describe("run", () => {
  it("lists each environment with its description and main packages", async () => {
    const { tools } = await server.client.listTools();
    const tool = tools.find((each) => each.name === "run")!;
    expect(tool.description).toContain("- shell: bash with coreutils");
    expect(tool.description).toMatch(/- python: Python 3 with requests.*\(python\)/);
    expect(tool.description).toContain("- node: Node.js (node)");
    expect(tool.description).toContain("Environments (all /project ro, offline, 30 s, 512 MB):");
    // A string, not an enum of the names: a client that checks arguments against the schema would refuse "bash".
    expect(tool.inputSchema.properties!.env).toMatchObject({ type: "string" });
    expect(tool.inputSchema.properties!.env).not.toHaveProperty("enum");
  });

  it("runs python with stdin, reports stderr and the exit code", async () => {
    const result = await run({
      env: "python",
      code: "import sys, yaml, requests\nprint(sys.stdin.read().upper())\nprint('oops', file=sys.stderr)\nsys.exit(3)",
      stdin: "hello",
    });
    expect(result).toMatchObject({ stdout: "HELLO\n", stderr: "oops\n", exit_code: 3, timed_out: false });
  });

  it("gives a call without stdin /dev/null, so that programs that read stdin when it is no terminal read the project instead", async () => {
    const result = await run({
      env: "shell",
      code: "readlink /proc/self/fd/0; if [ -t 0 ] || [ -p /dev/stdin ] || [ -S /dev/stdin ]; then echo piped; else echo not piped; fi",
    });
    expect(result).toMatchObject({ stdout: "/dev/null\nnot piped\n", exit_code: 0 });
    expect((await run({ env: "shell", code: "cat", stdin: "given" })).stdout).toBe("given");
  });

  it("describes megabytes of binary output, keeping the result small enough for the client", async () => {
    // Dumped as JSON, this output would be ~12 MB per copy and the SDK client drops a connection
    // whose message exceeds 10 MB.
    const result = await run({ env: "shell", code: "head -c 1048576 /dev/urandom; printf '\\001%.0s' $(seq 1048576) >&2" });
    expect(result.stdout).toMatch(/^\[binary output: 1048576 bytes, starting [0-9a-f ]+\. Write it to a file/);
    expect(result.stderr).toMatch(/^\[binary output: 1048576 bytes, starting 01 01/);
    expect((await run({ env: "shell", code: "echo still here" })).stdout).toBe("still here\n");
  });

  it("runs node (module syntax too) and bash, code of any length", async () => {
    expect((await run({ env: "node", code: "console.log(await Promise.resolve(6 * 7))" })).stdout).toBe("42\n");
    // Node runs code with module syntax as an ES module; require works there too, from the project.
    const both = "import os from 'node:os'; const fs = require('fs'); console.log(typeof os.cpus, fs.existsSync('data.txt'), await 1)";
    expect(await run({ env: "node", code: both })).toMatchObject({ stdout: "function true 1\n", exit_code: 0 });
    expect((await run({ env: "node", code: "const path = require('path'); console.log(path.basename(__filename))" })).stdout).toBe(
      "main.js\n",
    );
    const long = `${"# padding\n".repeat(300_000)}echo "$(( 6 * 7 ))" | jq .`;
    expect((await run({ env: "shell", code: long })).stdout).toBe("42\n");
  });

  it("starts in the project, so relative paths are project files; /workspace is scratch space, fresh each call", async () => {
    const first = await run({
      env: "shell",
      code: "pwd; cat data.txt; jq -c '.[0].name' data/people.json; echo kept > /workspace/f; echo $HOME",
    });
    expect(first.stdout).toBe('/project\nfrom the project\n"Ada"\n/workspace\n');
    const python = await run({
      env: "python",
      code: "import json, os\nprint(os.getcwd(), json.load(open('data/people.json'))[0]['name'])",
    });
    expect(python.stdout).toBe("/project Ada\n");
    expect((await run({ env: "shell", code: "ls /workspace | wc -l" })).stdout).toBe("0\n");
  });

  it("imports the project's own modules in a one-off run, as python3 -c and node -e code does, tracebacks naming the code's lines", async () => {
    expect((await run({ env: "python", code: "from helpers.names import NAME\nprint(NAME)" })).stdout).toBe("Ada\n");
    // A src layout's packages, as an editable install makes them, in one-off runs and sessions.
    const discount = "from shop import discount\nimport json\nprint(json.dumps(discount(100, 15)))";
    expect((await run({ env: "python", code: discount })).stdout).toBe("85.0\n");
    expect((await run({ env: "python", session: "src-layout", code: discount })).stdout).toBe("85.0\n");
    await server.call("close_session", { session: "src-layout" });
    expect((await run({ env: "node", code: "console.log(require('./helpers/names.js').name)" })).stdout).toBe("Ada\n");
    expect((await run({ env: "node", code: "import names from './helpers/names.js'\nconsole.log(names.name)" })).stdout).toBe("Ada\n");
    // The code's own child processes resolve from their own files, as Node does.
    const forked = await run({ env: "node", code: "require('child_process').fork('helpers/child.js')" });
    expect(forked).toMatchObject({ stdout: "child Ada\n", stderr: "" });
    const failed = await run({ env: "python", code: "x = 1\nraise ValueError('boom')" });
    expect(failed.stderr).toBe(
      "Traceback (most recent call last):\n  File \"/run/nixshed/main.py\", line 2, in <module>\n    raise ValueError('boom')\nValueError: boom\n",
    );
  });

  it("runs a command line calling an environment's interpreter there, given that env or none", async () => {
    expect((await run({ env: "python", code: "python3 helpers/hello.py Ada" })).stdout).toBe("hello Ada\n");
    expect((await run({ env: "python", code: "cd helpers && python3 -c 'import names; print(names.NAME)'" })).stdout).toBe("Ada\n");
    expect((await run({ code: "python3 helpers/hello.py Bo | tr a-z A-Z" })).stdout).toBe("HELLO BO\n");
    expect((await run({ code: "node -e 'console.log(6 * 7)'" })).stdout).toBe("42\n");
    // Python code that starts with the interpreter's name is still Python code.
    expect((await run({ env: "python", code: "python = 3\nprint(python in [3])" })).stdout).toBe("True\n");
    // Called after a line of the shell's own, the interpreter is missing from the shell: the note names the env that has it.
    const shell = await server.call("run", { code: "echo start\npython3 helpers/hello.py" });
    expect(textOf(shell)).toMatch(
      /\nnote: ran in shell, as no env was given; python3 is env python's, which runs command lines calling it too: pass env python\n/,
    );
  });

  it("takes other tools' names for its arguments: command, cmd, script, language, input, session_id", async () => {
    expect((await run({ command: "echo $((6 * 7))" })).stdout).toBe("42\n");
    expect((await run({ cmd: "cat", input: "piped" })).stdout).toBe("piped");
    expect((await run({ language: "python", script: "print(6 * 7)" })).stdout).toBe("42\n");
    await run({ session_id: "aliased", env: "python", code: "x = 41" });
    expect((await run({ sessionId: "aliased", code: "x + 1" })).stdout).toBe("42\n");
    expect(textOf(await server.call("close_session", { session_id: "aliased" }))).toBe("closed session aliased");
    // Where no argument of its own does what another tool's does, it says what does.
    expect(textOf(await server.call("run", { code: "npm test", cwd: "web" }))).toMatch(
      /^run: unknown argument `cwd` \(start the code with `cd DIR &&`\); it takes: /,
    );
  });

  it("caps each stream at 4 MiB in memory by default, showing its ends in the answer and keeping all of it in a file", async () => {
    const result = await server.call("run", {
      env: "shell",
      code: "echo START; head -c 5000000 /dev/zero | tr '\\0' y; echo; echo END >&2",
    });
    const { truncated } = result.structuredContent as { truncated: { stdout: number; stderr: number } };
    expect(result.structuredContent).toMatchObject({ exit_code: 0, truncated: { stderr: 0 } });
    // One marker, in the stream, names the file and the line of it the answer shows only the ends of.
    const text = textOf(result);
    expect(text).toMatch(
      new RegExp(
        `^exit 0 · \\d+ ms · stdout: ${truncated.stdout} bytes dropped from the middle\n--- stdout\nSTART\ny+\n\\[… line 2 of 2 omitted \\(${truncated.stdout} bytes\\); all 5000007 bytes are in (\\S+): read_content it from start_line 2 …\\]\ny+\n\n--- stderr\nEND\n$`,
      ),
    );
    expect(result._meta?.["nixshed/cut"]).not.toMatch(/whole text is in/);
    const spool = /all 5000007 bytes are in (\S+):/.exec(text)![1]!;
    expect(readFileSync(spool, "utf8")).toBe(`START\n${"y".repeat(5_000_000)}\n`);
  });

  it("says a run that timed out was killed, and how to give it longer", async () => {
    const result = await server.call("run", { env: "shell", code: "echo begun; sleep 30", timeout_seconds: 1 });
    expect(textOf(result)).toMatch(
      /^exit \S+ · \d+ ms · timed out: killed with everything it started \(timeout_seconds gives it longer\)\n/,
    );
  });

  it("says a tool takes no arguments when it takes none", async () => {
    const result = await server.call("list_sessions", { bogus: 1 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("list_sessions: unknown argument `bogus`; it takes no arguments");
  });

  it("rejects an unknown environment, listing the valid ones", async () => {
    const result = await server.call("run", { env: "ruby", code: "puts 1" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^unknown environment 'ruby'; valid environments: .*shell.*\.$/);
    expect(textOf(result)).toMatch(/python/);
  });

  it("takes an environment by its interpreter's name, and infers it from code that names none", async () => {
    expect(textOf(await server.call("run", { env: "bash", code: "echo $BASH_VERSION | cut -c1" }))).toMatch(/^exit 0 .*\n--- stdout\n\d\n/);
    expect(textOf(await server.call("run", { env: "python3", code: "print(6 * 7)" }))).toMatch(/\n--- stdout\n42\n/);
    expect(textOf(await server.call("run", { env: "js", code: "console.log(6 * 7)" }))).toMatch(/\n--- stdout\n42\n/);
    // A session begun without env, by an assignment: Python's, so its next call sees x.
    expect((await server.call("run", { session: "guessed", code: "x = 41" })).isError).toBeFalsy();
    expect(textOf(await server.call("run", { session: "guessed", code: "x + 1" }))).toMatch(/\n--- stdout\n42\n/);
    await server.call("close_session", { session: "guessed" });
  });

  it("says where code that named no env ran when the shell could not read it, and how to run it elsewhere", async () => {
    const attribute = await server.call("run", { code: "obj.count = 1" });
    expect(textOf(attribute)).toMatch(
      /^exit \d+ .*\nnote: ran in shell, as no env was given; pass env \((?=.*python)(?=.*node).*\) to run it in another\n/,
    );
    // A program no environment has is named so, whichever env ran it: naming another would not find it either.
    for (const args of [{ code: "puts 1" }, { env: "shell", code: "git status" }]) {
      expect(textOf(await server.call("run", args))).toMatch(/^exit 127 .*\nnote: (puts|git) is in no environment here\n/);
    }
    // A shell's own failure (grep found nothing, a missing file, exit 2 or 127) is no wrong guess.
    for (const code of ["grep -q nothing /dev/null", "ls /nonexistent", "exit 2", "exit 127"]) {
      expect(textOf(await server.call("run", { code })), code).not.toContain("note:");
    }
    expect(textOf(await server.call("run", { code: "assert 1 == 1" }))).toContain("note: ran in shell, as no env was given");
    await server.call("run", { session: "sh-only", env: "shell", code: "true" });
    const python = await server.call("run", { session: "sh-only", code: "x = [1, 2]\nlen(x)" });
    expect(textOf(python)).toContain(
      "note: this reads as python code, but session sh-only runs shell: close_session it, or use another session id with env python",
    );
    expect(textOf(await server.call("run", { session: "sh-only", code: "count = $(ls | wc -l)" }))).not.toContain("note:");
    await server.call("close_session", { session: "sh-only" });
    // A line Python and Node share is no sign of Python in a Node session.
    await server.call("run", { session: "js-only", env: "node", code: "1" });
    for (const code of ["process.exit(3)", "foo(1, 2)", "let = ;"]) {
      expect(textOf(await server.call("run", { session: "js-only", code })), code).not.toContain("note: this reads as");
    }
    // A session the shell took without env stays the shell's: pass env no longer helps there.
    expect(textOf(await server.call("run", { session: "took-shell", code: "puts 1" }))).toContain(
      "note: ran in shell, as no env was given, and session took-shell now runs shell: close_session it, or use another session id with env (",
    );
    for (const session of ["js-only", "took-shell"]) await server.call("close_session", { session });
  });

  it("refuses a timeout above the daemon's maximum, saying the maximum", async () => {
    const result = await server.call("run", { env: "shell", code: "true", timeout_seconds: 100_000 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("limit of 600");
  });
});

describe("run's limits from the config", () => {
  it("says a jail starts in /workspace where no environment may see the project", async () => {
    const hidden = await startServer({
      args: ["--metadata", harnessMetadata(), "--project", project, "--set", "sandbox.project_access=none"],
    });
    try {
      const { tools } = await hidden.client.listTools();
      expect(tools.find((tool) => tool.name === "run")!.description).toContain("Starts in /workspace, empty scratch; no project here;");
      const where = await hidden.call("run", { env: "shell", code: "pwd; ls /project 2>&1 | head -c 0" });
      expect((where.structuredContent as { stdout: string }).stdout).toBe("/workspace\n");
    } finally {
      await hidden.close();
    }
  });

  it("refuses stdin above sandbox.max_stdin_bytes and a timeout above sandbox.max_timeout_seconds, naming each", async () => {
    const limited = await startServer({
      args: [
        "--metadata",
        harnessMetadata(),
        "--project",
        project,
        "--set",
        "sandbox.max_stdin_bytes=1024",
        "--set",
        "sandbox.max_timeout_seconds=5",
      ],
    });
    try {
      const stdin = await limited.call("run", { env: "shell", code: "cat", stdin: "x".repeat(1025) });
      expect(stdin.isError).toBe(true);
      expect(textOf(stdin)).toMatch(/stdin is 1025 bytes, above the limit of 1024; .*sandbox\.max_stdin_bytes/);
      const timeout = await limited.call("run", { env: "shell", code: "true", timeout_seconds: 6 });
      expect(timeout.isError).toBe(true);
      expect(textOf(timeout)).toMatch(/timeout_seconds 6 is above the limit of 5; .*sandbox\.max_timeout_seconds/);
    } finally {
      await limited.close();
    }
  });
});
