// The one line a run adds about where its code ran, a program no environment has, or a value a
// one-off run does not print.
import { describe, expect, it } from "vitest";
import { envNote } from "../../src/sandbox/env-notes.js";
import { environment } from "../sessions/host-launcher.js";

const [shell, python, node] = [environment("shell", "bash"), environment("python", "python"), environment("node", "node")];
const all = new Map([shell, python, node].map((env) => [env.name, env]));
const quiet = { exit_code: 0, stdout: "", stderr: "" };

describe("envNote", () => {
  it("says a one-off run of Python or Node code ending in a value, which printed nothing, shows only what it prints", () => {
    const note = "a one-off run shows only what the code prints: print the value, or pass `session`, where a final expression shows it";
    for (const [env, code] of [
      [python, "1 + 1"],
      [python, "x = 5\nx * 2"],
      [python, "[x * x for x in range(5)]"],
      [node, "const x = 5; x * 2"],
      [node, "[1, 2].map((x) => x * 2)"],
    ] as const) {
      expect(envNote(all, env, { code }, quiet, { nixpkgsOffered: false }), code).toBe(note);
    }
    for (const [env, code, output] of [
      [python, "import os", quiet],
      [python, "x = 1", quiet],
      [python, "def f():\n    return 1", quiet],
      [python, "print(1)", { ...quiet, stdout: "1\n" }],
      [node, "console.log(1)", { ...quiet, stdout: "1\n" }],
      [node, "let x = 3", quiet],
      [shell, "true", quiet],
    ] as const) {
      expect(envNote(all, env, { code }, output, { nixpkgsOffered: false }), code).toBeUndefined();
    }
    // Statements spread over lines, annotated, or holding a quoted ";" are no value left unprinted.
    for (const code of ['config = {\n    "a": 1,\n}', 'x = "a;b"', "x: int = 5", 'subprocess.run(\n    ["make"],\n)']) {
      expect(envNote(all, python, { code }, quiet, { nixpkgsOffered: false }), code).toBeUndefined();
    }
    expect(envNote(all, node, { code: 'const s = "a;b";' }, quiet, { nixpkgsOffered: false })).toBeUndefined();
    // A line of 100,000 spaces between two strings is judged in no time (it had taken 16 s).
    expect(envNote(all, python, { code: `"a"${" ".repeat(100_000)}"b"` }, quiet, { nixpkgsOffered: false })).toBeUndefined();
    // A session shows the value itself.
    expect(envNote(all, python, { code: "1 + 1", session: "s" }, quiet, { nixpkgsOffered: false })).toBeUndefined();
  });

  it("says a shell command line in a Python or Node session is one, where the language named its first word undefined", () => {
    const failed = (stderr: string) => ({ exit_code: 1, stdout: "", stderr });
    const asked = { sessionEnv: "python", nixpkgsOffered: false };
    expect(envNote(all, python, { code: "ls -la", session: "py" }, failed("NameError: name 'ls' is not defined\n"), asked)).toBe(
      "this reads as a shell command line, but session py runs python: run it with env shell and no session",
    );
    expect(
      envNote(all, node, { code: "git status", session: "js" }, failed("Uncaught ReferenceError: git is not defined\n"), asked),
    ).toMatch(/^this reads as a shell command line, but session js runs node/);
    // A name the code itself left undefined is no command line.
    expect(
      envNote(all, python, { code: "total", session: "py" }, failed("NameError: name 'total' is not defined\n"), asked),
    ).toBeUndefined();
  });

  it("names a program no environment has, and nixpkgs_execute where it is listed", () => {
    const failed = { exit_code: 127, stdout: "", stderr: "main.sh: line 1: rg: command not found\n" };
    expect(envNote(all, shell, { code: "rg TODO" }, failed, { nixpkgsOffered: true })).toBe(
      "rg is in no environment here; nixpkgs_execute runs the programs of any nixpkgs package",
    );
    expect(envNote(all, shell, { env: "shell", code: "rg TODO" }, failed, { nixpkgsOffered: false })).toBe("rg is in no environment here");
  });

  it("reads what bash said of a missing command as text, never as a pattern: a jail's stderr is untrusted", () => {
    for (const name of ["x[", "(\\S\\S*)*!", "a+"]) {
      const failed = { exit_code: 127, stdout: "", stderr: `main.sh: line 1: ${name}: command not found\n` };
      expect(
        () => envNote(all, shell, { code: `${"a".repeat(40)} x`.repeat(1000) }, failed, { nixpkgsOffered: false }),
        name,
      ).not.toThrow();
    }
  });
});
