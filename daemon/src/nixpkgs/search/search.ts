// Ranked search for how agents ask. A whole name ("rg", "ripgrep", "python3Packages.requests")
// ranks first; otherwise every query word scores its best match on a package (a word of its
// name, a prefix or suffix of one, or a description stem weighted by rarity), packages matching
// more of the words win, and a package set's weight says how likely it is meant. Package sets
// collapse to their newest member; broken/unfree packages and other platforms are hidden unless
// asked for.
import { NixpkgsError } from "../errors.js";
import { FLAG } from "../index/build.js";
import type { Dictionary } from "../index/dictionary.js";
import { type NixpkgsIndex, type PackageRecord, perIndex } from "../index/index.js";
import { setNamedFor, splitAttr } from "../index/package-sets.js";
import { KNOWN_OTHER_PROGRAMS } from "../index/programs.js";
import { alternativesAsked, rankAlternatives } from "./alternatives.js";
import { languageFamily } from "./tool-languages.js";
import { conversionOfName } from "./conversions.js";
import { ECOSYSTEM_LIBRARY_WORDS, isWorkingNameIn, parseQuery, refuseLongQuery } from "./query.js";
import { relatedStems } from "./synonyms.js";
import { normalizeName, squashName, stem, TOOL_NOUNS } from "./text.js";

export interface SearchOptions {
  limit?: number;
  includeBroken?: boolean;
  includeUnfree?: boolean;
  /** A Nix system ("x86_64-linux"), or "any". */
  platform?: string;
}

export type SearchResult = PackageRecord & {
  flags: string[];
  /** The same package in other versions of its set (python312Packages.x beside python313Packages.x), or in other versions and builds at top level (crystal_1_14 beside crystal). */
  alsoIn: string[];
  score: number;
};

const WEIGHT = {
  wholeName: 100,
  otherWholeName: 0.85,
  /** A converter's or a language tool's conventional name as a word of a longer one (markdownlint in markdownlint-cli). */
  conventionWord: 0.5,
  nameWord: 10,
  nameWordCloseness: 6,
  namePrefix: 6,
  nameSuffix: 5,
  descriptionStem: 1.3,
  descriptionPrefix: 0.6,
  related: 0.5,
  /** A word other packages use of it (mentions.ts). */
  context: 0.5,
  /** How much of a query word a related word or another package's word covers. */
  relatedShare: 1,
  /** ...unless the related word is one of the query's own words too ("system monitor": system), already counted for itself. */
  relatedQueryWordShare: 0.25,
  contextShare: 0.5,
  typicalWordWeight: 7,
  /**
   * How much a long description's match counts less, as BM25 weighs a document's length: a word said
   * in passing among twenty ("… with support for PDF") says less than one of four ("jq for binary formats").
   * Descriptions no longer than a typical one count fully (descriptionLengthFactors).
   */
  descriptionLength: 0.75,
  /** How much a package set's member's use of a word makes it common (wordWeights); a top-level package's counts 1. */
  setMemberUse: 0.5,
  /** Below this weight (in more than about 2% of descriptions, a set's members counting half) a word is common: see searchIndex. */
  commonWordWeight: 4,
  /** How much missing a query word costs: the score scales with the covered share to this power. */
  coverageExponent: 2,
  /**
   * ...and when a language's library is asked for ("python dataframe library"): its libraries' descriptions are terse
   * and alike ("Scientific tools for Python" is numpy), so how established one is decides more, and a word it does not
   * say less. Lowered from 2, it raised or kept every query set, the two never read among them.
   */
  libraryCoverageExponent: 1.5,
  /** How much missing a noun of doing after its subject costs ("image processing": activityWords), of a word's usual cost. */
  activityNoun: 0.5,
  /** Descriptions' uses of a word a name count must stand against: a word few packages use says little either way. */
  subjectSmoothing: 5,
  /**
   * How much of C or C++ asked for a library ("c++ formatting library") a top-level library that names no other language
   * covers without saying it: those that say it rank first. Half raised four of the blind sets and one never read, and
   * moved no query of the dev or held-out sets.
   */
  systemLanguageUnsaid: 0.5,
  /** Factor of the family the query names ("python …"). */
  namedEcosystem: 1.2,
  /** Factor of the curated everyday tools: among the many small tools a task's words match, the everyday one is usually meant. */
  common: 4,
  /** Factor of the package a "<subject> <tool kind>" query names as its subject ("zig" in "zig lsp"). */
  subject: 0.25,
  /**
   * Factor of the tool a "<tool> for <use>" query names when nothing says it has that use ("jq for yaml": jq), or one it
   * asks an interface to or a variant of that does not say it is one ("git tui": git; "parallel gzip": gzip); low enough
   * to outweigh an everyday tool's factor.
   */
  otherUse: 0.1,
  /**
   * Factor of a package of the name asked in the release asked ("python 3.13"): where no attribute names that release
   * (python313 is python3, listed as python313Packages.python), its version says it, over the everyday tools its name's
   * word matches.
   */
  releaseAsked: 2,
  /** Factor of a package the query says it does not want ("without docker"): shown only when nothing else matches. */
  unwanted: 0.01,
  /** The representative shows for its group unless another member scores over this many times as much. */
  representative: 2,
  /** Factor of a top-level lib* package when the query asks for no library: a task means tcpdump, not libpcap. */
  libraryName: 0.8,
  /** Factor of a tool whose description says it is for another language than the one asked ("c++ lsp": nixd, "Nix language server … C++ nix"). */
  otherLanguage: 0.3,
  /** Factor of a library from elsewhere than asked: a set's when no language is named, another set's or a system one when one is. */
  libraryElsewhere: 0.5,
  /** Factor of a package that calls itself a command-line program and not a library, when a library is asked for. */
  programForLibrary: 0.5,
  /** Factor of a package that calls itself a library and no program, when a language's tool, or a tool in so many words, is asked for. */
  libraryForTool: 0.5,
  /**
   * Factor of an editor's add-on ("R language server extension for coc.nvim") when a tool is asked for and no editor is
   * named: the tool itself is meant ("r language server" is rPackages.languageserver).
   */
  editorAddon: 0.5,
  /**
   * Factor of a package that calls itself a GUI (GRAPHICAL_SAID) when the query asks for nothing shown on a display: an
   * agent runs programs in a jail without one ("produce a pdf from a markdown file" is pandoc, not gscan2pdf, a "GUI to
   * produce PDFs … from scanned documents").
   */
  graphical: 0.7,
  /**
   * Factor of a set's member that names its set or the set's language ("Python client for Redis", "JSON Web Token library
   * for Python 3") in a task of several words that names no language, no library and nothing made in one: such a package is
   * for that language's programmers, and an agent's task means a program ("redis client": redis, "decode a jwt token": jwt-cli).
   */
  forProgrammers: 0.5,
  /**
   * Factor of a niche set's member that is not also at top level, when a tool is asked for, or a task with no
   * language named and no library: 'haskell formatter' is ormolu, not one of Haskell's many pretty-printing
   * libraries; 'haskell build tool' stack, not haskellPackages.build; 'generate uuid' no akkuPackages.uuid. R's tools
   * are the exception (rPackages.languageserver).
   */
  unexposedForTool: 0.4,
  /**
   * Factor of a niche set's member named by a language's name alone: "rust" is rustc, not rPackages.rust; "haskell"
   * GHC, not the VS Code extension; "prolog" SWI-Prolog, not a tree-sitter grammar.
   */
  nicheForLanguage: 0.1,
  /** Factors of a package by what it is made in, when the query asks ("task runner written in rust"): in that language... */
  madeInAsked: 4,
  /** ...naming that language otherwise ("Rust task runner")... */
  madeInNamed: 2,
  /** ...or in another ("Task runner … written in Go"). */
  madeInOther: 0.25,
  /** Factor of a converter named for the opposite of the conversion asked ("markdown2html" for "html to markdown"). */
  reversed: 0.2,
  /** How much more of the query (of its weight) a tool about an everyday package must match to take that package's everyday factor (everydaySubjects). */
  subjectsToolLead: 0.2,
} as const;
/**
 * How many of a query's words, the rarest, find packages; later ones only re-rank what those found. A package matching
 * none of the rarest six seldom wins, and each further word walked its whole postings: "command runner like make"
 * searched make's description too. Six, not four: a long task's rarest words are often its asides ("spin up a
 * throwaway kubernetes cluster inside docker for ci tests": spin, throwaway, inside, ci), and the answer's words
 * (kind: "Kubernetes IN Docker - local clusters for testing") come after them. An everyday tool is found by any
 * word: in a long task ("filter and reshape json returned by an api in a pipeline") its word (json) is seldom rare.
 */
const OPEN_WORDS = 6;
/**
 * How many of the packages with the highest bounds rankQuery ranks first, per result a page shows: enough that the
 * page they make is nearly the final one, whose last score then leaves most of the rest unranked.
 */
const FIRST_RANKED_PER_RESULT = 4;
/** Words asking for a library that a lib* name says ("libpng"). */
const NAMED_LIBRARY_WORDS = new Set(["library", "libraries", "lib"]);
/** The language family (tool-languages.ts) of nixpkgs's top-level libraries: C and C++. */
const SYSTEM_LANGUAGE = "c";
/** Bits of Scratch.saidAsked. */
const [SAID_LIBRARY, SAID_SYSTEM_LANGUAGE, SAID_MEMBER_WORD] = [1, 2, 4];
/**
 * Languages a library names when it is for one of them ("Python bindings for …", "Rust implementation of …"), and so
 * no C or C++ library; not formats a C library names as its subject ("C library for JSON").
 */
const LIBRARY_LANGUAGES = [
  ..."python javascript typescript node nodejs java rust go ruby perl php haskell ocaml lua kotlin scala".split(" "),
  ..."elixir erlang swift dart julia r".split(" "),
];
/**
 * Words nixpkgs also names a package's builds by (ghostscript_headless, ffmpeg-headless, jdk17_headless): asked, they
 * say what a tool does ("a headless browser"), which such a build's name does not; its description must.
 */
const BUILD_VARIANT_WORDS = new Set(["headless"]);
/** Most results one page shows. */
export const MAX_LIMIT = 50;
/** How deep paging reaches: one search ranks at most this many. */
export const MAX_RANKED = 200;
/**
 * Terms a word's prefix or suffix expands to. The dictionary lists them alphabetically, so the cut
 * is arbitrary: at 64, "lint" as a suffix reached the squashed names up to golangcilint and never
 * eslint. At 256 it rarely cuts a real name; the scan costs about 0.05 ms.
 */
const PREFIX_EXPANSION = 256;
/** Most letters a word's stem may cut for the stem to match a name ("formatting": format; not "information": inform). */
const MAX_NAME_STEM_CUT = 4;
/**
 * How much longer a description word a query word starts may be: a form or compound of it ("compress" →
 * compressor, "markdown" → markdownlint), not another word ("java" → javascript, "type" → typescript).
 */
const DESCRIPTION_PREFIX_TAIL = 4;
/** ...but not an adjective made of it: "port" is no "portable", "read" no "readable". */
const ADJECTIVE_TAIL = /^[ai]bl/;

/** A list of package ids in a reusable typed array: cleared by resetting its length, never freed. */
class IdList {
  readonly ids: Uint32Array;
  length = 0;
  constructor(capacity: number) {
    this.ids = new Uint32Array(capacity);
  }
  push(id: number): void {
    this.ids[this.length++] = id;
  }
  /** The ids so far, the list left as it is. */
  peek(): Uint32Array {
    return this.ids.subarray(0, this.length);
  }
  /** The ids, then the list is empty again. */
  drain(): Uint32Array {
    const ids = this.ids.subarray(0, this.length);
    this.length = 0;
    return ids;
  }
}

/** An IdList holding each id once, which says whether it holds one from a byte per package: a search asks of thousands at random. */
class IdSet extends IdList {
  private readonly held: Uint8Array;
  constructor(capacity: number) {
    super(capacity);
    this.held = new Uint8Array(capacity);
  }
  add(id: number): void {
    if (this.held[id] === 1) return;
    this.held[id] = 1;
    this.push(id);
  }
  has(id: number): boolean {
    return this.held[id] === 1;
  }
  override drain(): Uint32Array {
    const ids = super.drain();
    for (const id of ids) this.held[id] = 0;
    return ids;
  }
}

/**
 * Reusable per-package scratch arrays: a search allocates nothing proportional to the catalog. Scores
 * are 32-bit: a search reads them at random across the catalog, and half the bytes stay in cache
 * (seven significant digits rank as 64 bits do on every bench query).
 */
interface Scratch {
  /** The packages a query's words or names matched. */
  touched: IdSet;
  reps: IdList;
  hits: IdList;
  described: IdList;
  ecosystemHits: IdList;
  total: Float32Array;
  word: Float32Array;
  description: Float32Array;
  matched: Float32Array;
  whole: Float32Array;
  best: Float32Array;
  /** Per group, the member that scored best, and the representative's own score. */
  shown: Uint32Array;
  repScore: Float32Array;
  ecosystem: Float32Array;
  /** Whether a package's own name or description says the ecosystem named (not only other packages' words of it). */
  ecosystemOwn: Uint8Array;
  share: Float32Array;
  descriptionShare: Float32Array;
  /** Per package, what a match in its description counts for its length (WEIGHT.descriptionLength). */
  lengthFactor: Float32Array;
  /**
   * Per package, 1 where it calls itself a command-line program and not a library: no answer when a library is asked
   * for (httpie, "Command line HTTP client", for "python http client library"); qrencode, "C library and command
   * line tool", is both.
   */
  programOnly: Uint8Array;
  /**
   * Per package, 1 where it calls itself a library and no program of any kind: less likely the answer when a tool is
   * asked for ("python profiler": yappi, "Python profiler that supports multithreading…", rather than osprofiler,
   * "OpenStack Library to profile request between all involved services").
   */
  libraryOnly: Uint8Array;
  /** Per package, 1 where it calls itself an extension or plugin of an editor (EDITOR_WORDS). */
  editorAddon: Uint8Array;
  /** Per package, 1 where it calls itself a GUI (GRAPHICAL_SAID) or an app and no program. */
  graphical: Uint8Array;
  /** Per package, 1 where it is a set's member whose description names its set or the set's language ("Python client for Redis"). */
  forItsSet: Uint8Array;
  /** Per package, 1 where its description names a language a library may be for (LIBRARY_LANGUAGES): no C or C++ library. */
  namesALanguage: Uint8Array;
  /** 1 where a package's description says what it is made in (index.madeIn). */
  madeInAny: Uint8Array;
  /**
   * Per package, which words asked its own words matched: a library (SAID_LIBRARY), C or C++ (SAID_SYSTEM_LANGUAGE), an
   * ecosystem's word for its packages (SAID_MEMBER_WORD).
   */
  saidAsked: Uint8Array;
  /** Per touched package, in touch order, the most it can score (rankQuery). */
  bound: Float32Array;
}
const scratchFor = perIndex((index): Scratch => {
  const n = index.size;
  return {
    touched: new IdSet(n),
    reps: new IdList(n),
    hits: new IdList(n),
    described: new IdList(n),
    ecosystemHits: new IdList(n),
    total: new Float32Array(n),
    word: new Float32Array(n),
    description: new Float32Array(n),
    matched: new Float32Array(n),
    whole: new Float32Array(n),
    best: new Float32Array(n),
    shown: new Uint32Array(n),
    repScore: new Float32Array(n),
    ecosystem: new Float32Array(n),
    ecosystemOwn: new Uint8Array(n),
    share: new Float32Array(n),
    descriptionShare: new Float32Array(n),
    lengthFactor: descriptionLengthFactors(index),
    ...selfDescriptions(index),
    madeInAny: madeInAny(index),
    saidAsked: new Uint8Array(n),
    bound: new Float32Array(n),
  };
});

/**
 * BM25's length normalisation (k1 = 1.2, b = WEIGHT.descriptionLength), only ever lowering: against a
 * typical nixpkgs description of about six stems, not the index's own average, so that a small catalog
 * ranks as the whole one does.
 */
function descriptionLengthFactors(index: NixpkgsIndex): Float32Array {
  const k1 = 1.2;
  const b = WEIGHT.descriptionLength;
  const typical = 6;
  return Float32Array.from(index.descriptions.termsPerId(index.size), (length) =>
    Math.min(1, (k1 + 1) / (1 + k1 * (1 - b + (b * length) / typical))),
  );
}

export function searchIndex(index: NixpkgsIndex, query: string, options: SearchOptions = {}): SearchResult[] {
  refuseLongQuery(query);
  const asked = alternativesAsked(index, query);
  if (!asked) return withConverters(index, query, options);
  // Another tool than the one named: see alternatives.ts. Both rankings go one page deep whatever page is asked: a
  // fused order that counted deeper ranks for later pages would differ from the first page's, and repeat some of it.
  const wide = { ...options, limit: MAX_LIMIT };
  const rank = (text: string, describedOnly: boolean) => rankQuery(index, text, wide, true, describedOnly);
  return rankAlternatives(index, asked, rank, clampLimit(options.limit)).map(({ fused, ...result }) => ({
    ...result,
    score: Math.round(fused * 1000) / 10,
  }));
}

/**
 * A converter's name ("json2yaml", "html2pdf") is that package, and the other converters for what it does follow,
 * ranked with it by score: an agent that names one converter wants one that works. Each ranking's page is the start of
 * its longer pages, and so is their merge.
 */
function withConverters(index: NixpkgsIndex, query: string, options: SearchOptions): SearchResult[] {
  const ranked = rankQuery(index, query, options, false);
  const conversion = conversionOfName(query);
  // One that no working package has was read as its conversion already (asking.ts).
  if (!conversion || !isWorkingNameIn(index, query)) return ranked;
  const byScore = [...ranked, ...rankQuery(index, conversion, options, false)].sort((a, b) => b.score - a.score);
  // A group once, whichever member each ranking showed.
  const seen = new Set<string>();
  const firstOfGroup = ({ attr, alsoIn }: SearchResult) => {
    if (seen.has(attr)) return false;
    for (const member of [attr, ...alsoIn]) seen.add(member);
    return true;
  };
  return byScore.filter(firstOfGroup).slice(0, clampLimit(options.limit));
}

export const clampLimit = (limit = 10) => Math.min(Math.max(limit, 1), MAX_RANKED);

/**
 * Descriptions using a program's name at least this often make it an ordinary word (ordinaryProgramNames). A package's
 * own name must be written lowercase more often to be one (mentions.ts): prose capitalises names, not programs.
 */
const ORDINARY_WORD_USES = 30;
/**
 * The most words a query may have for its first to be read as a command's name (ordinaryProgramNames): "strip a
 * binary" may be binutils' strip, "strip gps location and camera metadata from photos before publishing them" is a
 * sentence, whose first word is a verb.
 */
const COMMAND_LINE_WORDS = 6;

/**
 * Packages' other programs that ordinary words name (bind's host, binutils' size, procps' free, util-linux's script),
 * by that word: it names the program only where a command line has it, first ("host example.com"); amid a query it
 * is the word ("scan a host for open ports" is no dig, "reduce pdf file size" no binutils).
 */
const ordinaryProgramNames = perIndex((index): Map<string, Set<number>> => {
  const byWord = new Map<string, Set<number>>();
  // Words of letters only: "base64" or "sha256sum" is a command's name wherever it stands.
  const words = new Set([...KNOWN_OTHER_PROGRAMS.values()].flat().filter((program) => /^[a-z]+$/.test(program)));
  for (const program of words) {
    const [said, named] = [index.descriptions.find(stem(program)), index.exact.find(program)];
    if (said < 0 || named < 0 || index.descriptions.postings(said).length < ORDINARY_WORD_USES) continue;
    const others = [...index.exact.postings(named)].filter((id) => normalizeName(splitAttr(index.attr(id)).leaf) !== program);
    if (others.length > 0) byWord.set(program, new Set(others));
  }
  return byWord;
});

/** The packages that best match what the query says, in order. */
function rankQuery(
  index: NixpkgsIndex,
  query: string,
  options: SearchOptions,
  alternativesNamed = true,
  describedOnly = false,
): SearchResult[] {
  const limit = clampLimit(options.limit);
  const {
    text,
    wholeKeys,
    subjectKeys,
    contentWords,
    ecosystemWords,
    familyIds,
    subjectOfTool,
    toolKinds,
    languagesAsked,
    subjectNotMeant,
    unwanted,
    toolForUse,
    kindOfNamed,
    compounds,
    reversedKeys,
    conventionKeys,
    asksForLibrary,
    asksForBindings,
    asksForProgram,
    languageAlone,
    displayAsked,
    release,
    madeIn,
    libraryMayBeMeant,
    programWords,
    activityWords,
  } = parseQuery(index, query, alternativesNamed);
  const platform = options.platform && options.platform !== "any" ? options.platform : undefined;
  if (platform && !/^[a-z0-9_]+-[a-z0-9_]+$/.test(platform)) {
    throw new NixpkgsError(`'${platform}' is not a Nix system`, `Use one such as x86_64-linux or aarch64-darwin, or "any".`);
  }
  const mask = platform ? index.platformMask(platform) : undefined;
  const scratch = scratchFor(index);
  const { total, matched, whole, best, shown, repScore, ecosystem, ecosystemOwn, touched, reps, ecosystemHits } = scratch;
  const touch = (id: number) => touched.add(id);

  // A name that is the attribute's own counts fully; a pname or program a little less
  // ("python3" is the pname of every python3.withPackages environment).
  const markWhole = (id: number) => {
    touch(id);
    const leaf = normalizeName(splitAttr(index.attr(id)).leaf);
    whole[id] = wholeKeys.has(leaf) || subjectKeys.has(leaf) ? 1 : WEIGHT.otherWholeName;
  };
  let wholeFound = false;
  const severalWords = /\s/.test(text);
  const topLevel = index.topLevelFamily;
  // A version's own attribute that the query spells in words ("nodejs 20": nodejs_20) is what its group shows.
  const versionsNamed: number[] = [];
  for (const key of wholeKeys) {
    const term = index.exact.find(key);
    if (term < 0) continue;
    wholeFound = true;
    for (const id of index.exact.postings(term)) {
      // Several words that happen to spell a library's name ask for a tool, not that library: "command runner"
      // (python313Packages.command-runner), or "haskell lsp" (haskellPackages.haskell-lsp) even with its ecosystem named.
      const libraryMeant = familyIds.has(index.family[id]!) && subjectOfTool.length === 0;
      if (severalWords && index.family[id] !== topLevel && !libraryMeant) continue;
      markWhole(id);
      if (severalWords && /[0-9]/.test(key) && squashName(splitAttr(index.attr(id)).leaf) === key) versionsNamed.push(id);
    }
  }
  // Such a name within a longer one: "markdown linter" is markdownlint-cli.
  for (const key of conventionKeys) {
    const term = index.names.find(key);
    if (term < 0) continue;
    for (const id of index.names.postings(term)) {
      if (index.family[id] !== topLevel || whole[id]! > 0) continue;
      touch(id);
      whole[id] = WEIGHT.conventionWord;
    }
  }
  // "python requests" is requests among Python's packages; "python formatter" is not the package named formatter.
  for (const key of subjectKeys) {
    const term = index.exact.find(key);
    if (term < 0) continue;
    for (const id of index.exact.postings(term)) {
      if (!familyIds.has(index.family[id]!)) continue;
      wholeFound = true;
      markWhole(id);
    }
  }
  // An attribute path ("python312Packages.flask", or through an alias: "python3Packages.flask"):
  // the leaf within its family; that member is what its group shows.
  const exactId = /\s/.test(text) ? -1 : index.lookup(text);
  const pathId = exactId >= 0 || !text.includes(".") ? exactId : index.lookupInFamily(text);
  if (!wholeFound && text.includes(".") && pathId >= 0) markWhole(pathId);

  // Coverage counts each word by its rarity: missing "files" costs less than missing "encrypt"; missing "tool" nothing.
  let wanted = 0;
  // Rarest first: a word most descriptions use ("tool", "cli") then only re-ranks what rarer words found,
  // which keeps a search from walking a tenth of the catalog; so does every word after the rarest few
  // (OPEN_WORDS) of a long query, such as the description an alternative is sought by (alternatives.ts).
  const isCandidate = (id: number) => touched.has(id);
  const isCandidateOrEveryday = (id: number) => isCandidate(id) || (index.flags[id]! & FLAG.common) !== 0;
  const queryStems = new Set([...contentWords, ...ecosystemWords].map(stem));
  const weighted = contentWords.map((w) => ({ w, ...wordWeights(index, w) })).sort((a, b) => b.asked - a.asked);
  // A lib* name says "library" as a description would: "png image c library" is libpng, "Official reference
  // implementation for the PNG file format". A top-level library is C's or C++'s unless it names another language, and
  // seldom says so: "c++ formatting library" is fmt, "Small, safe and fast formatting library".
  const { saidAsked } = scratch;
  let libraryAsked: { score: number; coverage: number } | undefined;
  let systemLanguageAsked: number | undefined;
  // An ecosystem's word for its packages ("perl module", "python framework") is what each member of the family named is,
  // whether or not its description says so: click ("Create beautiful command line interfaces in Python") is as much a
  // "python cli framework" as cliff ("Command Line Interface Formulation Framework").
  let memberWordAsked: number | undefined;
  // How many words found packages: one no package has ("lightweight" where none says it) opens nothing.
  let opened = 0;
  const spoken = text.split(" ");
  const firstWord = spoken.length <= COMMAND_LINE_WORDS ? spoken[0] : undefined;
  const languageToolsOf = (word: string) => {
    const family = languageFamily(word);
    const term = family !== undefined && languagesAsked.includes(family) ? index.toolLanguages.find(family) : -1;
    return term < 0 ? undefined : index.toolLanguages.postings(term);
  };
  for (const [i, { w, asked, match }] of weighted.entries()) {
    const coverageWeight = programWords.includes(w)
      ? 0
      : asked * subjectWeight(index, w) * (activityWords.includes(w) ? WEIGHT.activityNoun : 1);
    wanted += coverageWeight;
    const refineOnly = i > 0 && (asked < WEIGHT.commonWordWeight || opened >= OPEN_WORDS);
    const libraryWord = NAMED_LIBRARY_WORDS.has(w);
    if (libraryWord) libraryAsked = { score: WEIGHT.descriptionStem * match, coverage: coverageWeight };
    const systemLanguage = asksForLibrary && languageFamily(w) === SYSTEM_LANGUAGE;
    if (systemLanguage) systemLanguageAsked = coverageWeight * WEIGHT.systemLanguageUnsaid;
    const memberWord = familyIds.size > 0 && ECOSYSTEM_LIBRARY_WORDS.has(w);
    if (memberWord) memberWordAsked = coverageWeight;
    let found = false;
    const scope: WordScope = {
      candidates: refineOnly ? isCandidateOrEveryday : undefined,
      compounds: compounds.get(w),
      notNamed: w === firstWord ? undefined : ordinaryProgramNames(index).get(w),
      languageTools: languageToolsOf(w),
      describedOnly: describedOnly || BUILD_VARIANT_WORDS.has(w),
    };
    scoreWord(index, w, match, scratch, queryStems, scope, (id, score, share) => {
      touch(id);
      total[id] = total[id]! + score;
      matched[id] = matched[id]! + coverageWeight * share;
      if (libraryWord) saidAsked[id]! |= SAID_LIBRARY;
      if (systemLanguage) saidAsked[id]! |= SAID_SYSTEM_LANGUAGE;
      if (memberWord) saidAsked[id]! |= SAID_MEMBER_WORD;
      found = true;
    });
    if (found && !refineOnly) opened++;
  }
  if (libraryAsked || systemLanguageAsked || memberWordAsked) {
    const librarySaidBy = familyIds.size === 0 ? FLAG.libraryName | FLAG.headers : FLAG.libraryName;
    const { namesALanguage } = scratch;
    for (const id of touched.peek()) {
      if (libraryAsked && index.flags[id]! & librarySaidBy && !(saidAsked[id]! & SAID_LIBRARY)) {
        total[id] = total[id]! + libraryAsked.score;
        matched[id] = matched[id]! + libraryAsked.coverage;
      }
      if (systemLanguageAsked && index.family[id] === topLevel && !(saidAsked[id]! & SAID_SYSTEM_LANGUAGE) && namesALanguage[id] === 0) {
        matched[id] = matched[id]! + systemLanguageAsked;
      }
      if (memberWordAsked && familyIds.has(index.family[id]!) && !(saidAsked[id]! & SAID_MEMBER_WORD)) {
        matched[id] = matched[id]! + memberWordAsked;
      }
      saidAsked[id] = 0;
    }
  }
  // The ecosystem named ("python formatter") is matched by its own packages, and by others whose
  // name or description says it; among the set's members it ranks only what the other words found.
  // A package outside every set may be found by it alone: "postgresql client" is postgresql itself.
  let [ecosystemWeight, ecosystemMatchWeight, ecosystemMost] = [0, 0, 0];
  const ecosystemCandidate = (id: number) => isCandidate(id) || index.family[id] === topLevel;
  for (const w of ecosystemWords) {
    const { asked, match } = wordWeights(index, w);
    ecosystemWeight = Math.max(ecosystemWeight, asked);
    ecosystemMatchWeight = Math.max(ecosystemMatchWeight, match);
    scoreWord(index, w, match, scratch, queryStems, { candidates: ecosystemCandidate }, (id, score, share) => {
      if (ecosystem[id] === 0) {
        touch(id);
        ecosystemHits.push(id);
      }
      ecosystem[id] = Math.max(ecosystem[id]!, score);
      ecosystemMost = Math.max(ecosystemMost, score);
      if (share >= 1) ecosystemOwn[id] = 1;
    });
  }
  wanted += ecosystemWeight;

  // What the query says of particular packages, as one factor each, looked up once per candidate: "zig lsp"
  // is no zig (named zig, it matches best by name), "without docker" no docker, "html to markdown" no markdown2html.
  const queryFactor = new Map<number, number>();
  const weigh = (ids: Iterable<number>, factor: number) => {
    for (const id of ids) queryFactor.set(id, (queryFactor.get(id) ?? 1) * factor);
  };
  // Each package once per factor, however many of its names the terms are.
  const named = (terms: number[]) => new Set(terms.flatMap((term) => [...index.exact.postings(term)]));
  const termsOf = (names: string[]) => names.map((name) => index.exact.find(name)).filter((term) => term >= 0);
  weigh(named(termsOf(subjectNotMeant)), WEIGHT.subject);
  weigh(named(termsOf(unwanted)), WEIGHT.unwanted);
  // "jq for yaml" is yq, not jq; but "vault for secrets" is vault, whose description says secrets.
  if (toolForUse) {
    // The use's rarest word, or a word related to it, says it ("large files": large; docx: document); a common one (files)
    // any tool's words say. So do most of its words ("skopeo for copying container images": container images).
    const { use } = toolForUse;
    const asked = (w: string) => wordWeights(index, w).asked;
    const rarest = use.indexOf(use.reduce((rarest, w) => (asked(w) > asked(rarest) ? w : rarest)));
    const says = use.map((word) => {
      const words = [word, ...relatedStems(stem(word))];
      const [own, others] = [describesItselfAs(index, words), othersSayOf(index, words)];
      return (id: number) => own(id) || others(id);
    });
    const saysMost = (id: number) => use.length > 1 && says.filter((saysWord) => saysWord(id)).length * 2 > use.length;
    const saysUse = (id: number) => says[rarest]!(id) || saysMost(id);
    weigh(
      [...named(termsOf([toolForUse.name]))].filter((id) => !saysUse(id)),
      WEIGHT.otherUse,
    );
  }
  // "git tui" is lazygit, not git; "lazygit tui" still lazygit, a "terminal UI for git commands". "parallel gzip" is pigz.
  if (kindOfNamed) {
    const saysIt = describesItselfAs(index, kindOfNamed.says);
    weigh(
      [...named(termsOf(kindOfNamed.names))].filter((id) => !saysIt(id)),
      WEIGHT.otherUse,
    );
  }
  weigh(named(reversedKeys.flatMap((key) => index.exact.withPrefix(key, PREFIX_EXPANSION, { including: true }))), WEIGHT.reversed);
  const otherLanguages = toolsForOtherLanguages(index, languagesAsked);
  weigh(otherLanguages, WEIGHT.otherLanguage);
  // "nix linter" is no nixfmt, an everyday tool saying it is a formatter: its everyday factor is not for this.
  const [saysAskedKind, saysOtherKind] = [describesItselfAs(index, toolKinds.asked), describesItselfAs(index, toolKinds.others)];
  const otherKindOnly = (id: number) => toolKinds.asked.length > 0 && saysOtherKind(id) && !saysAskedKind(id);
  const subjects = everydaySubjects(index, contentWords, matched, WEIGHT.subjectsToolLead * wanted);
  const { programOnly, libraryOnly, editorAddon, graphical, forItsSet } = scratch;
  const programmersNotMeant =
    severalWords &&
    ecosystemWeight === 0 &&
    !asksForLibrary &&
    !libraryMayBeMeant &&
    madeIn.length === 0 &&
    !contentWords.some((w) => languageFamily(w) !== undefined);
  const editorNamed = [...contentWords, ...ecosystemWords].some((w) => EDITOR_WORDS.includes(w));
  const madeInFactor = madeInFactors(index, madeIn, scratch.madeInAny);
  const toolAsked = (subjectOfTool.length > 0 || asksForProgram) && !asksForLibrary;
  // A library for command lines ("python cli framework") says "CLI" as programs do: cement, "CLI Application Framework for Python".
  const programNotMeant = asksForLibrary && !queryStems.has(stem("cli"));
  // The release is of the name asked: "qt 6" asks no gnuplot_qt of version 6.
  const namedAsked = (id: number) => contentWords.includes(splitAttr(index.attr(id)).leaf);
  const inReleaseAsked = (id: number) => release !== undefined && namedAsked(id) && ofRelease(index.record(id).version, release);
  const coverageExponent = asksForLibrary && familyIds.size > 0 ? WEIGHT.libraryCoverageExponent : WEIGHT.coverageExponent;
  const inNamedFamily = new Uint8Array(index.header.families.length);
  for (const family of familyIds) inNamedFamily[family] = 1;
  const rank = (id: number) => {
    const flags = index.flags[id]!;
    const hidden =
      (!options.includeBroken && flags & FLAG.broken) ||
      (!options.includeUnfree && flags & FLAG.unfree) ||
      (mask && !mask[index.platformSet[id]!]);
    if (!hidden) {
      // A set's build of a top-level package (python312Packages.rpm, rpm's bindings: "RPM package manager") is that
      // package, which "python package manager" does not ask for by naming Python; "python rpm bindings" does.
      const inFamily = inNamedFamily[index.family[id]!] === 1 && !(flags & FLAG.buildOfTopLevel && !asksForBindings);
      const named = inFamily ? Math.max(ecosystem[id]!, WEIGHT.descriptionStem * ecosystemMatchWeight) : ecosystem[id]!;
      if (named > 0) {
        total[id] = total[id]! + named;
        matched[id] = matched[id]! + ecosystemWeight;
      }
      const coverage = wanted > 0 ? Math.min(1, matched[id]! / wanted) : 0;
      // Named, the family's members are meant as much as top-level packages, and more; so is a top-level
      // package whose own words say it ("A formatter for Haskell source code").
      const ofEcosystem = inFamily || ecosystemOwn[id] === 1;
      const factor =
        (inFamily ? index.factor[id]! / index.familyFactors[index.family[id]!]! : index.factor[id]!) *
        (ofEcosystem ? WEIGHT.namedEcosystem : 1);
      // Naming an ecosystem ("python postgres driver") asks for its packages, not for an everyday tool outside it,
      // even one Python packages mention (curl); asking for a library ("c json library"), not for an everyday
      // program, even one whose description says "C library and command line tool" (qrencode); asking for a
      // language's tool, not for another language's everyday one ("perl linter": no golangci-lint).
      const everyday =
        flags & FLAG.common &&
        !subjects.has(id) &&
        !asksForLibrary &&
        (ecosystemWeight === 0 || ofEcosystem) &&
        !otherKindOnly(id) &&
        !otherLanguages.has(id);
      const common = everyday ? WEIGHT.common : 1;
      // A library asked for is the language's named, or a system one when none is: "png decoding library" is no pypng,
      // "python png library" pypng, and "python ssh client library" no libssh, unless bindings to it are asked for.
      const libraryElsewhere = asksForLibrary && (ecosystemWeight === 0 ? index.family[id] !== topLevel : !ofEcosystem && !asksForBindings);
      const program =
        programNotMeant && programOnly[id] === 1
          ? WEIGHT.programForLibrary
          : toolAsked && libraryOnly[id] === 1
            ? WEIGHT.libraryForTool
            : 1;
      // A niche set's tools are also at top level (ormolu, hlint); its other members are mostly libraries (prettyprinter),
      // meant when a tool is not, or when their language is named or a library asked for, or by name.
      const libraryNotMeant = toolAsked || (ecosystemWeight === 0 && !libraryMayBeMeant && whole[id]! === 0);
      const unexposed =
        libraryNotMeant && index.nicheFamilies[index.family[id]!] === 1 && index.family[index.groupRep[id]!] !== topLevel
          ? WEIGHT.unexposedForTool
          : 1;
      const editorsOwn = languageAlone && !inFamily && index.nicheFamilies[index.family[id]!] === 1 ? WEIGHT.nicheForLanguage : 1;
      const addon = toolAsked && !editorNamed && editorAddon[id] === 1 ? WEIGHT.editorAddon : 1;
      const onDisplay = !displayAsked && graphical[id] === 1 ? WEIGHT.graphical : 1;
      const forProgrammers = programmersNotMeant && forItsSet[id] === 1 ? WEIGHT.forProgrammers : 1;
      const kind =
        editorsOwn *
        addon *
        onDisplay *
        forProgrammers *
        madeInFactor(id) *
        (queryFactor.get(id) ?? 1) *
        (libraryElsewhere ? WEIGHT.libraryElsewhere : 1) *
        program *
        unexposed *
        (flags & FLAG.libraryName && !libraryMayBeMeant && whole[id] === 0 ? WEIGHT.libraryName : 1) *
        (inReleaseAsked(id) ? WEIGHT.releaseAsked : 1);
      const score = (whole[id]! * WEIGHT.wholeName + total[id]! * coverage ** coverageExponent) * factor * common * kind;
      // Matching none of what counts is no answer (and would list its group once per member).
      const rep = index.groupRep[id]!;
      if (score > 0 && best[rep] === 0) {
        reps.push(rep);
        shown[rep] = id;
      }
      if (score > best[rep]!) {
        best[rep] = score;
        shown[rep] = id;
      }
      if (id === rep) repScore[rep] = score;
    }
  };
  // Most packages a query touches matched a common word and cannot reach the page. Each one's score is bounded by its match
  // and its factors' ceiling; the most promising are ranked first, and of the rest only those whose bound reaches half the
  // page's last score: a group's representative shows at half its best member's (shownFor).
  const ids = touched.drain();
  // What naming the ecosystem can add (as rank adds it): nothing when the query names none.
  const namedMost = Math.max(ecosystemMost, WEIGHT.descriptionStem * ecosystemMatchWeight);
  const ceilings = ceilingsOf(index);
  const askedCeiling = (madeIn.length > 0 ? WEIGHT.madeInAsked : 1) * (release !== undefined ? WEIGHT.releaseAsked : 1);
  const { bound } = scratch;
  let most = 0;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    const coverage = wanted > 0 ? Math.min(1, (matched[id]! + ecosystemWeight) / wanted) : 0;
    const b = (whole[id]! * WEIGHT.wholeName + (total[id]! + namedMost) * coverage ** coverageExponent) * ceilings[id]! * askedCeiling;
    bound[i] = b;
    if (b > most) most = b;
  }
  const firstBand = bandHolding(bound, ids.length, most, limit * FIRST_RANKED_PER_RESULT);
  const inFirstBand = (i: number) => bound[i]! >= firstBand;
  for (let i = 0; i < ids.length; i++) if (bound[i]! > 0 && inFirstBand(i)) rank(ids[i]!);
  const ranked = reps.peek();
  const page = ranked.length >= limit ? topK(ranked, best, limit, index)[limit - 1]!.score : 0;
  for (let i = 0; i < ids.length; i++) if (bound[i]! > 0 && !inFirstBand(i) && bound[i]! * WEIGHT.representative >= page) rank(ids[i]!);
  for (const id of ids) {
    total[id] = 0;
    matched[id] = 0;
    whole[id] = 0;
  }

  for (const id of ecosystemHits.drain()) {
    ecosystem[id] = 0;
    ecosystemOwn[id] = 0;
  }
  const candidates = reps.drain();
  const top = topK(candidates, best, limit, index);
  // The attribute asked for shows for its group; else the representative (the newest set's member, the
  // default version), unless another member matched far better: "jupyter notebook" is jupyter, grouped with python312.
  // "java 17" is jdk17, a member of jdk's group: of a group whose representative is another release, the member in
  // the release asked shows, one of the name asked first ("python 3.13": python313Packages.python, not jupyter, a
  // Python environment), then by its shortest name (jdk17, not jdk17_headless; beam26Packages.erlang, not
  // beamMinimal26Packages.erlang).
  const releaseAsked = (rep: number) => {
    if (release === undefined || ofRelease(index.record(rep).version, release)) return undefined;
    const inRelease = index.groupMembers(rep).filter((id) => ofRelease(index.record(id).version, release));
    return inRelease.sort((a, b) => Number(namedAsked(b)) - Number(namedAsked(a)) || index.attrLength(a) - index.attrLength(b))[0];
  };
  const shownFor = (rep: number) => {
    if (pathId >= 0 && index.groupRep[pathId] === rep) return pathId;
    const version = versionsNamed.find((id) => index.groupRep[id] === rep) ?? releaseAsked(rep);
    if (version !== undefined) return version;
    return repScore[rep]! * WEIGHT.representative >= best[rep]! ? rep : shown[rep]!;
  };
  const showing = top.map(({ id: rep }) => shownFor(rep));
  for (const rep of candidates) {
    best[rep] = 0;
    repScore[rep] = 0;
  }
  return top.map(({ score }, i) => resultOf(index, showing[i]!, score));
}

/**
 * Per package, the most its factors can multiply its match by: its own factor, or its family's share of it when the
 * family is named, with the named ecosystem's and the everyday factors (madeIn's comes per query, the rest only lower).
 */
const ceilingsOf = perIndex(
  (index): Float32Array =>
    index.factor.map((factor, id) => {
      const ofFamily = factor / index.familyFactors[index.family[id]!]!;
      return Math.max(factor, ofFamily) * WEIGHT.namedEcosystem * (index.flags[id]! & FLAG.common ? WEIGHT.common : 1);
    }),
);

/**
 * The lowest bound, in steps of a quarter octave below the highest, that at least `wanted` of the first `count` bounds
 * reach. A positive float's bits above the mantissa's top two are its octave and quarter, in the order of its value.
 */
function bandHolding(bound: Float32Array, count: number, most: number, wanted: number): number {
  const BANDS = 64;
  const SHIFT = 21;
  const bits = new Int32Array(bound.buffer, bound.byteOffset, count);
  const top = new Int32Array(Float32Array.of(most).buffer)[0]! >> SHIFT;
  const perBand = new Uint32Array(BANDS);
  for (let i = 0; i < count; i++) if (bits[i]! > 0) perBand[Math.min(BANDS - 1, top - (bits[i]! >> SHIFT))]!++;
  let held = 0;
  for (let band = 0; band < BANDS - 1; band++) {
    held += perBand[band]!;
    if (held >= wanted) return new Float32Array(Int32Array.of((top - band) << SHIFT).buffer)[0]!;
  }
  return 0;
}

/** A package as a search result, with its score. */
export function resultOf(index: NixpkgsIndex, id: number, score: number): SearchResult {
  return {
    ...index.record(id),
    flags: index.flagNames(id),
    alsoIn: index.groupMembers(id).map((member) => index.attr(member)),
    score: Math.round(score * 10) / 10,
  };
}

/** The tools whose descriptions say they are for other languages than those asked, and for none of those. */
function toolsForOtherLanguages(index: NixpkgsIndex, asked: readonly string[]): Set<number> {
  const others = new Set<number>();
  if (asked.length === 0) return others;
  const dictionary = index.toolLanguages;
  const askedIds = new Set(
    asked.flatMap((language) => {
      const term = dictionary.find(language);
      return term < 0 ? [] : [...dictionary.postings(term)];
    }),
  );
  for (let term = 0; term < dictionary.size; term++) {
    if (asked.includes(dictionary.term(term))) continue;
    for (const id of dictionary.postings(term)) if (!askedIds.has(id)) others.add(id);
  }
  return others;
}

/** Per package, 1 where its description says what it is made in. */
function madeInAny(index: NixpkgsIndex): Uint8Array {
  const says = new Uint8Array(index.size);
  for (let term = 0; term < index.madeIn.size; term++) for (const id of index.madeIn.postings(term)) says[id] = 1;
  return says;
}

/** A package's factor for being made in the languages asked ("written in rust"), in another, or naming one asked. */
function madeInFactors(index: NixpkgsIndex, asked: readonly string[], madeInAnything: Uint8Array): (id: number) => number {
  if (asked.length === 0) return () => 1;
  const madeInAsked = asked.map((language) => index.madeIn.find(language)).filter((term) => term >= 0);
  const naming = describesItselfAs(index, asked);
  return (id) => {
    if (madeInAsked.some((term) => index.madeIn.lists(term, id))) return WEIGHT.madeInAsked;
    if (madeInAnything[id] === 1) return WEIGHT.madeInOther;
    return naming(id) ? WEIGHT.madeInNamed : 1;
  };
}

/** Whether a package's description says any of these words. */
function describesItselfAs(index: NixpkgsIndex, words: readonly string[]): (id: number) => boolean {
  const terms = words.map((word) => index.descriptions.find(stem(word))).filter((term) => term >= 0);
  return (id) => terms.some((term) => index.descriptions.lists(term, id));
}

/**
 * The everyday packages a query names as the subject of another tool it asks for: "git large file storage" is git-lfs,
 * "cmake formatter" cmake-format. Such a query names the everyday package (git), whose everyday factor would outrank the
 * tool (git-lfs, named after it) that matches more of the query; so it loses that factor when a top-level package
 * named "<word>-…" leads it by a share of the query (WEIGHT.subjectsToolLead). A package named "…-<word>" is rather
 * another build of the same thing ("rust-parallel" for "run commands in parallel", where GNU parallel is meant).
 */
function everydaySubjects(index: NixpkgsIndex, words: readonly string[], matched: Float32Array, lead: number): Set<number> {
  const subjects = new Set<number>();
  for (const word of words) {
    const [exact, named] = [index.exact.find(word), index.names.find(word)];
    if (exact < 0 || named < 0) continue;
    for (const everyday of index.exact.postings(exact)) {
      if (!(index.flags[everyday]! & FLAG.common) || index.attr(everyday) !== word) continue;
      const leads = (id: number) =>
        matched[id]! > matched[everyday]! + lead &&
        index.family[id] === index.topLevelFamily &&
        index.groupRep[id] !== index.groupRep[everyday] &&
        index.attr(id).startsWith(`${word}-`);
      if (index.names.postings(named).some(leads)) subjects.add(everyday);
    }
  }
  return subjects;
}

/** Whether other packages' words of a package (index.context: mentions and nixpkgs's folder) say any of these words. */
function othersSayOf(index: NixpkgsIndex, words: readonly string[]): (id: number) => boolean {
  const terms = words.map((word) => index.context.find(stem(word))).filter((term) => term >= 0);
  return (id) => terms.some((term) => index.context.lists(term, id));
}

/** Per package, 1 where its description says one of these words: one pass over their postings. */
function sayingAny(index: NixpkgsIndex, words: readonly string[]): Uint8Array {
  const says = new Uint8Array(index.size);
  for (const word of words) {
    const term = index.descriptions.find(stem(word));
    if (term >= 0) for (const id of index.descriptions.postings(term)) says[id] = 1;
  }
  return says;
}

/** Editors whose add-ons nixpkgs packages ("… extension for coc.nvim", "Vim plugin for …"). */
const EDITOR_WORDS = ["coc", "vim", "nvim", "neovim", "vscode", "vscodium", "emacs", "kakoune", "helix", "sublime"];

/**
 * Per package, 1 where it is a set's member whose description names its set, or the language it is named for:
 * pythonPackages' "Python client for Redis", nodePackages' "… for JavaScript", postgresqlPackages' "… extension for PostgreSQL".
 */
function namingTheirSet(index: NixpkgsIndex): Uint8Array {
  const says = new Uint8Array(index.size);
  index.header.families.forEach((family, familyId) => {
    const name = setNamedFor(family);
    if (name === undefined) return;
    for (const word of new Set([name, languageFamily(name) ?? name])) {
      const term = index.descriptions.find(stem(word));
      if (term >= 0) for (const id of index.descriptions.postings(term)) if (index.family[id] === familyId) says[id] = 1;
    }
  });
  return says;
}

/**
 * Words a GUI says of itself, as does an "app" that calls itself no command-line program ("Bulk rename app"); not
 * "graphical", which a TUI may say of its charts (bottom: "graphical process/system monitor").
 */
const GRAPHICAL_SAID = ["gui", "gtk", "qt"];

/** What packages call themselves (Scratch's programOnly, libraryOnly, editorAddon, graphical, forItsSet and namesALanguage), read once per index. */
function selfDescriptions(
  index: NixpkgsIndex,
): Pick<Scratch, "programOnly" | "libraryOnly" | "editorAddon" | "graphical" | "forItsSet" | "namesALanguage"> {
  const [cli, library, program, editor, addon] = [
    sayingAny(index, ["cli"]),
    sayingAny(index, ["library"]),
    sayingAny(index, ["cli", "tool", "program", "utility", "command"]),
    sayingAny(index, EDITOR_WORDS),
    sayingAny(index, ["extension", "extensions", "plugin", "plugins"]),
  ];
  const [gui, app] = [sayingAny(index, GRAPHICAL_SAID), sayingAny(index, ["app"])];
  return {
    programOnly: cli.map((says, id) => says & (library[id]! ^ 1)),
    libraryOnly: library.map((says, id) => says & (program[id]! ^ 1)),
    editorAddon: editor.map((says, id) => says & addon[id]!),
    graphical: gui.map((says, id) => says | (app[id]! & (program[id]! ^ 1))),
    forItsSet: namingTheirSet(index),
    namesALanguage: sayingAny(index, LIBRARY_LANGUAGES),
  };
}

/**
 * How much a word says, by its rarity among descriptions, the most for words none uses. `match` counts every package and
 * scores a match. `asked` counts a package set's member half, and decides what missing the word costs and which words
 * find packages: hundreds of azure-mgmt libraries make "azure" common among descriptions, not among the tools an agent
 * asks for ("manage azure resources from the terminal").
 */
function wordWeights(index: NixpkgsIndex, word: string): { match: number; asked: number } {
  const term = index.descriptions.find(stem(word));
  if (term < 0) return { match: Math.log(1 + index.size), asked: Math.log(1 + index.size) };
  const all = index.descriptions.postings(term).length;
  const topLevel = index.topLevelCount(index.descriptions, term);
  return {
    match: Math.log(1 + index.size / all),
    asked: Math.log(1 + index.size / Math.max(1, topLevel + (all - topLevel) * WEIGHT.setMemberUse)),
  };
}

/**
 * How much a query word names what the package is about, from 1 to 2. Top-level packages are named after
 * their subject about as often as their descriptions say it (pdf: qpdf, pdftk, pdfcpu; azure; postgres); a
 * word of the task (count, manage, generate) is rarely in a name, and the right tool's description often
 * words the task otherwise: "count pages in a pdf" is qpdf, which says neither count nor pages. So
 * missing a subject word costs more coverage than missing a task word. Both sides count the words it
 * starts, as matching does: "open" starts openssl and opencv, but OpenGL and OpenAPI as often.
 */
function subjectWeight(index: NixpkgsIndex, word: string): number {
  const topLevelStartedBy = (dictionary: Dictionary, prefix: string) =>
    dictionary.withPrefix(prefix, PREFIX_EXPANSION, { including: true }).reduce((n, term) => n + index.topLevelCount(dictionary, term), 0);
  const named = topLevelStartedBy(index.names, word);
  const said = topLevelStartedBy(index.descriptions, stem(word));
  return 1 + Math.min(1, (named + 1) / (said + WEIGHT.subjectSmoothing));
}

/** What else the query says of how one of its words is to match (scoreWord). */
interface WordScope {
  /** When given, only these packages are scored. */
  candidates?: (id: number) => boolean;
  /** Words the query's words make together, matched by their stems as related words are ("digital ocean": digitalocean), and as names ("hex dump": hexdump). */
  compounds?: readonly string[];
  /** Packages the word does not name here (ordinaryProgramNames). */
  notNamed?: ReadonlySet<number>;
  /** The tools for the language the word names, when a tool for it is asked (index.toolLanguages). */
  languageTools?: Uint32Array;
  /** No names, descriptions only: a tool's description as a query (alternatives.ts) says what it does, not what others are named. */
  describedOnly?: boolean;
}

/** Calls `add` once per package with the best way one query word matches it. */
function scoreWord(
  index: NixpkgsIndex,
  word: string,
  weight: number,
  scratches: Scratch,
  /** The stems of all the query's words. */
  queryStems: ReadonlySet<string>,
  { candidates, compounds = [], notNamed, languageTools, describedOnly }: WordScope,
  add: (id: number, score: number, share: number) => void,
): void {
  const { word: scratch, description, share, hits, described } = scratches;
  // A common word ("file", "tool") in a name says less than a rare one.
  const rarity = Math.min(1.3, Math.max(0.4, weight / WEIGHT.typicalWordWeight));
  const offer = (id: number, score: number, matchShare = 1) => {
    if (candidates && !candidates(id)) return;
    if (scratch[id] === 0) hits.push(id);
    if (score > scratch[id]!) scratch[id] = score;
    if (matchShare > share[id]!) share[id] = matchShare;
  };
  // The word and its stem: "linter" is in hlint and eslint as "lint". A kind of tool the stemmer keeps
  // whole ("formatter") is also matched as part of a name by the word it comes from (ocamlformat), but
  // a name word "format" alone (perl's Number::Format) is no formatter.
  const stemmed = stem(word);
  const toolVerb = TOOL_NOUNS.get(stemmed);
  // A bare number ("the first 10 seconds") is no part of a name, where numbers are versions (coq_8_10);
  // a name that is one (2048) is matched whole.
  // Not a stem that only drops a final "e": that is another word, often a name ("stripe": strip, "pipe": pip, "note": not),
  // and the word itself starts every name its stem would.
  // Nor one that cuts a long ending: "information" is no "inform" (inform7), though a plural's or a verb's stem is ("linting": lint).
  const nameStem =
    stemmed.length >= 3 && word.length - stemmed.length <= MAX_NAME_STEM_CUT && !(word.endsWith("e") && stemmed === word.slice(0, -1))
      ? [stemmed]
      : [];
  const forms = /^\d+$/.test(word) || describedOnly ? [] : [word, ...nameStem, ...(toolVerb ? [toolVerb] : [])];
  // A name the word makes with its neighbour ("hex dump": hexdump, util-linux's program), as a word of a name; a top-level
  // one only, as for a whole name: "command runner" is a task, not python313Packages.command-runner.
  const topLevel = index.topLevelFamily;
  for (const compound of describedOnly ? [] : compounds) {
    const term = index.names.find(compound);
    if (term < 0) continue;
    for (const id of index.names.postings(term)) {
      if (index.family[id] !== topLevel) continue;
      offer(id, rarity * (WEIGHT.nameWord + WEIGHT.nameWordCloseness * Math.min(1, compound.length / index.nameLength[id]!)));
    }
  }
  for (const form of new Set(forms)) {
    const nameTerm = form === toolVerb ? -1 : index.names.find(form);
    if (nameTerm >= 0) {
      for (const id of index.names.postings(nameTerm)) {
        if (notNamed?.has(id)) continue;
        offer(id, rarity * (WEIGHT.nameWord + WEIGHT.nameWordCloseness * Math.min(1, form.length / index.nameLength[id]!)));
      }
    }
    const partial = (term: number, weight: number) => {
      const score = rarity * weight * (0.5 + form.length / index.names.termLength(term) / 2);
      for (const id of index.names.postings(term)) offer(id, score);
    };
    if (form.length >= 2) for (const term of index.names.withPrefix(form, PREFIX_EXPANSION)) partial(term, WEIGHT.namePrefix);
    if (form.length >= 3) {
      const reversed = [...form].reverse().join("");
      for (const entry of index.namesReversed.withPrefix(reversed, PREFIX_EXPANSION))
        partial(index.namesReversed.postings(entry)[0]!, WEIGHT.nameSuffix);
    }
  }

  // A technical token (sha256, base64, x264) names a program too: sha256sum is coreutils'.
  if (!describedOnly && /[a-z]/.test(word) && /[0-9]/.test(word)) {
    for (const term of index.exact.withPrefix(word, 16, { including: true })) {
      for (const id of index.exact.postings(term)) offer(id, rarity * WEIGHT.nameWord);
    }
  }
  // Description: the stem itself, longer words it starts, and related words, each by rarity.
  const descriptions = index.descriptions;
  const idf = (term: number) => Math.log(1 + index.size / descriptions.postings(term).length);
  // How much of the word a match covers: its own description says it fully, others' words less.
  const descriptionShare = scratches.descriptionShare;
  const { lengthFactor } = scratches;
  const credit = (term: number, weight: number, matchShare = 1, postings = descriptions.postings(term)) => {
    const base = weight * idf(term);
    for (const id of postings) {
      if (candidates && !candidates(id)) continue;
      const score = base * lengthFactor[id]!;
      if (description[id] === 0) described.push(id);
      if (description[id]! < score) description[id] = score;
      if (descriptionShare[id]! < matchShare) descriptionShare[id] = matchShare;
    }
  };
  const own = descriptions.find(stemmed);
  if (own >= 0) credit(own, WEIGHT.descriptionStem);
  if (stemmed.length >= 4) {
    for (const term of descriptions.withPrefix(stemmed, PREFIX_EXPANSION, { maxExtra: DESCRIPTION_PREFIX_TAIL })) {
      if (!ADJECTIVE_TAIL.test(descriptions.term(term).slice(stemmed.length))) credit(term, WEIGHT.descriptionPrefix);
    }
  }
  for (const related of [...relatedStems(stemmed), ...compounds.map(stem)]) {
    const term = descriptions.find(related);
    const covers = queryStems.has(related) ? WEIGHT.relatedQueryWordShare : WEIGHT.relatedShare;
    if (term >= 0) credit(term, WEIGHT.descriptionStem * WEIGHT.related, covers);
  }
  const context = index.context.find(stemmed);
  if (own >= 0 && context >= 0) credit(own, WEIGHT.descriptionStem * WEIGHT.context, WEIGHT.contextShare, index.context.postings(context));
  // A tool for the language in another of its spellings ("SystemVerilog language server" for verilog) says it as a related word would.
  if (own >= 0 && languageTools) credit(own, WEIGHT.descriptionStem * WEIGHT.related, WEIGHT.relatedShare, languageTools);
  // A word in both the name and the description counts for both, the description half.
  for (const id of described.drain()) {
    const score = description[id]!;
    description[id] = 0;
    if (scratch[id]! > 0) scratch[id] = scratch[id]! + score / 2;
    else offer(id, score, descriptionShare[id]);
    descriptionShare[id] = 0;
  }
  for (const id of hits.drain()) {
    add(id, scratch[id]!, share[id]!);
    scratch[id] = 0;
    share[id] = 0;
  }
}

interface Ranked {
  id: number;
  score: number;
}

/**
 * The k best ids by score; ties go to the more likely package, then the shorter attribute path,
 * then the alphabetically first (ids are in attribute order), all without decoding a string.
 */
function topK(ids: Uint32Array, score: Float32Array, k: number, index: NixpkgsIndex): Ranked[] {
  const top: Ranked[] = [];
  const better = (a: Ranked, b: Ranked) => {
    if (a.score !== b.score) return a.score > b.score;
    if (index.factor[a.id] !== index.factor[b.id]) return index.factor[a.id]! > index.factor[b.id]!;
    const [x, y] = [index.attrLength(a.id), index.attrLength(b.id)];
    return x !== y ? x < y : a.id < b.id;
  };
  for (const id of ids) {
    const candidate = { id, score: score[id]! };
    if (top.length === k && !better(candidate, top[k - 1]!)) continue;
    let at = top.length === k ? k - 1 : top.length;
    top[at] = candidate;
    while (at > 0 && better(top[at]!, top[at - 1]!)) {
      [top[at - 1], top[at]] = [top[at]!, top[at - 1]!];
      at--;
    }
  }
  return top;
}

/** Whether a version is of the release asked: "17.0.16+8" of 17, "3.11.13" of 3.11, not "170.1" of 17. */
function ofRelease(version: string, release: string): boolean {
  return version.startsWith(release) && !/^\d/.test(version.slice(release.length));
}
