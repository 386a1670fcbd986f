// How names and descriptions become search terms. The index builder and the search use the same
// functions, so a query word and a description word meet exactly when their stems are equal.
import { joinPhrases } from "./phrases.js";

/**
 * Words that say nothing of a package: function words, words of relation and quantity ("between two hosts",
 * "per process"), the light verbs agents lead with ("show listening ports", "take a screenshot") and the
 * words of asking ("how do I", "best way to", "I would like to") and of saying how much ("really fast", "blazingly fast").
 */
const STOPWORDS = new Set(
  "a an and are as at be by can for from how i in into is it its me my of on or some that the their this to use using want with which what i'm need get show take see between two per every few each via over than do does best way would like should could recommend recommended suggest lets helps looking after before during while until then also them they there these those so too very really extremely incredibly blazing blazingly insanely truly quite up".split(
    " ",
  ),
);

/** Whether a word says nothing of a package (STOPWORDS). */
export const isStopword = (word: string): boolean => STOPWORDS.has(word);

/**
 * Words that say only that a program is wanted, what for or how good ("cli tool to …", "a program that …", "… on linux",
 * "… for my project", "a fast, simple, open source tool to …"): every package is one, or says so of itself, so a
 * package's own use of them ranks it, but a query's other words are covered without them.
 */
export const PROGRAM_WORDS: ReadonlySet<string> = new Set(
  "cli tool tools program programs utility utilities app application software linux project projects repo repository codebase simple modern lightweight fast opensource small minimal easy".split(
    " ",
  ),
);
/** Those of them that name a program ("haskell build tool", "a cli to …"), which no library is. */
export const PROGRAM_NOUNS: ReadonlySet<string> = new Set("cli tool tools program programs utility utilities app application".split(" "));

/** Lower-case words of a name, split at separators, camelCase and letter/digit boundaries. */
export function nameWords(name: string): string[] {
  const spaced = name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/([a-zA-Z])([0-9])/g, "$1 $2")
    .replace(/([0-9])([a-zA-Z])/g, "$1 $2")
    .toLowerCase();
  return spaced.split(/[^a-z0-9]+/).filter((word) => word.length > 0);
}

/** The whole name in the form exact lookups use: lower case, separators kept. */
export function normalizeName(name: string): string {
  return name.trim().toLowerCase();
}

/** The name with every separator removed ("yq-go" → "yqgo"), so "yq go" and "yqgo" meet it. */
export function squashName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, "");
}

/** Lower-case words of free text, known phrases joined ("language server" → "lsp"). */
export function textWords(text: string): string[] {
  return joinPhrases(text)
    .split(/[^a-z0-9+#]+/)
    .map(withoutEdgeMarks)
    .filter((word) => word.length > 0);
}

/** "#includes" is includes, "++" nothing; but c++, c# and f# are languages. */
function withoutEdgeMarks(word: string): string {
  return word === "c++" || word === "c#" || word === "f#" ? word : word.replace(/^[+#]+|[+#]+$/g, "");
}

/** Stemmed words of free text, stopwords dropped. */
export function textTerms(text: string): string[] {
  const terms: string[] = [];
  for (const word of textWords(text)) {
    if (!STOPWORDS.has(word)) terms.push(stem(word));
  }
  return terms;
}

/** "GNU Compiler Collection, version 14.3.0": which release it is, not what it is about. */
const VERSION_NUMBER = /\bversion\s+v?[0-9][\w.]*/gi;

/** "Zero-configuration", "non-containerized", "daemon-less": what a package does without. */
const LACKS = /\b(?:non|zero|no)-[a-z]+|\b[a-z]+-less\b/gi;

const IMPLEMENTED_IN =
  /\b(?:written|implemented|made|built|coded)(?: entirely)? in (?:(?:pure|modern|safe|portable|posix|ansi|plain|standard|native|idiomatic) )*([\w#+]+)/gi;
/** "Rust-based", "Go-based": what it is made of too, when the word is a language's (tool-languages.ts). */
const BASED_ON = /\b([\w#+]+)-based\b/gi;

/** Each clause of a text saying what a package is made in ("written in pure Rust", "Rust-based"), with its last word. */
export function madeInClauses(text: string): { clause: string; word: string }[] {
  return [...text.matchAll(IMPLEMENTED_IN), ...text.matchAll(BASED_ON)].map((match) => ({
    clause: match[0],
    word: match[1]!.toLowerCase(),
  }));
}

/**
 * The terms of what a description says a package does. "Written in Rust" says what it is made of,
 * not what it is for: such a clause would make every tool written in Rust an answer to "rust lsp";
 * what it does without ("zero-configuration") is not what it is for either.
 */
export function descriptionTerms(description: string): string[] {
  const terms = textTerms(description.replace(IMPLEMENTED_IN, " ").replace(VERSION_NUMBER, " ").replace(LACKS, " "));
  // A name with its version ("SSHv2", "GTK4", "Python3", "SQLite3") says the name too.
  return terms.flatMap((term) => {
    const match = VERSIONED_NAME.exec(term);
    const base = match?.[1] ?? match?.[2];
    return base ? [term, stem(base)] : [term];
  });
}

/**
 * A word of three letters or more followed by a version, with or without a v: sshv2, gtk4, python3 (not mp3, x264 or
 * ipv6, whose letters before the version are no word of three).
 */
const VERSIONED_NAME = /^(?:([a-z]{3,})v|([a-z]{2,}[a-uw-z]))[0-9]+$/;

/**
 * Names of kinds of tool that the stemmer keeps whole, with the stem of the word they come from: a
 * description's "formats" (of data) are not a formatter, nor is "debug output" a debugger.
 * Names still match the shorter form ("ocamlformat").
 */
export const TOOL_NOUNS: ReadonlyMap<string, string> = new Map([
  ["formatter", "format"],
  ["debugger", "debug"],
]);

/** Nouns that losing -er would make another word: a container is not "self-contained", Docker no dock. */
const KEPT_WHOLE = new Set(["container", "docker"]);

/**
 * A light suffix stripper (in the spirit of Porter's first steps): plurals, -ing/-ed, -ation/-ate, -ersion/-ert,
 * -er, final -e and -y, -ize, adverbs' -ly, so "images"/"imaging"/"image" and "library"/"libraries" meet.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /[0-9]/.test(word)) return word;
  let w = word;
  if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (TOOL_NOUNS.has(w) || KEPT_WHOLE.has(w)) return w;
  // An adverb of these endings is its adjective: "losslessly" lossless, "locally" local, "automatically" automatic,
  // "securely" secure (not "assembly" or "readonly"; "easily" and "directly" keep theirs).
  if (w.length > 6) w = w.replace(/ically$/, "ic").replace(/(al|ss|ck|nt|ous|e)ly$/, "$1");
  // "searchable" is searched, "executable" executed; a short one is a word of its own ("portable" is no port).
  if (w.length > 8 && /[ai]ble$/.test(w)) w = w.slice(0, -4);
  if (w.length > 7 && w.endsWith("ation")) w = w.slice(0, -5);
  else if (w.length > 7 && w.endsWith("ersion")) w = `${w.slice(0, -4)}t`;
  else if (w.length > 6 && w.endsWith("ate")) w = w.slice(0, -3);
  else if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  else if (w.length > 5 && /[^aeiou]er$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 5 && w.endsWith("ier")) w = w.slice(0, -2);
  else if (w.length > 6 && w.endsWith("ion") && /(ss|pt|ct)ion$/.test(w)) w = w.slice(0, -3);
  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith("y")) w = `${w.slice(0, -1)}i`;
  if (w.length > 3 && /([^aeiouslz])\1$/.test(w)) w = w.slice(0, -1);
  // "parallelize" does in parallel; "optimizer" and "optimization" are one stem.
  if (w.length > 5 && w.endsWith("iz")) w = w.slice(0, -2);
  return w;
}
