// A language's tools are named after it and their kind: gofmt, ocamlformat, yamllint, pylsp,
// elixir-ls, clang-format, rustc, tsc. "<language> <kind of tool>" asks for such a name whatever the tool's
// description says ("Stricter gofmt" says neither go nor formatter); these are the names it gives.
import { PROGRAM_WORDS, textTerms } from "./text.js";
import { languageFamily } from "./tool-languages.js";

/** How languages are shortened in tool names. Not Rust's "rs": no Rust tool is named so, and rslint is a JavaScript linter. */
const LANGUAGE_FORMS: Record<string, readonly string[]> = {
  python: ["py"],
  javascript: ["js", "es"],
  typescript: ["ts", "es"],
  haskell: ["hs"],
  markdown: ["md"],
  shell: ["sh"],
  bash: ["sh"],
  ruby: ["rb"],
  kotlin: ["kt"],
  erlang: ["erl"],
  scss: ["sass"],
  c: ["clang"],
  "c++": ["clang"],
  cpp: ["clang"],
  terraform: ["tf"],
  kubernetes: ["kube", "k8s"],
  yaml: ["yml"],
};
/** A short form a language is written as ("ts", "py", "md"), to the first language listed with it; longer forms (clang, sass) are names of their own. */
const LANGUAGE_OF_SHORT_FORM = new Map<string, string>();
for (const [language, forms] of Object.entries(LANGUAGE_FORMS)) {
  for (const form of forms) if (form.length <= 3 && !LANGUAGE_OF_SHORT_FORM.has(form)) LANGUAGE_OF_SHORT_FORM.set(form, language);
}
/** How each kind of tool is named. */
const KIND_FORMS: Record<string, readonly string[]> = {
  formatter: ["fmt", "format", "formatter"],
  linter: ["lint", "linter"],
  lsp: ["lsp", "ls", "pls", "langserver", "languageserver"],
  debugger: ["dbg", "debug", "debugger"],
  compiler: ["c", "compiler"],
};

/** The kinds of tool a language's tools are named after. */
export const KINDS_NAMED: ReadonlySet<string> = new Set(Object.keys(KIND_FORMS));

/** What a verb asks for: "format go code" is a Go formatter, "lint markdown" a Markdown linter. */
const KIND_OF_VERB: Record<string, string> = { format: "formatter", lint: "linter", debug: "debugger", compile: "compiler" };

/** Words that say nothing of which language or kind ("rust code formatter", "shell script linter"), besides stopwords. */
export const FILLER: ReadonlySet<string> = new Set([
  ...PROGRAM_WORDS,
  ..."code source script scripts file files manifest manifests config configs".split(" "),
]);

/**
 * The names of "<language> <kind>" (or "<kind> for <language>", "<verb> <language> code"), or none. Within a longer name
 * (markdownlint-cli) only the distinctive ones count: a kind of three letters or more (rustls is TLS).
 */
export function kindNames(words: readonly string[], { withinName = false } = {}): string[] {
  // A verb leads ("format go code"); later, "format" is a noun ("image format").
  const said = words
    .filter((word) => !FILLER.has(word) && textTerms(word).length > 0)
    .map((word, i) => (i === 0 && KIND_OF_VERB[word]) || word);
  // Two kinds at once ("protobuf linter and formatter") ask for either.
  if (said.length === 3 && KIND_FORMS[said[1]!] && KIND_FORMS[said[2]!]) {
    return [...kindNames([said[0]!, said[1]!], { withinName }), ...kindNames([said[0]!, said[2]!], { withinName })];
  }
  if (said.length !== 2) return [];
  const [language, kind] = KIND_FORMS[said[1]!] ? (said as [string, string]) : ([said[1], said[0]] as [string, string]);
  const kinds = KIND_FORMS[kind]?.filter((suffix) => !withinName || suffix.length >= 3);
  if (!kinds || KIND_FORMS[language]) return [];
  const languages = [language, ...(LANGUAGE_FORMS[language] ?? [])].map((form) => form.replace(/[^a-z0-9]/g, ""));
  return languages.flatMap((form) => kinds.map((suffix) => form + suffix));
}

/** Kinds of tool as agents shorten them after a language ("markdown lint", "go fmt", "python linting"). */
const KIND_OF_SHORT_FORM: Record<string, string> = { lint: "linter", linting: "linter", fmt: "formatter" };

/**
 * The words of a query asking for a language's tool with the language and the kind spelled out ("ts lint": typescript
 * linter; "sh" is shell, bash's too) and a language family named once ("js/ts formatter", "c/c++ lsp" ask for one
 * tool); or the words as they are when it asks for none: "ts" alone is moreutils' ts, "fmt" a formatting library,
 * "ts alternative" another ts.
 */
export function languageToolSpelledOut(words: readonly string[], toolKinds: ReadonlySet<string>): string[] {
  const spelled = words.map((word) => LANGUAGE_OF_SHORT_FORM.get(word) ?? KIND_OF_SHORT_FORM[word] ?? word);
  const isLanguage = (word: string) => languageFamily(word) !== undefined;
  const asksForTool =
    words.some((word) => toolKinds.has(word)) || (spelled.some((word) => toolKinds.has(word)) && spelled.some(isLanguage));
  if (!asksForTool) return [...words];
  const firstOfFamily = (word: string, i: number) =>
    !isLanguage(word) || spelled.findIndex((other) => languageFamily(other) === languageFamily(word)) === i;
  return spelled.filter(firstOfFamily);
}

/** The words with a leading verb read as the kind of tool it asks for, when the query is "<verb> <language> [code]" ("format go code"). */
export function verbAsKind(words: readonly string[]): string[] {
  const kind = KIND_OF_VERB[words[0] ?? ""];
  return kind && kindNames(words).length > 0 ? [kind, ...words.slice(1)] : [...words];
}
