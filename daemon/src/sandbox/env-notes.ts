// What a `run` adds in one line: for a failed call, where code that named no env ran and where it would
// have run, or that a command it called is in no environment at all; for a one-off call that printed
// nothing, that its final expression's value shows only in a session.
import type { Environment } from "../discovery/types.js";
import { interpreterOf } from "./command-lines.js";
import { writtenFor } from "./environments.js";

/**
 * Words bash lacks that start Python or JavaScript code ("assert x == 1": "assert: command not found"): such a
 * missing command is code of another language, not a program no environment has.
 */
const CODE_WORDS = new Set([
  ...["assert", "async", "await", "class", "def", "del", "elif", "except", "finally", "from", "global", "import"],
  ...["lambda", "nonlocal", "pass", "print", "raise", "try", "with", "yield", "const", "var", "throw", "typeof"],
]);

/**
 * A line that is a statement, not a value: a keyword's, an assignment (annotated too), a call that prints, an open
 * block, or the end of one spread over lines (a call's or a literal's closing bracket). Targets are words joined by
 * commas, so no two parts of a pattern take the same spaces (a line of 100,000 spaces stays linear).
 */
const TARGETS = String.raw`[\w.[\]'"]+(?:\s*,\s*[\w.[\]'"]+)*`;
const STATEMENT: Record<string, RegExp> = {
  python: new RegExp(
    String.raw`^(?:(?:import|from|def|class|if|elif|else|for|while|with|try|except|finally|return|raise|pass|del|assert|global|async|@)\b|print\(|[)\]}]|${TARGETS}\s*(?:[-+*/%&|^@]|//|\*\*)?=(?!=)|\w+\s*:)|:\s*(?:#.*)?$`,
  ),
  node: new RegExp(
    String.raw`^(?:(?:const|let|var|function|class|if|else|for|while|do|switch|try|catch|finally|return|throw|import|export|async|await\s+\w+\.sleep)\b|console\.|[})\]]|${TARGETS}\s*(?:[-+*/%&|^]|\*\*|\?\?|\|\||&&)?=(?![=>]))|[{}]\s*$`,
  ),
};
/** Past this, a last line is not judged: a value's line is short. */
const MAX_VALUE_LINE = 2000;

/** Whether code of a Python or Node environment ends in a line that is a value, which a one-off run does not print ("1 + 1"). */
function endsInValue(interpreter: string, code: string): boolean {
  const statement = STATEMENT[interpreter];
  const line = code
    .split("\n")
    .reverse()
    .find((each) => each.trim() !== "" && !/^\s*(?:#|\/\/)/.test(each));
  if (statement === undefined || line === undefined || line.length > MAX_VALUE_LINE || /^\s/.test(line)) return false;
  // Its last statement: "const x = 5; x * 2" ends in a value (a line with quotes is taken whole: "a;b" is text).
  const last = /['"`]/.test(line)
    ? line.trim()
    : line
        .split(";")
        .map((part) => part.trim())
        .filter(Boolean)
        .at(-1);
  return last !== undefined && !statement.test(last);
}

/** How much of the end of stderr is read for bash's word of a missing command: its last lines say it. */
const STDERR_TAIL = 16 * 1024;

/** The last command bash said it did not find ("main.sh: line 2: rg: command not found"), read without a regex over stderr. */
function missingCommand(stderr: string): string | undefined {
  const said = ": command not found";
  const lines = stderr
    .slice(-STDERR_TAIL)
    .split("\n")
    .filter((line) => line.endsWith(said));
  const line = lines.at(-1)?.slice(0, -said.length);
  return line?.slice(line.lastIndexOf(": ") + 1).trim() || undefined;
}

/** A program's name, not code ("obj.count", "data.json"). */
const PROGRAM_NAME = /^[A-Za-z0-9][\w+-]*$/;

export interface RunCall {
  code: string;
  env?: string;
  session?: string;
}

/** The note for a call's outcome, if it needs one. */
export function envNote(
  environments: Map<string, Environment>,
  env: Environment,
  call: RunCall,
  output: { exit_code?: number | null; stdout: string; stderr: string },
  { sessionEnv, nixpkgsOffered }: { sessionEnv?: string; nixpkgsOffered: boolean },
): string | undefined {
  if (output.exit_code === 0) {
    const silent = call.session === undefined && output.stdout === "" && output.stderr === "" && endsInValue(env.interpreter, call.code);
    return silent
      ? "a one-off run shows only what the code prints: print the value, or pass `session`, where a final expression shows it"
      : undefined;
  }
  const missing = missingCommand(output.stderr);
  const having =
    missing === undefined
      ? undefined
      : [...environments.values()].find(
          (each) => each.interpreter === interpreterOf(missing) || each.packages.some((p) => p.name === missing),
        );
  const unasked = () =>
    sessionEnv === undefined
      ? unaskedEnvNote(environments, env, call, output.stderr, { missing, having })
      : otherLanguageNote(environments, env, call, output.stderr);
  // Where code that named no env went says so first when a session goes on there ("x = [1, 2]" in a shell session).
  const first = call.env === undefined && call.session !== undefined ? unasked() : undefined;
  if (first) return first;
  // "git status": a program of no environment, which naming another would not find either; not a name the code
  // assigns to ("count = $(ls | wc -l)": bash's own mistake, no program wanted).
  const assigned = missing !== undefined && call.code.split("\n").some((line) => line.trimStart().startsWith(`${missing} =`));
  if (missing && !having && PROGRAM_NAME.test(missing) && !CODE_WORDS.has(missing) && !assigned && env.interpreter === "bash") {
    return `${missing} is in no environment here${nixpkgsOffered ? "; nixpkgs_execute runs the programs of any nixpkgs package" : ""}`;
  }
  return call.env === undefined && call.session === undefined ? unasked() : undefined;
}

/** In a session of one language, code plainly of another; in a Python or Node session only by a sign of the other language ("process.exit(3)" is a call in both). */
function otherLanguageNote(
  environments: Map<string, Environment>,
  env: Environment,
  { code, session }: RunCall,
  stderr: string,
): string | undefined {
  // A shell command line ("ls -la") in a Python or Node session: its first word is a name the language never defined.
  const [word, next] = code.trim().split(/\s+/);
  const shell = [...environments.values()].find((each) => each.interpreter === "bash");
  const undefinedName = [`NameError: name '${word}' is not defined`, `ReferenceError: ${word} is not defined`].some((said) =>
    stderr.includes(said),
  );
  if (shell && next !== undefined && PROGRAM_NAME.test(word!) && undefinedName) {
    return `this reads as a shell command line, but session ${session} runs ${env.name}: run it with env ${shell.name} and no session`;
  }
  const written = writtenFor(environments, code, { only: env.interpreter !== "bash" });
  if (!written || written.name === env.name) return undefined;
  return `this reads as ${written.name} code, but session ${session} runs ${env.name}: close_session it, or use another session id with env ${written.name}`;
}

/**
 * For a failed call that named no env and no live session, how to run it elsewhere: the shell took code it could not
 * read (no `#!` line or shape said otherwise).
 */
function unaskedEnvNote(
  environments: Map<string, Environment>,
  env: Environment,
  { code, session }: RunCall,
  stderr: string,
  { missing, having }: { missing?: string; having?: Environment },
): string | undefined {
  const others = [...environments.keys()].filter((name) => name !== env.name);
  // What bash says of another language's code: a line is no shell syntax, or its first word is no
  // command ("assert: command not found"); a shell command's own failure (a missing file) says neither.
  const firstWord = /^\s*(\S+)/.exec(code)?.[1] ?? "";
  const unread = /syntax error/.test(stderr) || stderr.includes(`${firstWord}: command not found`) || having;
  if (env.interpreter !== "bash" || !unread || others.length === 0) return undefined;
  // A session begun so stays the shell's.
  return session === undefined
    ? having
      ? `ran in ${env.name}, as no env was given; ${missing} is env ${having.name}'s, which runs command lines calling it too: pass env ${having.name}`
      : `ran in ${env.name}, as no env was given; pass env (${others.join(", ")}) to run it in another`
    : `ran in ${env.name}, as no env was given, and session ${session} now runs ${env.name}: close_session it, or use another session id with env (${others.join(", ")})`;
}
