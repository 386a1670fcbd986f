// What a query asks for, read before any package is scored: whole names it may be, the words to
// match, the ecosystems it names, the tool it asks for a kind of ("zig lsp") or does not want
// ("without docker"), and the names a converter or a language's tool would have.
import { NixpkgsError } from "../errors.js";
import { FLAG } from "../index/build.js";
import type { NixpkgsIndex } from "../index/index.js";
import {
  DOCUMENT_ECOSYSTEM_WORDS,
  ECOSYSTEM_WORDS,
  plainPname,
  SET_SUFFIXES,
  SUBJECT_ECOSYSTEM_WORDS,
  withoutInstallable,
} from "../index/package-sets.js";
import { STANDING_IN } from "./alternatives.js";
import { whatIsAsked } from "./asking.js";
import { conversionNames, conversionsAsked, formatsSpelledOut, reverseConversionNames, unpackerNames } from "./conversions.js";
import { FILLER, KINDS_NAMED, kindNames, languageToolSpelledOut, verbAsKind } from "./kind-names.js";
import { normalizeName, PROGRAM_NOUNS, PROGRAM_WORDS, squashName, stem, textTerms, textWords } from "./text.js";
import { joinPhrases } from "./phrases.js";
import { withTyposMended } from "./spelling.js";
import { implementationLanguages, languageFamily, withoutImplementation } from "./tool-languages.js";

/** Words asking for a tool that works on something, or for another than the one named: "kotlin linter" wants the linter, not Kotlin; "sed alternative" not sed. */
const TOOL_KINDS = new Set(["formatter", "linter", "lsp", "debugger", "profiler", "manager", "alternative", "replacement"]);
/** Kinds of tool made for a language: what a word before them names is a language (alternatives are to any tool). */
const LANGUAGE_TOOL_KINDS = new Set([...TOOL_KINDS].filter((kind) => kind !== "alternative" && kind !== "replacement"));
/** Kinds of tool a language's own toolchain often is: go fmt, zig fmt, terraform fmt, dart format, mix format; go tool pprof. */
const TOOLCHAIN_KINDS = new Set(["formatter", "profiler"]);
/**
 * Words asking for another tool than one named (alternatives.ts): where the tool is no package ("photoshop
 * alternative"), they cost nothing to miss, or every package that calls itself an alternative to anything (fd, sd) would match.
 */
const STANDING_IN_WORDS: ReadonlySet<string> = new Set(STANDING_IN);
/**
 * Nouns of doing, which tell tools apart only with what they act on before them: in "python image processing
 * library" the image is the subject, and pillow ("Python Imaging Library") no less meant for not saying processing.
 */
const ACTIVITY_NOUNS = new Set(["processing", "manipulation", "handling", "management"]);
/** Words asking for an interface to a tool ("git tui", "gui for postgres"), which the tool named rarely is itself... */
const INTERFACE_WORDS = new Set(["tui", "gui", "ui", "frontend"]);
/** ...as an interface says of itself. */
const INTERFACE_SAID = ["tui", "gui", "ui", "interface", "frontend", "graphical"];
/**
 * Words asking for something shown on a display: an interface, an app, a viewer, a desktop's. Without one, a package
 * that calls itself a GUI is rarely meant, as an agent runs programs in a jail without a display (search.ts).
 */
const DISPLAY_WORDS = new Set([
  ...INTERFACE_SAID,
  ...["desktop", "app", "apps", "application", "applications", "window", "windows", "viewer", "editor", "ide"],
  ...["gtk", "qt", "kde", "gnome"],
]);
/**
 * Words before a tool's name asking for a variant of it ("parallel gzip": pigz, "modern ls": eza), which the tool is only
 * if it says so, in one of the words that say the same.
 */
const PARALLEL = ["parallel", "multithreaded", "multi-threaded", "multicore", "multi-core", "concurrent"];
const COLORFUL = ["colorful", "colourful", "color", "colour", "colors", "colours"];
const VARIANT_WORDS: Readonly<Record<string, readonly string[]>> = {
  parallel: PARALLEL,
  multithreaded: PARALLEL,
  multicore: PARALLEL,
  concurrent: PARALLEL,
  graphical: INTERFACE_SAID,
  colorful: COLORFUL,
  colourful: COLORFUL,
  modern: ["modern"],
};
/**
 * Words saying that what they follow is a program's name ("watch command"); not "cli" or "tool", with which an agent
 * asks for the command-line one of an application ("1password cli", "wireshark command line").
 */
const PROGRAM_LABELS: ReadonlySet<string> = new Set(["command", "commands"]);
/** Words asking for a release of what is named ("jq latest version"), not for a package that says them (nss_latest, lastversion). */
const RELEASE_WORDS = new Set(["latest", "newest", "stable"]);
/** A name of a word or two and the release asked of it ("postgres 15", "python 3.11", "node v20" read as "node 20"). */
const RELEASE_ASKED = /^[a-z][a-z0-9+#.-]*(?:\s+[a-z][a-z0-9+#.-]*)?\s+(\d+(?:\.\d+)*)$/;
/**
 * Words of how a question is put ("which process has this file open", "check if a port is open"): no word to match,
 * as stopwords are not, or "has" finds hashcat by its name's start. Not stopwords of descriptions, whose indexed lengths
 * would shift every ranking for nothing: no query asks for them. Alone, a word is still a name ("has" is a package).
 */
const ASKING_ONLY = new Set("has have had was were been being will you your our we if where whether am".split(" "));
/** Words asking for a library, which an everyday program is not. */
const LIBRARY_WORDS = new Set(["library", "libraries", "lib", "binding", "bindings", "sdk"]);
/** ...of them, those asking for a language's bindings of something ("python rpm bindings"). */
const BINDING_WORDS = new Set(["binding", "bindings"]);
/** ...and words of what a library provides, which a lib* package may be ("x11 headers"), as may a program ("inspect elf headers"). */
const LIBRARY_PART_WORDS = new Set([...LIBRARY_WORDS, "api", "header", "headers"]);
/** An ecosystem's own words for a library, asking for one beside its language ("perl module", "ruby gem", "python framework"). */
export const ECOSYSTEM_LIBRARY_WORDS = new Set(["module", "modules", "gem", "gems", "crate", "crates", "framework", "frameworks"]);

/** What a query asks for, before any package is scored. */
export interface ParsedQuery {
  /** The query without installable syntax. */
  text: string;
  /** Whole names the query may be, all of it ("ripgrep", "yq go"). */
  wholeKeys: Set<string>;
  /** Whole names once the ecosystem is named ("python requests" → "requests"): only that ecosystem's packages. */
  subjectKeys: Set<string>;
  /** Words matched against names and descriptions. */
  contentWords: string[];
  /** Words naming an ecosystem ("python"): its packages match them, and so does a description saying them. */
  ecosystemWords: string[];
  /** Families the query names ("python …", "python3Packages …"). */
  familyIds: Set<number>;
  /** In "<subject> <tool kind>" ("zig lsp"): the subject words. */
  subjectOfTool: string[];
  /** In "<subject> <tool kind>" for a language ("nix linter"): the kinds asked, and the other kinds, which a tool saying only them is not ("Official formatter for Nix code"). */
  toolKinds: { asked: string[]; others: string[] };
  /** The language families the subject names ("c++ lsp": c), whose tools are meant rather than another language's. */
  languagesAsked: string[];
  /** Names whose own packages are not what is asked for: zig is no Zig LSP, but does format Zig ("zig fmt"); a package named formatter is no Haskell formatter. */
  subjectNotMeant: string[];
  /** Names of tools the query does not want ("without docker"). */
  unwanted: string[];
  /** In "<tool> for <use>" ("jq for yaml"): the tool, meant only if its words or others' words of it say the use too ("vault for secrets"). */
  toolForUse?: { name: string; use: string[] };
  /**
   * A kind of the tools named that the query asks for, an interface to them ("terminal ui for kubernetes") or a variant
   * ("parallel gzip"): those tools are meant only if their descriptions say it ("lazygit tui" is still lazygit).
   */
  kindOfNamed?: { names: string[]; says: readonly string[] };
  /** Per content word, the words it makes with a neighbour that a description or a name has ("digital ocean": digitalocean; "hex dump": hexdump), the program whose file it is (makefile: make), or the word asked as its alternative ("c or c++": c++). */
  compounds: Map<string, string[]>;
  /** Names a converter doing the opposite of the conversion asked starts with ("markdown2html"). */
  reversedKeys: string[];
  /** Whether the query asks for a library ("c json library", "libxml2 bindings"). */
  asksForLibrary: boolean;
  /** Whether it asks for a language's bindings of something ("python rpm bindings"). */
  asksForBindings: boolean;
  /** Whether it asks for a program in so many words ("haskell build tool", "cli to …"). */
  asksForProgram: boolean;
  /** Whether it asks for something shown on a display ("pdf viewer", "gui for git"). */
  displayAsked: boolean;
  /** The release a name is asked in ("postgres 15", "java 17", "python 3.11"): which of its versions shows. */
  release?: string;
  /** Whether it is a language's name alone ("rust", "haskell"): the language itself, not an editor's plugin for it. */
  languageAlone: boolean;
  /** The language families it asks a package be made in ("written in rust", "go-based"). */
  madeIn: string[];
  /** Whether it may mean one, asking for what a library provides too ("x11 headers"). */
  libraryMayBeMeant: boolean;
  /** Names of a converter or a language's tool, also matched as a word of a longer name (markdownlint-cli). */
  conventionKeys: string[];
  /**
   * Content words that cost nothing to miss, when the query has others: those that only say a program is wanted
   * (PROGRAM_WORDS), a version ("node 22"), what a language's tool works on ("formatter for xml code"), and a file
   * another word already says the kind of ("a pdf file": fileOfKind).
   */
  programWords: string[];
  /** Content words that cost half to miss: a noun of doing after what it acts on ("image processing": ACTIVITY_NOUNS). */
  activityWords: string[];
}

/**
 * Whether a word is a file whose kind the word before it says ("the text out of a pdf file", "view log files"): the
 * pdf is the file, and a tool for it need not say "file". Not after a query's first word, mostly the verb whose object
 * files are ("copy files to a server", "share files").
 */
function fileOfKind(tokens: readonly string[], word: string): boolean {
  const at = tokens.indexOf(word);
  return (word === "file" || word === "files") && at > 1 && textTerms(tokens[at - 1]!).length > 0;
}

/** Words asking for an ecosystem's own packages ("latex package for tables", "typst template"). */
const PACKAGE_WORDS = new Set([
  ...LIBRARY_WORDS,
  ...ECOSYSTEM_LIBRARY_WORDS,
  "package",
  "packages",
  "template",
  "templates",
  "style",
  "styles",
]);

/**
 * A document language's word in a task is what the tool works on, not where to look: "compile a latex document to
 * pdf" asks for a TeX engine, not one of CTAN's styles, which any two words ("latex beamer", "latex linter") may name.
 */
function documentOnly(word: string, words: readonly string[]): boolean {
  return DOCUMENT_ECOSYSTEM_WORDS.has(word) && words.length > 2 && !words.some((w) => PACKAGE_WORDS.has(w));
}

/** The families a query word names: by the usual word ("python", "pip"), or as nixpkgs calls its set ("elm", "tmux"). */
function familiesNamedBy(index: NixpkgsIndex, word: string): number[] {
  const usual = (ECOSYSTEM_WORDS[word] ?? []).map((family) => index.familyIndex(family));
  const bySetName = word.length >= 3 ? SET_SUFFIXES.map((suffix) => index.familyIndex(word + suffix)) : [];
  return [...new Set([...usual, ...bySetName])].filter((id) => id >= 0);
}

/** Whether a top-level package has this name (attribute, pname or program). */
function isTopLevelName(index: NixpkgsIndex, name: string): boolean {
  const term = index.exact.find(name);
  return term >= 0 && index.topLevelCount(index.exact, term) > 0;
}

/**
 * A command as another distribution renames it: its package's name, then what it stands in for. Debian's batcat is
 * bat ("Cat(1) clone …"), fdfind fd ("alternative to find"): a top-level name that starts the word, whose own
 * description says the rest.
 */
function renamedCommand(index: NixpkgsIndex, word: string): string[] {
  const names: string[] = [];
  for (let cut = 2; cut <= word.length - 3; cut++) {
    const [name, rest] = [word.slice(0, cut), word.slice(cut)];
    const [term, said] = [index.exact.find(name), index.descriptions.find(stem(rest))];
    if (term < 0 || said < 0) continue;
    const ids = index.exact.postings(term);
    if (ids.some((id) => index.family[id] === index.topLevelFamily && index.descriptions.lists(said, id))) names.push(name);
  }
  return names;
}

/** What a query can be: a name or a few words; a longer one would only be echoed back. */
const MAX_QUERY_CHARS = 200;

/** Refuses a query longer than that, before any of it is read: a megabyte of words would hold the server for a second. */
export function refuseLongQuery(query: string): void {
  if (query.length > MAX_QUERY_CHARS) {
    throw new NixpkgsError(
      `query is ${query.length} characters long`,
      `Pass a package name or a few words of what it does (at most ${MAX_QUERY_CHARS}).`,
    );
  }
}

/** A kind of tool asked for in the plural ("rust formatters", "haskell lsps") is asked for as one. */
const oneKind = (w: string) => {
  const one = w.slice(0, -1);
  return w.endsWith("s") && (TOOL_KINDS.has(one) || KINDS_NAMED.has(one)) ? one : w;
};

/** Words after which a query names what it does not want: "without docker", "instead of make", "friendlier than curl". */
const NEGATIONS = new Set(["without", "instead", "than"]);

/** Words that end what a negation covers ("without docker for ci": ci is wanted). */
const NEGATION_ENDS = new Set(["and", "but", "for", "in", "on", "to", "with", "using", "or"]);

/** The words worth matching after each negation, up to the next clause ("without the docker daemon": docker, daemon; "instead of make": make). */
function notWanted(words: string[]): string[] {
  const unwanted: string[] = [];
  for (const [i, w] of words.entries()) {
    if (!NEGATIONS.has(w)) continue;
    for (const after of words.slice(i + 1)) {
      if (NEGATION_ENDS.has(after) || NEGATIONS.has(after)) break;
      if (textTerms(after).length > 0) unwanted.push(after);
    }
  }
  return unwanted;
}

/** Whether a package that is not broken has this name (attribute, pname or program). */
export function isWorkingNameIn(index: NixpkgsIndex, name: string): boolean {
  const term = index.exact.find(normalizeName(name));
  return term >= 0 && index.exact.postings(term).some((id) => (index.flags[id]! & FLAG.broken) === 0);
}

/** `alternativesNamed`: whether the query names a tool it asks for another of (alternatives.ts), which these words then find. */
export function parseQuery(index: NixpkgsIndex, query: string, alternativesNamed = true): ParsedQuery {
  const isName = (name: string) => index.exact.find(normalizeName(name)) >= 0;
  const isWorkingName = (name: string) => isWorkingNameIn(index, name);
  const said = whatIsAsked(withTyposMended(index, withoutInstallable(query)), isName, isWorkingName);
  if (!said) throw new NixpkgsError("empty query", "Pass a package name or a few words of what it does, e.g. 'json processor'.");
  // "task runner written in rust" asks for a task runner made in Rust, not one about Rust.
  const madeIn = implementationLanguages(said);
  // A release is asked as "20" or as "v20" ("node v20", "aws cli v2": awscli2).
  const text = ((madeIn.length > 0 && withoutImplementation(said)) || said).replace(/(^|\s)v(\d+(?:\.\d+)*)(?=\s|$)/gi, "$1$2");
  // "make" leading a query is a light verb ("make slides from markdown"), elsewhere the tool ("run make targets"),
  // as it is before a kind of tool ("make alternative", "make alternative written in rust") or a use ("make for go").
  const lightMake = (w: string, i: number, all: string[]) =>
    i === 0 && w === "make" && all.length > 1 && !TOOL_KINDS.has(all[1]!) && all[1] !== "for";
  const conversionsNamed = conversionsAsked(text);
  // The query's words in order, as written; allWords has each once.
  const tokens = formatsSpelledOut(conversionsNamed, textWords(text)).map(oneKind);
  const allWords = [...new Set(tokens)].filter((w, i, all) => !lightMake(w, i, all));
  // "without docker", "instead of make": the tool named is the one not meant, and no word to match.
  const unwanted = notWanted(allWords);
  // "format go code" asks for a formatter as "go formatter" does, not for file formats.
  const toolAsked = verbAsKind(allWords.filter((w) => !unwanted.includes(w) && !NEGATIONS.has(w)));
  // "ts linter" asks for a TypeScript linter, not moreutils' ts; "go fmt" for a Go formatter, unless it is a library's name ("c++ fmt library").
  const words = toolAsked.some((w) => LIBRARY_WORDS.has(w)) ? toolAsked : languageToolSpelledOut(toolAsked, LANGUAGE_TOOL_KINDS);
  // Ecosystem words: "python", or a set's own name ("python3Packages pandas").
  const namesSet = (w: string) => SET_SUFFIXES.some((suffix) => w.includes(suffix.toLowerCase()));
  const familyWords = new Map(words.map((w) => [w, namesSet(w) ? index.familyIndex(w) : -1]));
  // Beside an ecosystem that is a subject too, the first named is where to look, the other what about:
  // "python library for postgres" is Python's, "postgres extension for python" PostgreSQL's.
  const familiesOf = new Map(words.map((w) => [w, documentOnly(w, words) ? [] : familiesNamedBy(index, w)]));
  const ecosystemsNamed = words.filter((w) => familiesOf.get(w)!.length > 0);
  const onlyFirst = ecosystemsNamed.length > 1 && ecosystemsNamed.some((w) => SUBJECT_ECOSYSTEM_WORDS.has(w));
  const ecosystems = new Map(words.map((w) => [w, onlyFirst && w !== ecosystemsNamed[0] ? [] : familiesOf.get(w)!]));
  const namesEcosystem = (w: string) => ecosystems.get(w)!.length > 0;
  // Only a release beside an ecosystem's word ("node 22", "java 21", "latest python"): the word names its runtime, not its packages.
  const isNumber = (w: string) => /^\d+$/.test(w);
  const releaseNamed = words.some((w) => isNumber(w) || RELEASE_WORDS.has(w));
  const isRelease = (w: string) => isNumber(w) || RELEASE_WORDS.has(w) || (releaseNamed && w === "version");
  const ofSet = (w: string) => namesEcosystem(w) || familyWords.get(w)! >= 0;
  const runtimeAsked = releaseNamed && words.some(namesEcosystem) && words.every((w) => namesEcosystem(w) || isRelease(w));
  const subjectWords = runtimeAsked ? words : words.filter((w) => !ofSet(w));
  const keysOf = (name: string) => [normalizeName(name), squashName(name), plainPname(normalizeName(name))].filter(Boolean);
  const topLevelKeysOf = (name: string) => keysOf(name).filter((key) => isTopLevelName(index, key));
  const conversions = conversionNames(conversionsNamed);
  const kinds = kindNames(words);
  // A name with its release ("jq latest version", "ffmpeg 6") is that name; "find the latest version of a project" is no release.
  const named = words.filter((w) => !isRelease(w));
  const releaseOf = named.length > 0 && named.length < words.length ? keysOf(named.join(" ")) : [];
  // ...unless the release has a name of its own ("gcc 13": gcc13), which is then the name asked.
  const textKeys = keysOf(text);
  const releaseNamedItself = textKeys.some(isName);
  const nameOfRelease = !runtimeAsked && !releaseNamedItself && releaseOf.some(isName) ? releaseOf : [];
  const releaseOfName = runtimeAsked || nameOfRelease.length > 0;
  // "watch command", "ss command": a program asked for by its name and the word that it is one.
  const unlabelled = words.filter((w) => !PROGRAM_LABELS.has(w) && textTerms(w).length > 0);
  const labelledName = unlabelled.length > 0 && words.some((w) => PROGRAM_LABELS.has(w)) ? topLevelKeysOf(unlabelled.join(" ")) : [];
  // A name's usual other spelling is that name: golang is go, k8s kubernetes. Not a phrase's short form
  // ("version control system" is no vcs, a video tool), nor a name only a set's member has (db is no octavePackages.database).
  const spelt = joinPhrases(text);
  const respelt = !/\s/.test(text) && spelt !== text.toLowerCase() ? topLevelKeysOf(spelt) : [];
  const renamed = !/\s/.test(text) && !isName(text) ? renamedCommand(index, squashName(text)) : [];
  // GNU's tools are named with it or without it: "gnu sed" is gnused, "gnu parallel" parallel.
  const ofGnu = /^gnu\s+\S+$/i.test(text) ? topLevelKeysOf(text.replace(/^gnu\s+/i, "")) : [];
  const wholeKeys = new Set([...textKeys, ...respelt, ...renamed, ...nameOfRelease, ...labelledName, ...conversions, ...kinds, ...ofGnu]);
  // Not when the rest is a kind of tool: "haskell lsp" asks for Haskell's language server, not the library named lsp.
  const namesSubject = subjectWords.length < words.length && !subjectWords.every((w) => TOOL_KINDS.has(w));
  const subjectKeys = new Set(namesSubject ? keysOf(subjectWords.join(" ")).filter((key) => !wholeKeys.has(key)) : []);
  const meaningful = (w: string) => (textTerms(w).length > 0 && !ASKING_ONLY.has(w)) || words.length === 1;
  // Which release of it is asked for says nothing of which package: nss_latest and lastversion are no answer to "latest python".
  const asked = (subjectWords.length > 0 ? subjectWords : words).filter((w) => meaningful(w) && !(releaseOfName && isRelease(w)));
  // "c or c++", "mobi or azw3": either is what is asked, one word to cover, which the second matches as the first's alternative.
  const alternatives = eitherOf(tokens, asked);
  const contentWords = asked.filter((w) => !alternatives.has(w));
  // Asked for a language's tool ("formatter for xml code"), the code is what any such tool works on.
  const programWords = contentWords.filter(
    (w) =>
      PROGRAM_WORDS.has(w) ||
      isRelease(w) ||
      fileOfKind(tokens, w) ||
      (kinds.length > 0 && FILLER.has(w)) ||
      (!alternativesNamed && STANDING_IN_WORDS.has(w)),
  );
  const activityWords = contentWords.filter((w) => ACTIVITY_NOUNS.has(w) && contentWords.includes(tokens[tokens.indexOf(w) - 1] ?? ""));
  const forUse = toolForUse(words, asked, isName);
  const { kind: kindOfTool, variantWord } = kindOfNamed(words, isName);
  const asksForTool = words.length > 1 && words.some((w) => TOOL_KINDS.has(w));
  const asksForLibrary =
    words.some((w) => LIBRARY_WORDS.has(w)) ||
    (!asksForTool && words.some(namesEcosystem) && words.some((w) => ECOSYSTEM_LIBRARY_WORDS.has(w)));
  const subjectOfTool = asksForTool ? words.filter((w) => !TOOL_KINDS.has(w)) : [];
  return {
    text,
    wholeKeys,
    subjectKeys,
    contentWords,
    ecosystemWords: subjectWords.length > 0 && !runtimeAsked ? words.filter((w) => namesEcosystem(w) && meaningful(w)) : [],
    familyIds: new Set(runtimeAsked ? [] : [...[...ecosystems.values()].flat(), ...[...familyWords.values()].filter((id) => id >= 0)]),
    subjectOfTool,
    toolKinds: kindsAsked(subjectOfTool, asked),
    languagesAsked: [...new Set(subjectOfTool.map(languageFamily).filter((family) => family !== undefined))],
    // "haskell formatter" is no elementary OS app named formatter, "ocaml lsp" no library named lsp.
    subjectNotMeant: [
      ...(words.some((w) => TOOLCHAIN_KINDS.has(w)) ? [] : subjectOfTool),
      ...words.filter((w) => subjectOfTool.length > 0 && LANGUAGE_TOOL_KINDS.has(w)),
      // "top for docker" is a top made for docker, not docker.
      ...(forUse?.use.filter(isName).map(normalizeName) ?? []),
      // "parallel gzip" is a parallel gzip, not GNU parallel.
      ...(variantWord && isName(variantWord) ? [variantWord] : []),
    ],
    unwanted,
    toolForUse: forUse,
    kindOfNamed: kindOfTool,
    compounds: withEither(compoundsOf(index, allWords, contentWords, asksForTool), alternatives),
    reversedKeys: reverseConversionNames(conversionsNamed),
    asksForLibrary,
    asksForBindings: words.some((w) => BINDING_WORDS.has(w)),
    asksForProgram: words.some((w) => PROGRAM_NOUNS.has(w)),
    languageAlone: words.length === 1 && languageFamily(words[0]!) !== undefined,
    displayAsked: tokens.some((w) => DISPLAY_WORDS.has(w)),
    release: RELEASE_ASKED.exec(text.toLowerCase())?.[1],
    madeIn,
    libraryMayBeMeant: words.some((w) => LIBRARY_PART_WORDS.has(w)),
    conventionKeys: [...conversions, ...kindNames(words, { withinName: true }), ...unpackerNames(contentWords)],
    // A library is for programs: "library for building cli apps" asks for one by them.
    programWords: programWords.length < contentWords.length && !asksForLibrary ? programWords : [],
    activityWords,
  };
}

/**
 * What kind of the tools it names a query asks for (ParsedQuery.kindOfNamed), and the word asking for a variant: a
 * variant only by a word just before the name ("run make in parallel" is make).
 */
function kindOfNamed(
  words: readonly string[],
  isName: (name: string) => boolean,
): { kind?: ParsedQuery["kindOfNamed"]; variantWord?: string } {
  if (words.some((w) => INTERFACE_WORDS.has(w))) {
    const names = words.filter((w) => !INTERFACE_WORDS.has(w) && !FILLER.has(w) && isName(w)).map(normalizeName);
    return names.length > 0 ? { kind: { names, says: INTERFACE_SAID } } : {};
  }
  const at = words.findIndex((w, i) => Object.hasOwn(VARIANT_WORDS, w) && i + 1 < words.length && isName(words[i + 1]!));
  if (at < 0) return {};
  return { kind: { names: [normalizeName(words[at + 1]!)], says: VARIANT_WORDS[words[at]!]! }, variantWord: words[at]! };
}

/** Kinds of tool one another is not: a formatter is no linter. ("manager" is too general to say.) */
const DISTINCT_KINDS = [...LANGUAGE_TOOL_KINDS].filter((kind) => kind !== "manager");

function kindsAsked(subjectOfTool: readonly string[], contentWords: readonly string[]): ParsedQuery["toolKinds"] {
  const asked = subjectOfTool.length > 0 ? contentWords.filter((w) => DISTINCT_KINDS.includes(w)) : [];
  return { asked, others: asked.length > 0 ? DISTINCT_KINDS.filter((kind) => !asked.includes(kind)) : [] };
}

/**
 * "<tool> for <use>" ("jq for yaml", "grep for pdfs", "rsync for cloud storage") asks for the tool's kind made for
 * another use (yq, pdfgrep, rclone): the tool named and its use, or none.
 */
function toolForUse(
  words: readonly string[],
  contentWords: readonly string[],
  isName: (name: string) => boolean,
): ParsedQuery["toolForUse"] {
  const [name, link, ...rest] = words;
  if (link !== "for" || !name || FILLER.has(name) || LIBRARY_PART_WORDS.has(name) || !isName(name)) return undefined;
  const use = rest.filter((w) => contentWords.includes(w));
  return use.length > 0 ? { name: normalizeName(name), use } : undefined;
}

/**
 * The words asked as another's alternative, each to the first of its chain: "lua or perl or ruby" gives perl and ruby to
 * lua. Read off the query as written, so that a word dropped in between ("without", a repeat) makes no pair.
 */
function eitherOf(tokens: readonly string[], contentWords: readonly string[]): Map<string, string> {
  const either = new Map<string, string>();
  for (let i = 1; i + 1 < tokens.length; i++) {
    const [first, second] = [tokens[i - 1]!, tokens[i + 1]!];
    if (tokens[i] !== "or" || !contentWords.includes(first) || !contentWords.includes(second)) continue;
    const root = either.get(first) ?? first;
    if (second !== root && !either.has(second)) either.set(second, root);
  }
  return either;
}

/**
 * Each alternative as one more word its chain's first word makes: matched by a name or a description as a related
 * word is, at a related word's weight, and covering the first word's share of the query in full.
 */
function withEither(compounds: Map<string, string[]>, alternatives: ReadonlyMap<string, string>): Map<string, string[]> {
  for (const [second, first] of alternatives) compounds.set(first, [...(compounds.get(first) ?? []), second]);
  return compounds;
}

/**
 * Adjacent query words that descriptions write as one ("digital ocean": DigitalOcean, "web server": webserver), and the
 * program a word names as its file (makefile: make), per word.
 */
function compoundsOf(
  index: NixpkgsIndex,
  words: readonly string[],
  contentWords: readonly string[],
  toolKindAsked: boolean,
): Map<string, string[]> {
  const compounds = new Map<string, string[]>();
  // A program's own file ("makefile", "justfile", "taskfile") is read by that program (make, just, task), unless
  // another kind of tool for it is asked ("makefile alternative", "dockerfile formatter"). Not a short word's
  // file: a dotfile is no graphviz's dot, a keyfile no KeY.
  for (const w of toolKindAsked ? [] : contentWords) {
    const program = w.endsWith("file") ? w.slice(0, -"file".length) : "";
    if (program.length >= 4 && isTopLevelName(index, program)) compounds.set(w, [program]);
  }
  for (let i = 0; i + 1 < words.length; i++) {
    if (!contentWords.includes(words[i]!) || !contentWords.includes(words[i + 1]!)) continue;
    const joined = words[i]! + words[i + 1]!;
    if (index.descriptions.find(stem(joined)) < 0 && index.names.find(joined) < 0) continue;
    for (const w of [words[i]!, words[i + 1]!]) compounds.set(w, [...(compounds.get(w) ?? []), joined]);
  }
  return compounds;
}
