// Which code is a command line calling an environment's interpreter, run as such by bash: never
// code of that interpreter's own language.
import { describe, expect, it } from "vitest";
import { commandLineOf, runAs, sessionCode } from "../../src/sandbox/command-lines.js";

describe("commandLineOf", () => {
  it("finds the interpreter a command of the first line of code calls, after cd or export lines", () => {
    expect(commandLineOf("python3 src/app/main.py")).toBe("python");
    expect(commandLineOf("python -m pytest -q")).toBe("python");
    expect(commandLineOf("cd web && npm test")).toBe("node");
    expect(commandLineOf("# run it\ncd web\nexport NODE_ENV=test\nnpx vitest run")).toBe("node");
    expect(commandLineOf("cat data.json | node -e 'x'")).toBe("node");
  });

  it("finds one a pipe feeds, and one reading stdin or a heredoc", () => {
    expect(commandLineOf("echo 'print(1)' | python3")).toBe("python");
    expect(commandLineOf("python3 - <<'EOF'\nprint('heredoc')\nEOF")).toBe("python");
    expect(commandLineOf("python3 <<EOF\nprint(2)\nEOF")).toBe("python");
    expect(commandLineOf("cat app.js | node")).toBe("node");
  });

  it("takes code that starts with the interpreter's name for code: an operator, a keyword, an attribute, a later line", () => {
    for (const code of [
      "python = 3",
      "python in names",
      "python -= 1",
      "python < 3",
      "x = cached || node",
      "node.start()",
      "npm in registry",
      "x = 1\npython3 a.py",
      '"""Usage:\n  python3 tool.py\n"""',
      // A command line quoted in the code is text of the code.
      "print('pipe it: cat data.json | python3 -m json.tool')",
      "import subprocess; subprocess.run('echo hi; python3 -V', shell=True)",
      "console.log('build: cd web && npm run build')",
      'print("a \\" ; python3 x.py")',
    ]) {
      expect(commandLineOf(code), code).toBeUndefined();
    }
  });

  it("runs a command line by bash only in the environment of the interpreter it calls", () => {
    expect(runAs("python", "python3 a.py")).toEqual({ argv: ["bash", "-c", "python3 a.py"] });
    expect(runAs("node", "python3 a.py")).toEqual({ code: "python3 a.py" });
    expect(runAs("bash", "python3 a.py")).toEqual({ code: "python3 a.py" });
  });

  it("sends a session of the interpreter a command line as its own code running bash, and anything else as it is", () => {
    expect(sessionCode("python", 'python3 -c "print(1)"')).toBe(
      'raise SystemExit(__import__("_nixshed").command_line("python3 -c \\"print(1)\\""))',
    );
    expect(sessionCode("python", "print(1)")).toBe("print(1)");
    expect(sessionCode("node", "python3 a.py")).toBe("python3 a.py");
    expect(sessionCode("bash", "python3 a.py")).toBe("python3 a.py");
  });
});
