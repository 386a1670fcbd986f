// The language a language's tool says it is for: "Extremely fast Python linter", "Formatter for
// Haskell source code". A "c++ lsp" query then ranks nixd ("Nix language server interoperating with
// C++ nix", Nix's, naming C++ in passing) below ccls ("C/c++ language server"). Each entry is one
// language as people write it; a family shares its tools (a JavaScript linter lints TypeScript, a
// shell one bash, a C one C++). The index builder and the search read the same list.
import { madeInClauses, stem, textWords } from "./text.js";

const LANGUAGES: readonly (readonly string[])[] = [
  ["python", "py"],
  ["javascript", "typescript", "ts", "jsx", "tsx", "node", "nodejs"],
  ["c", "c++", "cpp"],
  ["shell", "bash", "sh"],
  ["css", "scss", "sass", "less"],
  ["yaml", "yml"],
  ["markdown", "md"],
  ["latex", "tex"],
  ["terraform", "hcl", "tf"],
  ["dockerfile", "docker"],
  ["protobuf", "proto"],
  ["verilog", "systemverilog"],
  ["matlab", "octave"],
  ..."go rust java kotlin scala haskell ocaml elixir erlang ruby php perl lua r julia swift dart nix sql toml json html xml zig nim clojure f# c# graphql cmake fortran cuda solidity vue svelte ansible helm kubernetes lisp racket scheme crystal odin gleam elm purescript idris coq agda prolog vhdl tcl powershell fish zsh jsonnet starlark nickel dhall cue asciidoc rst awk haxe groovy"
    .split(" ")
    .map((language) => [language]),
];
/** Each way of writing a language, to the first of its family. */
const FAMILY_OF = new Map(LANGUAGES.flatMap((family) => family.map((name) => [name, family[0]!] as const)));
/** A family's spellings, by its first. */
const SPELLINGS = new Map(LANGUAGES.map((family) => [family[0]!, family]));
/** The kinds of tool that are a language's, as text words (phrases.ts: "language server" is lsp, "pretty printer" formatter). */
const TOOL_WORDS = new Set([
  "formatter",
  "formatters",
  "linter",
  "linters",
  "lsp",
  "debugger",
  "debuggers",
  "profiler",
  "profilers",
  "manager",
  "managers",
]);
/** Words between a language and its tool: "Haskell source code formatter", "Shell script linter". */
const BETWEEN = new Set(["code", "source", "script", "scripts", "file", "files"]);

/** Words after a tool's kind that the language may follow: "lsp implementation for TypeScript", "linters runner for Go". */
const AFTER_TOOL = new Set(["implementation", "plugin", "extension", "wrapper", "frontend", "runner"]);

/** The language family a word names, if any. */
export const languageFamily = (word: string): string | undefined => FAMILY_OF.get(word);

/** Whether description terms (descriptionTerms) name the language of this family, however it is written. */
export function termsNameLanguage(terms: ReadonlySet<string>, family: string): boolean {
  return (SPELLINGS.get(family) ?? [family]).some((name) => terms.has(stem(name)));
}

/** The language families a description names a tool for: before the tool ("C/c++ language server") or after it ("linter for YAML files"). */
export function toolLanguages(description: string): string[] {
  const words = textWords(description);
  const found = new Set<string>();
  words.forEach((word, i) => {
    if (!TOOL_WORDS.has(word)) return;
    let at = i - 1;
    while (at >= 0 && BETWEEN.has(words[at]!)) at--;
    for (; at >= 0 && FAMILY_OF.has(words[at]!); at--) found.add(FAMILY_OF.get(words[at]!)!);
    // "linter for YAML files", "lsp implementation for TypeScript".
    const next = AFTER_TOOL.has(words[i + 1]!) ? i + 2 : i + 1;
    if (words[next] !== "for" && words[next] !== "of") return;
    const after = words[next + 1] === "the" ? words[next + 2] : words[next + 1];
    if (after && FAMILY_OF.has(after)) found.add(FAMILY_OF.get(after)!);
  });
  return [...found];
}

/** The clauses of a text saying a language it is made in: "written in Rust", "Go-based", not "built in a day" or "web-based". */
const languageClauses = (text: string) => madeInClauses(text).filter(({ word }) => languageFamily(word) !== undefined);

/** The language families a text says a package is made in ("written in Rust", "Go-based"). */
export function implementationLanguages(text: string): string[] {
  return [...new Set(languageClauses(text).map(({ word }) => languageFamily(word)!))];
}

/** The text without what it says of the language a package is made in ("task runner written in rust": "task runner"). */
export function withoutImplementation(text: string): string {
  return languageClauses(text)
    .reduce((rest, { clause }) => rest.replace(clause, " "), text)
    .replace(/\s+/g, " ")
    .trim();
}
