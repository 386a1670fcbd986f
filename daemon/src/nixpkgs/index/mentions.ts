// What other packages say about a package. A package that many others name, in their description
// ("Pandoc filter for …") or their attribute ("coc-eslint", "pandoc-lua-filters"), is one agents
// mean more often; and what those others say (markdown, documents, convert) describes what it is
// for in the words agents use, which its own description may not ("Conversion between
// documentation formats"). Like anchor text for web pages.
import type { CatalogEntry } from "./catalog.js";
import { familyOf, plainPname, splitAttr } from "./package-sets.js";
import { descriptionTerms, textTerms } from "../search/text.js";

export interface Mentions {
  /** Per package: how many other packages (counted once per set family) name it. */
  count: Uint32Array;
  /** Per package: description stems common among the packages that name it. */
  context: string[][];
}

/**
 * A term must recur among a package's mentions, and no more than this many per package are kept; a package that one
 * other names has that one's words: lsof, "Tool to list open files", has procfd's "Linux lsof replacement to list
 * open file descriptors for processes", and is found for "which process has this file open". That raised all ten
 * query sets, the three never read among them.
 */
const MIN_CONTEXT_MENTIONS = 2;
const MAX_CONTEXT_TERMS = 12;
/** Enough mentions to tell what a package is for; a name thousands use ("core", "utils") gains nothing from more. */
const MAX_CONTEXT_MENTIONS = 200;
/** A name of one letter ("q", "r") is too often something else anywhere... */
const MIN_NAME_LENGTH = 2;
/** ...and of two in prose ("go", "pv", "sd"); an attribute's first part says them of their package ("gh-dash", "jq-lsp", "uv-build"). */
const MIN_PROSE_NAME_LENGTH = 3;
/** A leaf with more parts than this is not scanned for names ("python-mode-for-emacs-with-…"). */
const MAX_LEAF_PARTS = 6;

/**
 * A name written in lowercase amid this many descriptions, nearly always so, is a word of the language
 * there, not the package: "which", "usage", "screen" and "file" are packages, but "CPU usage" names none.
 */
const ORDINARY_WORD_USES = 50;
const ORDINARY_LOWERCASE_SHARE = 0.85;

/** The names that descriptions use as ordinary words (ORDINARY_WORD_USES). */
function ordinaryWords(entries: readonly CatalogEntry[], named: ReadonlyMap<string, number[]>): Set<string> {
  const uses = new Map<string, { lower: number; all: number }>();
  for (const entry of entries) {
    // The first word is capitalised whatever it is.
    for (const token of entry.description.split(/[^A-Za-z0-9+#-]+/).slice(1)) {
      const word = token.toLowerCase();
      if (!named.has(word)) continue;
      const count = uses.get(word) ?? { lower: 0, all: 0 };
      count.all++;
      if (token === word) count.lower++;
      uses.set(word, count);
    }
  }
  return new Set(
    [...uses].filter(([, { lower, all }]) => lower >= ORDINARY_WORD_USES && lower / all >= ORDINARY_LOWERCASE_SHARE).map(([word]) => word),
  );
}

/** Computes mentions for every package, by its attribute's last part and its pname, and by its program where another package is so named. */
export function findMentions(entries: readonly CatalogEntry[]): Mentions {
  const n = entries.length;
  const count = new Uint32Array(n);
  const context: string[][] = Array.from({ length: n }, () => []);

  // Each package's own names and program, read once: the loops below ask of them per mentioner and per name.
  const own = entries.map(ownNames);
  const programs = entries.map((entry) => entry.mainProgram.toLowerCase());
  /** Whether a package is so named only by its program: the synthesizer helm's own name is no mention of kubernetes-helm. */
  const programOnly = (id: number, name: string) => programs[id] === name && !own[id]!.has(name);
  const topLevel = (id: number) => !entries[id]!.attr.includes(".");

  const named = new Map<string, number[]>();
  own.forEach((names, id) => {
    for (const word of names) {
      if (word.length >= MIN_NAME_LENGTH) pushTo(named, word, id);
    }
  });
  // A top-level package's program that another top-level package is named is a name of both, for their mentioners
  // to tell apart (meantBy): "Helm charts" are kubernetes-helm's, whose program is helm, not the synthesizer helm's.
  programs.forEach((program, id) => {
    if (topLevel(id) && !own[id]!.has(program) && (named.get(program) ?? []).some(topLevel)) pushTo(named, program, id);
  });

  const ordinary = ordinaryWords(entries, named);
  // Who names whom: each mentioning package once per family ("python312Packages.x" and
  // "python313Packages.x" are one voice), never a package naming itself.
  const voices = new Set<string>();
  // A two-letter name a set's members start is one voice for the whole set: sbclPackages' hundreds of cl-* name no cl.
  const setVoices = new Set<string>();
  const plainPnames = entries.map((entry) => plainPname(entry.pname));
  const namers = new Map<string, number[]>();
  entries.forEach((entry, id) => {
    const { set, leaf } = splitAttr(entry.attr);
    const family = familyOf(set);
    const voice = `${family}.${leaf}`;
    if (voices.has(voice)) return;
    voices.add(voice);
    for (const name of namesIn(entry, named, ordinary)) {
      // Its own program names no other package: kubernetes-helm, whose program is helm, is no mention of the synthesizer helm.
      if (name === programs[id]) continue;
      const setVoice = set && name.length < MIN_PROSE_NAME_LENGTH ? `${family}.${name}` : "";
      if (setVoice) {
        if (setVoices.has(setVoice)) continue;
        setVoices.add(setVoice);
      }
      pushTo(namers, name, id);
    }
  });

  const termsOf = new Map<number, Set<string>>();
  const descriptionTermsOf = (id: number) => {
    const known = termsOf.get(id);
    if (known) return known;
    const terms = new Set(descriptionTerms(entries[id]!.description));
    termsOf.set(id, terms);
    return terms;
  };
  const mentioners = new Map<number, number[]>();
  for (const [name, ids] of namers) {
    for (const target of meantBy(name, named.get(name)!, ids, { programOnly, topLevel, termsOf: descriptionTermsOf })) {
      for (const id of ids) {
        if (target === id || plainPnames[target] === plainPnames[id] || (programOnly(target, name) && own[id]!.has(name))) continue;
        pushTo(mentioners, target, id);
      }
    }
  }
  // In catalog order, each once however many of its names it says ("kubernetes-helm" is helm too): which of a much-named
  // package's mentioners give its context must not depend on its names' order.
  for (const [target, list] of mentioners)
    mentioners.set(
      target,
      [...new Set(list)].sort((a, b) => a - b),
    );

  for (const [target, ids] of mentioners) {
    count[target] = ids.length;
    const own = new Set(textTerms(`${entries[target]!.attr} ${entries[target]!.pname}`));
    const targetLeaf = splitAttr(entries[target]!.attr).leaf;
    const frequency = new Map<string, number>();
    for (const id of ids.slice(0, MAX_CONTEXT_MENTIONS)) {
      const terms = descriptionTermsOf(id);
      // A package of the same name in another set (an editor's extension for it) is the same project: it says twice as much.
      const votes = splitAttr(entries[id]!.attr).leaf === targetLeaf ? 2 : 1;
      for (const term of terms) {
        if (!own.has(term)) frequency.set(term, (frequency.get(term) ?? 0) + votes);
      }
    }
    context[target] = [...frequency]
      .filter(([, times]) => times >= Math.min(MIN_CONTEXT_MENTIONS, ids.length))
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, MAX_CONTEXT_TERMS)
      .map(([term]) => term);
  }
  return { count, context };
}

/**
 * Which of the packages a name is its mentioners mean, when one is so named only by its program: those whose own
 * description says most of what the mentioners commonly say, the name aside ("Helm charts", "Kubernetes":
 * kubernetes-helm, "Package manager for kubernetes", not the synthesizer helm). When none says any of it, the
 * packages so named themselves, as every mention went before programs were names. A set's members keep theirs.
 */
function meantBy(name: string, targets: number[], mentioners: number[], { programOnly, topLevel, termsOf }: NameFacts): number[] {
  const byProgram = targets.filter((target) => programOnly(target, name));
  if (byProgram.length === 0) return targets;
  const ownTerms = new Set(textTerms(name));
  const frequency = new Map<string, number>();
  for (const id of mentioners.slice(0, MAX_CONTEXT_MENTIONS))
    for (const term of termsOf(id)) if (!ownTerms.has(term)) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const common = [...frequency].filter(([, times]) => times >= MIN_CONTEXT_MENTIONS).map(([term]) => term);
  const shared = (target: number) => common.filter((term) => termsOf(target).has(term)).length;
  const most = Math.max(...targets.filter(topLevel).map(shared));
  const meant = (target: number) => !topLevel(target) || (most === 0 ? !byProgram.includes(target) : shared(target) === most);
  return targets.filter(meant);
}

/** What meantBy asks of the packages, by id. */
interface NameFacts {
  programOnly: (id: number, name: string) => boolean;
  topLevel: (id: number) => boolean;
  termsOf: (id: number) => Set<string>;
}

/** Adds an id to the list a key has. */
function pushTo<K>(lists: Map<K, number[]>, key: K, id: number): void {
  const list = lists.get(key);
  if (list) list.push(id);
  else lists.set(key, [id]);
}

/** A package's own names: its attribute's last part and its pname. */
function ownNames(entry: CatalogEntry): Set<string> {
  return new Set([splitAttr(entry.attr).leaf.toLowerCase(), plainPname(entry.pname).toLowerCase()]);
}

/** The top-level package names a package's description and attribute mention. */
function namesIn(entry: CatalogEntry, named: ReadonlyMap<string, number[]>, ordinary: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  const inProse = (word: string) => word.length >= MIN_PROSE_NAME_LENGTH && named.has(word) && !ordinary.has(word);
  // Description words, with their hyphenated runs ("rust-analyzer", "wireshark-cli").
  for (const token of entry.description.toLowerCase().split(/[^a-z0-9+#-]+/)) {
    const word = token.replace(/^-+|-+$/g, "");
    if (inProse(word)) found.add(word);
    if (word.includes("-")) for (const part of word.split("-")) if (inProse(part)) found.add(part);
  }
  // Runs of the attribute leaf's parts: "coc-rust-analyzer" names rust-analyzer. Two letters only lead one ("gh-dash"):
  // after another part they are mostly something else ("monads-fd", "de-at").
  const parts = splitAttr(entry.attr).leaf.toLowerCase().split(/[-_]+/);
  if (parts.length <= MAX_LEAF_PARTS) {
    for (let start = 0; start < parts.length; start++) {
      for (let end = start + 1; end <= parts.length; end++) {
        const run = parts.slice(start, end).join("-");
        if (named.has(run) && (start === 0 || run.length >= MIN_PROSE_NAME_LENGTH)) found.add(run);
      }
    }
  }
  return found;
}
