// A command line that runs an environment's own interpreter ("python3 src/app/main.py", "cd web &&
// npm test"): never that interpreter's code (a name beside a name or a path is a syntax error in
// Python and JavaScript), so it runs as the command line it is, in bash, which every environment
// has beside its interpreter (nix/lib/mkEnvironment.nix).

/** The commands of each interpreter's package that agents call on a command line. */
const COMMANDS: Record<string, readonly string[]> = { python: ["python3", "python"], node: ["node", "npm", "npx"] };

/** The interpreter whose package has `command` (npm: node). */
export const interpreterOf = (command: string): string | undefined =>
  Object.keys(COMMANDS).find((each) => COMMANDS[each]!.includes(command));

/** Longest code given to bash as an argument: well within what one argument may be (128 KiB). */
const MAX_COMMAND_LINE = 64 * 1024;

/**
 * What follows the command: a flag ("-m", "--version"), "-" for stdin, a heredoc ("<<'EOF'"), a path or a file
 * name ("src/app/main.py", "server.js"); for npm and npx a subcommand ("test") too. Not an operator or a keyword:
 * "python = 3", "python < 3", "python in names" and "node.start()" are code.
 */
function isArgument(command: string, word: string): boolean {
  if (/^(?:--?[A-Za-z]|-$|<<)/.test(word) || /^[\w~-]*[./][\w./~-]*$/.test(word)) return true;
  return (command === "npm" || command === "npx") && /^[a-z][\w-]*$/.test(word) && !["in", "instanceof", "of"].includes(word);
}

/** The interpreter (python, node) whose command a command of the code's first line calls, if one does. */
export function commandLineOf(code: string): string | undefined {
  if (code.length > MAX_COMMAND_LINE) return undefined;
  // Its first lines of code: comments, blank lines and lines that only change directory or set a variable
  // ("cd web", "export NODE_ENV=test", no code of either language) lead to the first command line.
  for (const line of code.split("\n")) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const interpreter = interpreterCalled(line);
    if (interpreter || !/^\s*(cd|export)\s+\S+\s*$/.test(line)) return interpreter;
  }
  return undefined;
}

/**
 * The interpreter whose command one of the line's commands (at its start, or after ;, &&, || or | outside quotes) is;
 * one a pipe feeds needs no argument ("echo 'print(1)' | python3").
 */
function interpreterCalled(line: string): string | undefined {
  for (const { command, piped } of commandsOf(line)) {
    const [word, next] = command.trim().split(/\s+/);
    const interpreter = word === undefined ? undefined : interpreterOf(word);
    if (interpreter && (next === undefined ? piped : isArgument(word!, next))) return interpreter;
  }
  return undefined;
}

/**
 * What a session of `interpreter` is sent for `code`: a command line calling it is run by bash from the session's
 * working directory, its exit code the call's (Python's SystemExit, Node's process.exitCode). The line goes as a JSON
 * string, which both languages read as the same text; a signal's end is 128+N. Only what the kernel itself provides
 * runs it (the Python kernel's _nixshed module, Node's built-in child_process): a project's own subprocess.py, first
 * on the session's path, once stood in for subprocess and forged the line's exit code.
 */
export function sessionCode(interpreter: string, code: string): string {
  if (interpreter === "bash" || commandLineOf(code) !== interpreter) return code;
  const line = JSON.stringify(code);
  return interpreter === "python"
    ? `raise SystemExit(__import__("_nixshed").command_line(${line}))`
    : `void (process.exitCode = ((done) => done.status ?? 128 + require("os").constants.signals[done.signal])(require("child_process").spawnSync("bash", ["-c", ${line}], { stdio: "inherit" })));`;
}

/** How the jail runs `code` in an environment of `interpreter`: as its code, or as a command line calling it. */
export function runAs(interpreter: string, code: string): { code: string } | { argv: string[] } {
  return interpreter !== "bash" && commandLineOf(code) === interpreter ? { argv: ["bash", "-c", code] } : { code };
}

/**
 * A line's commands, split at ;, &&, || and | outside quotes ("print('a | python3 x')" is one, and no command line),
 * each saying whether a single | feeds it.
 */
function commandsOf(line: string): { command: string; piped: boolean }[] {
  const commands: { command: string; piped: boolean }[] = [];
  let quote = "";
  let from = 0;
  let piped = false;
  for (let at = 0; at < line.length; at++) {
    const c = line[at]!;
    if (quote) {
      if (c === quote) quote = "";
      else if (c === "\\" && quote === '"') at++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "\\") at++;
    else if (c === ";" || c === "|" || (c === "&" && line[at + 1] === "&")) {
      commands.push({ command: line.slice(from, at), piped });
      piped = c === "|" && line[at + 1] !== "|";
      if (line[at + 1] === c) at++;
      from = at + 1;
    }
  }
  commands.push({ command: line.slice(from), piped });
  return commands;
}
