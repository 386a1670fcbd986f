// The discovered environments as the sandbox tools present them: picked by name with an error that
// lists the valid ones, and described compactly for a tool description.
import { cappedAccess } from "../jail/policy.js";
import { describeNetwork } from "../config/network.js";
import type { ProjectAccess } from "../config/schema.js";
import type { Environment } from "../discovery/types.js";
import { LANGUAGE_ALIASES } from "../language-names.js";
import { commandLineOf } from "./command-lines.js";
import { SandboxError } from "./errors.js";

/** The environment a call without one gets when there are several: the shell, as for a command line. */
const DEFAULT_ENVIRONMENT = "shell";

/**
 * Lines only one interpreter's code has, for code that names no env; the shell's own code has none
 * of them. Node's first, as its code can also look like Python's (an assignment, a call): console
 * calls, requires, bindings, arrows, strict equality, constructors, functions with parameters or
 * async (the shell's take none), `process.exit` and its camelCase built-ins. Python's: imports,
 * defs, prints, block headers ending in a colon ("for i in range(3):", never with the shell's
 * "; then" or "; do" before it). `shared`: what a line of either (not the shell's) may be, for code
 * with no other sign: an assignment with spaces around "=" ("x = 1" runs a command x) and a bare
 * call with arguments ("len(x)" is a shell syntax error); Python's, as more short snippets are.
 */
const CODE_SHAPES: { interpreter: string; shape: RegExp; line?: (line: string) => boolean; shared?: RegExp }[] = [
  {
    interpreter: "node",
    shape:
      /^(?:[ \t]*(?:console\.\w+\(|(?:const|var) [\w{}[\], ]+ ?= ?|let [\w{}[\], ]+ = |import .+ from ['"]|async function\b|function\*? ?\w*\s*\([^)\s]+)|.*\brequire\(['"])|=>|[!=]==|\bnew [A-Z]\w*\(|\b(?:Array|Object|JSON|Math|Promise)\.\w+|\bprocess\.(?:argv|env|cwd|exit)\b|\.(?:repeat|forEach|push|includes|toUpperCase|toLowerCase|padStart|padEnd|toFixed)\(/m,
  },
  {
    interpreter: "python",
    shape:
      /^(?:import [\w.]+(?: as \w+)?(?:, *[\w.]+(?: as \w+)?)*[ \t]*(?:;.*)?|from [\w.]+ import [^;\n]+(?:;.*)?|def \w+\(.*\):.*|print\(.*\)[ \t]*|[ \t]*(?:for \w+(?:, *\w+)* in [^;\n]+|while [^;\n]+|if [^;\n]+|elif [^;\n]+|else|try|except[^;\n]*|finally|with [^;\n]+|class \w+[^;\n]*):(?:[ \t]*#.*|[ \t]+\S.*)?)$/m,
    line: isComprehension,
    shared: /^(?:[ \t]*[A-Za-z_]\w*(?:, *[A-Za-z_]\w*)* +[-+*/%]?= +\S.*|[ \t]*[A-Za-z_][\w.]*\([^)].*\)[ \t]*)$/m,
  },
];

/** A comprehension or generator ("[x * x for x in xs]", "sorted(n for n in names)"): looked for without a regex, in one pass. */
function isComprehension(line: string): boolean {
  const text = line.trim();
  const at = text.indexOf(" for ");
  return at > 0 && text.indexOf(" in ", at + 5) > 0 && /[[({]/.test(text.slice(0, at)) && /[\])}]$/.test(text);
}

/** What agents also call an interpreter: a `#!` line's python3 or sh, a language's name. */
const PROGRAM_NAMES: Record<string, string> = { sh: "bash", ...LANGUAGE_ALIASES };

/**
 * The named environment, or the one whose interpreter the name is ("bash", "python3", "js"); with no
 * name, the one a `#!` line names ("#!/usr/bin/env python3": python), the one whose interpreter a
 * command line calls ("npm test": node), the one whose language the code is plainly written in, the
 * only one there is, or the shell.
 */
export function pickEnvironment(environments: Map<string, Environment>, name: string | undefined, code = ""): Environment {
  const env =
    name === undefined ? environments.get(unnamed(environments, code)) : (environments.get(name) ?? environmentCalled(environments, name));
  if (env) return env;
  const valid = [...environments.keys()];
  throw new SandboxError(
    name === undefined ? "no env given: name the environment to run in" : `unknown environment '${name}'`,
    valid.length > 0 ? `Valid environments: ${valid.join(", ")}.` : "No environment is discovered; run `nixshed doctor`.",
  );
}

/**
 * The environment `program` names: by its name in any case, else the one whose interpreter it is
 * (versions aside: python3.12 is python's), or among several such the one named for it. Never a guess
 * among several (py311 and py312 for "python3.12"): the caller then lists the valid names.
 */
export function environmentCalled(environments: Map<string, Environment>, program: string): Environment | undefined {
  const all = [...environments.values()];
  const lower = program.toLowerCase();
  const named = all.filter((env) => env.name.toLowerCase() === lower);
  if (named.length === 1) return named[0];
  const bare = lower.slice(0, lower.length - trailingVersion(lower));
  const wanted = PROGRAM_NAMES[bare] ?? bare;
  const runs = all.filter((env) => env.interpreter === wanted);
  return runs.length === 1 ? runs[0] : runs.find((env) => env.name === wanted);
}

/** How many characters of digits and dots end `name` ("python3.12": 4), counted from the end: a regex took quadratic time. */
function trailingVersion(name: string): number {
  let at = name.length;
  while (at > 0 && /[\d.]/.test(name[at - 1]!)) at--;
  return name.length - at;
}

/** The environment for code given none. */
function unnamed(environments: Map<string, Environment>, code: string): string {
  const interpreter = /^#![ \t]*(?:\S*\/)?([\w.-]+)(?:[ \t]+([\w.-]+))?/.exec(code);
  const program = interpreter?.[1] === "env" ? interpreter[2] : interpreter?.[1];
  const named = program === undefined ? undefined : environmentCalled(environments, program);
  if (named) return named.name;
  const calling = commandLineOf(code);
  const called = calling === undefined ? undefined : environmentCalled(environments, calling);
  if (called) return called.name;
  const written = writtenFor(environments, code);
  if (written) return written.name;
  if (environments.size === 1) return [...environments.keys()][0]!;
  return DEFAULT_ENVIRONMENT;
}

/** A command line with a flag ("node -e '…'", "git log --format='…'"): the shell's, whatever it quotes. */
const COMMAND_LINE = /^[ \t]*[\w./-]+[ \t]+--?\w/;
/** The start of a heredoc and its terminating word: what follows is data or another program's code (a shift, "1 << 4", has no such line after it). */
const HEREDOC = /<<-?[ \t]*(['"]?)(\w+)\1/;
/** Quoted text, which says nothing of the language around it ("grep '=>' f", "echo 'x = 1'"). */
const QUOTED = /'[^'\n]*'|"(?:[^"\\\n]|\\.)*"|`[^`\n]*`/g;
/** A shell expansion outside quotes: $(…), ${…}, $NAME. */
const EXPANSION = /\$[({A-Za-z_]/;

const MAX_SHAPE_LINE = 1000;
const MAX_SHAPE_LINES = 500;

/** The code's own lines, their quoted text left out: no heredoc's body, no command line with flags, none expanding shell variables. */
function ownLines(code: string): string {
  const kept: string[] = [];
  let heredocEnd: string | undefined;
  const lines = code.split("\n");
  // Where each line last stands, to tell at once whether a heredoc's word ends it later (looking through every later
  // line, for each unended one, took 13 s on 40,000 lines).
  const last = new Map(lines.map((line, i) => [line.trim(), i]));
  let judged = 0;
  for (const [i, line] of lines.entries()) {
    if (heredocEnd !== undefined) {
      if (line.trim() === heredocEnd) heredocEnd = undefined;
      continue;
    }
    const word = HEREDOC.exec(line)?.[2];
    if (word !== undefined && (last.get(word) ?? -1) > i) {
      heredocEnd = word;
      continue;
    }
    // Only lines of sane length, and the first few hundred judged (command lines among them), are: the shapes must
    // not cost a daemon handed megabytes of code a second of its time.
    if (line.length > MAX_SHAPE_LINE) continue;
    if (judged++ === MAX_SHAPE_LINES) break;
    if (COMMAND_LINE.test(line)) continue;
    const unquoted = line.replace(QUOTED, "''");
    if (!EXPANSION.test(unquoted)) kept.push(unquoted);
  }
  return kept.join("\n");
}

/**
 * The environment whose language the code is plainly written in (CODE_SHAPES), if one is; `only`:
 * by a sign of that language alone, not a line Python and Node share.
 */
export function writtenFor(environments: Map<string, Environment>, code: string, { only = false } = {}): Environment | undefined {
  const own = ownLines(code);
  const lines = own.split("\n");
  const language =
    CODE_SHAPES.find(({ shape, line }) => shape.test(own) || (line !== undefined && lines.some(line))) ??
    (only ? undefined : CODE_SHAPES.find(({ shared }) => shared?.test(own)));
  return [...environments.values()].find((env) => env.interpreter === language?.interpreter);
}

const MAIN_PACKAGES = 6;

/** Project access, network and limits of an environment, in a few words each. */
function settingsOf(env: Environment, cap: ProjectAccess): string[] {
  const access = cappedAccess(env.projectAccess, cap);
  return [
    `/project ${access === "none" ? "absent" : access}`,
    describeNetwork(env.network),
    `${env.limits.timeoutSeconds} s`,
    `${env.limits.memoryMb} MB`,
  ];
}

/**
 * The environments for a tool description: a heading, then one line each with name, description
 * (or main packages), interpreter and the settings that differ. Settings every environment shares
 * are said once in the heading, since each line costs an agent bytes on every turn.
 */
export function describeEnvironments(environments: Iterable<Environment>, cap: ProjectAccess): string {
  const rows = [...environments].map((env) => ({ env, settings: settingsOf(env, cap) }));
  const [first, ...others] = rows;
  const shared = first && others.length > 0 ? first.settings.filter((fact) => others.every((row) => row.settings.includes(fact))) : [];
  const lines = rows.map(({ env, settings }) => {
    // The description names what matters; the package list only when there is none.
    const packages = env.packages.map((p) => p.name);
    const shown = packages.slice(0, MAIN_PACKAGES).join(", ") + (packages.length > MAIN_PACKAGES ? ", …" : "");
    const facts = [env.interpreter, ...settings.filter((fact) => !shared.includes(fact))];
    return `- ${env.name}: ${env.description || shown || "(no description)"} (${facts.join(", ")})`;
  });
  return [shared.length > 0 ? `Environments (all ${shared.join(", ")}):` : "Environments:", ...lines].join("\n");
}
