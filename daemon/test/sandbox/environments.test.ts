import { describe, expect, it } from "vitest";
import { describeEnvironments, pickEnvironment, writtenFor } from "../../src/sandbox/environments.js";
import { environment } from "../sessions/host-launcher.js";

const python = { ...environment("python", "python"), description: "Python 3", projectAccess: "ro" as const };
const shell = { ...environment("shell", "bash"), description: "bash", projectAccess: "ro" as const };
const node = { ...environment("node", "node"), description: "Node.js", projectAccess: "ro" as const };

describe("describeEnvironments", () => {
  it("says the settings every environment shares once, in the heading", () => {
    expect(describeEnvironments([python, shell], "rw")).toBe(
      "Environments (all /project ro, offline, 30 s, 512 MB):\n- python: Python 3 (python)\n- shell: bash (bash)",
    );
  });

  it("keeps on each line the settings that differ", () => {
    const online = { ...shell, network: ["pypi.org"], limits: { ...shell.limits, timeoutSeconds: 120 } };
    expect(describeEnvironments([python, online], "rw")).toBe(
      "Environments (all /project ro, 512 MB):\n- python: Python 3 (python, offline, 30 s)\n- shell: bash (bash, network to pypi.org, 120 s)",
    );
  });

  it("caps project access at what the config grants", () => {
    const rw = { ...shell, projectAccess: "rw" as const };
    expect(describeEnvironments([python, rw], "ro")).toContain("(all /project ro,");
    expect(describeEnvironments([python, rw], "none")).toContain("(all /project absent,");
  });

  it("puts one environment's settings on its own line", () => {
    expect(describeEnvironments([python], "rw")).toBe("Environments:\n- python: Python 3 (python, /project ro, offline, 30 s, 512 MB)");
  });
});

describe("pickEnvironment without a name", () => {
  const all = new Map([python, shell, node].map((env) => [env.name, env]));
  const picked = (code: string) => pickEnvironment(all, undefined, code).name;
  /** Each code picks `env`. */
  const allPick = (env: string, codes: string[]) => {
    for (const code of codes) expect(picked(code), code).toBe(env);
  };

  it("takes the language the code is plainly written in, else the shell", () => {
    expect(picked("import sys\nprint(sys.version_info[0])")).toBe("python");
    expect(picked("from pathlib import Path\nPath('.').resolve()")).toBe("python");
    expect(picked("def f(x):\n    return x")).toBe("python");
    expect(picked("console.log(1 + 1)")).toBe("node");
    expect(picked("const fs = require('fs')")).toBe("node");
    // A require anywhere in a line, after blanks or an assignment without a declaration.
    expect(picked("if (true) {\n    fs = require('fs')\n}")).toBe("node");
    expect(picked("import fs from 'node:fs'\nfs.readdirSync('.')")).toBe("node");
    for (const code of ["ls -la", "echo print(1)", "jq . data.json", "x=1"]) expect(picked(code)).toBe("shell");
  });

  it("takes Python and Node written as expressions and statements, where the shell would fail", () => {
    allPick("python", [
      "x = [1, 2, 3]\nlen(x)",
      "sum(range(10))",
      "for i in range(3): print(i)",
      "import sys; sys.exit(4)",
      "a, b = 1, 2",
      "if x > 1:\n    y = 2",
      "with open('data.json') as f:\n    data = f.read()",
      "class Point:\n    pass",
      "mask = 1 << 4\nprint(mask)",
      "from os import getcwd; print(getcwd())",
      "[x * x for x in range(5)]",
      "sorted(n for n, _ in pairs)",
    ]);
    allPick("node", [
      "Array.from({length: 3}, (_, i) => i)",
      "'q'.repeat(100000)",
      "x === 1",
      "new Map()",
      "JSON.stringify({a: 1})",
      "process.argv",
      "console.log(`${1 + 1}`)",
      "const a=1; a",
      "async function f() { return 1 }\nawait f()",
      "function add(a, b) { return a + b }\nadd(1, 2)",
      "process.exit(3)",
    ]);
  });

  it("judges tens of kilobytes of adversarial code in no time (a comprehension's pattern had taken minutes)", () => {
    for (const code of ["( for a in ".repeat(4000), `from x import ${" ".repeat(40_000)}!`, "[".repeat(100_000)]) {
      expect(picked(code), code.slice(0, 20)).toBe("shell");
    }
  });

  it("tells a sign of one language from a line Python and Node share", () => {
    const only = (code: string) => writtenFor(all, code, { only: true })?.name;
    for (const code of ["x = 1", "let = ;", "foo(1, 2)"]) {
      expect(picked(code), code).toBe("python");
      expect(only(code), code).toBeUndefined();
    }
    expect(only("import sys")).toBe("python");
    expect(only("x === 1")).toBe("node");
  });

  it("sends a command line calling an interpreter to the environment that has it, where bash runs it", () => {
    allPick("node", ["node -e 'console.log([1, 2].map((x) => x * 2))'", "cd web && npm test"]);
    allPick("python", [
      `python3 -c "import json; print(json.dumps({'a': 1}))"`,
      "python3 src/app/main.py --verbose",
      "python3 - <<'EOF'\nimport sys\nprint(sys.version)\nEOF",
      "echo 'print(1)' | python3",
    ]);
  });

  it("leaves the shell's own code to the shell, colons and all", () => {
    allPick("shell", [
      'if true; then echo "Result: ok"; fi',
      "for f in *.txt; do echo $f; done",
      "for h in a:b c:d; do echo $h; done",
      'while read -r line; do echo "$line"; done < data.txt',
      "export PATH=/bin:$PATH",
      "echo $(date)",
      "test $a = $b && echo same",
      "awk -F: '{print $1}' /etc/passwd",
      "main() {\n  echo hi\n}\nmain",
      "jq -r '.items[] | select(.a === 1)' data.json",
      "git log --format='%h => %s'",
      "grep '=>' src/app.js",
      'git diff HEAD~1 -- src/ | grep "^+" | grep "=>"',
      "sed 's/===/==/g' f.js",
      "jq '.a === 1' f.json",
      "rg 'Object.keys' src",
      'git commit -m "use Array.from"',
      "echo 'a => b'",
      "cat <<EOF\nname = $USER\nEOF",
      "cat > config.ini <<EOF\n[section]\nkey = value\nEOF",
      "cat > script.py <<'EOF'\ndef main():\n    print(\"hi\")\nEOF\npython3 script.py",
      "count = $(ls | wc -l)",
      "let x=5; echo $x",
      "function greet() { echo hi; }\ngreet",
    ]);
  });

  it("lets a #! line say otherwise", () => {
    expect(picked("#!/usr/bin/env bash\nimport sys")).toBe("shell");
  });
});

describe("pickEnvironment by the name of its interpreter", () => {
  const all = new Map([python, shell, node].map((env) => [env.name, env]));
  const picked = (name: string) => pickEnvironment(all, name).name;

  it("takes what agents call an interpreter or its language", () => {
    expect(picked("bash")).toBe("shell");
    expect(picked("sh")).toBe("shell");
    expect(picked("python3")).toBe("python");
    expect(picked("Python3.12")).toBe("python");
    for (const name of ["js", "javascript", "nodejs"]) expect(picked(name)).toBe("node");
  });

  it("refuses a name no environment has, listing the valid ones", () => {
    expect(() => pickEnvironment(all, "ruby")).toThrow(/unknown environment 'ruby'/);
  });

  it("takes a name in any case, and never guesses among several of one interpreter", () => {
    const py311 = { ...environment("py311", "python"), projectAccess: "ro" as const };
    const py312 = { ...environment("py312", "python"), projectAccess: "ro" as const };
    const several = new Map([py311, py312, shell].map((env) => [env.name, env]));
    expect(pickEnvironment(several, "PY312").name).toBe("py312");
    expect(() => pickEnvironment(several, "python3.12")).toThrow(/unknown environment 'python3\.12'/);
    // A bash environment named python is no Python: python3 asks for the interpreter.
    const misnamed = { ...environment("python", "bash"), projectAccess: "ro" as const };
    const mixed = new Map([misnamed, { ...python, name: "py" }].map((env) => [env.name, env]));
    expect(pickEnvironment(mixed, "python3").name).toBe("py");
    expect(pickEnvironment(mixed, "python").name).toBe("python");
  });
});
