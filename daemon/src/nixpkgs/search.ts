// Ranked search for how agents ask. A whole name ("rg", "ripgrep", "python3Packages.requests")
// ranks first; otherwise every query word scores its best match on a package (a word of its
// name, a prefix or suffix of one, or a description stem weighted by rarity), packages matching
// more of the words win, and a package set's weight says how likely it is meant. Package sets
// collapse to their newest member; broken/unfree packages and other platforms are hidden unless
// asked for.
import { NixpkgsError } from "./errors.js";
import { FLAG, plainPname } from "./index-build.js";
import type { NixpkgsIndex, PackageRecord } from "./index.js";
import { ECOSYSTEM_WORDS, splitAttr } from "./package-sets.js";
import { relatedStems } from "./synonyms.js";
import { normalizeName, squashName, stem, textTerms } from "./text.js";

export interface SearchOptions {
  limit?: number;
  includeBroken?: boolean;
  includeUnfree?: boolean;
  /** A Nix system ("x86_64-linux"), or "any". */
  platform?: string;
}

export type SearchResult = PackageRecord & {
  flags: string[];
  /** The same package in other versions of its set (python312Packages.x beside python313Packages.x). */
  alsoIn: string[];
  score: number;
};

const WEIGHT = {
  wholeName: 100,
  otherWholeName: 0.85,
  nameWord: 10,
  nameWordCloseness: 6,
  namePrefix: 6,
  nameSuffix: 5,
  descriptionStem: 1.3,
  descriptionPrefix: 0.6,
  related: 0.5,
  typicalWordWeight: 7,
  /** Factor of the family the query names ("python …"). */
  namedEcosystem: 1.2,
  /** Factor of the curated everyday tools. */
  common: 2,
} as const;
export const MAX_LIMIT = 50;
const PREFIX_EXPANSION = 64;

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
  /** The ids, then the list is empty again. */
  drain(): Uint32Array {
    const ids = this.ids.subarray(0, this.length);
    this.length = 0;
    return ids;
  }
}

/** Reusable per-package scratch arrays: a search allocates nothing proportional to the catalog. */
interface Scratch {
  touched: IdList;
  reps: IdList;
  hits: IdList;
  described: IdList;
  total: Float64Array;
  word: Float64Array;
  description: Float64Array;
  matched: Float64Array;
  whole: Float32Array;
  best: Float64Array;
}
const scratches = new WeakMap<NixpkgsIndex, Scratch>();

function scratchFor(index: NixpkgsIndex): Scratch {
  let scratch = scratches.get(index);
  if (!scratch) {
    const n = index.size;
    scratch = {
      touched: new IdList(n),
      reps: new IdList(n),
      hits: new IdList(n),
      described: new IdList(n),
      total: new Float64Array(n),
      word: new Float64Array(n),
      description: new Float64Array(n),
      matched: new Float64Array(n),
      whole: new Float32Array(n),
      best: new Float64Array(n),
    };
    scratches.set(index, scratch);
  }
  return scratch;
}

/** What a query asks for, before any package is scored. */
interface ParsedQuery {
  /** The query without installable syntax. */
  text: string;
  /** Whole names the query may be (all of it, or what remains once the ecosystem is named). */
  wholeKeys: Set<string>;
  /** Words matched against names and descriptions. */
  contentWords: string[];
  /** Families the query names ("python …", "python3Packages …"). */
  familyIds: Set<number>;
}

function parseQuery(index: NixpkgsIndex, query: string): ParsedQuery {
  // Agents also write installables: "nixpkgs#jq", "pkgs.jq", "nixpkgs.legacyPackages.x86_64-linux.jq".
  const text = query.trim().replace(/^(nixpkgs#|nixpkgs\.|pkgs\.)(legacyPackages\.[\w-]+\.)?/, "");
  if (!text) throw new NixpkgsError("empty query", "Pass a package name or a few words of what it does, e.g. 'json processor'.");
  const words = [...new Set(text.toLowerCase().split(/[^a-z0-9+#]+/).filter(Boolean))];
  // Ecosystem words: "python", or a set's own name ("python3Packages pandas").
  const familyWords = new Map(words.map((w) => [w, /packages|plugins|extensions/.test(w) ? index.familyIndex(w) : -1]));
  const ecosystems = new Set(words.flatMap((w) => ECOSYSTEM_WORDS[w] ?? []));
  const subjectWords = words.filter((w) => !ECOSYSTEM_WORDS[w] && familyWords.get(w)! < 0);
  const wholeKeys = new Set<string>();
  for (const name of [text, subjectWords.join(" ")]) {
    for (const key of [normalizeName(name), squashName(name), plainPname(normalizeName(name))]) if (key) wholeKeys.add(key);
  }
  return {
    text,
    wholeKeys,
    contentWords: (subjectWords.length > 0 ? subjectWords : words).filter((w) => textTerms(w).length > 0 || words.length === 1),
    familyIds: new Set([
      ...index.header.families.flatMap((name, i) => (ecosystems.has(name) ? [i] : [])),
      ...[...familyWords.values()].filter((id) => id >= 0),
    ]),
  };
}

export function searchIndex(index: NixpkgsIndex, query: string, options: SearchOptions = {}): SearchResult[] {
  const limit = Math.min(Math.max(options.limit ?? 10, 1), MAX_LIMIT);
  const { text, wholeKeys, contentWords, familyIds } = parseQuery(index, query);
  const platform = options.platform && options.platform !== "any" ? options.platform : undefined;
  if (platform && !/^[a-z0-9_]+-[a-z0-9_]+$/.test(platform)) {
    throw new NixpkgsError(`'${platform}' is not a Nix system`, `Use one such as x86_64-linux or aarch64-darwin, or "any".`);
  }
  const mask = platform ? index.platformMask(platform) : undefined;
  const scratch = scratchFor(index);
  const { total, matched, whole, best, touched, reps } = scratch;
  const touch = (id: number) => {
    if (total[id] === 0 && matched[id] === 0 && whole[id] === 0) touched.push(id);
  };

  // A name that is the attribute's own counts fully; a pname or program a little less
  // ("python3" is the pname of every python3.withPackages environment).
  const markWhole = (id: number) => {
    touch(id);
    whole[id] = wholeKeys.has(normalizeName(splitAttr(index.attr(id)).leaf)) ? 1 : WEIGHT.otherWholeName;
  };
  let wholeFound = false;
  for (const key of wholeKeys) {
    const term = index.exact.find(key);
    if (term < 0) continue;
    wholeFound = true;
    index.exact.postings(term).forEach(markWhole);
  }
  // An attribute path ("python312Packages.flask", or through an alias: "python3Packages.flask"):
  // the leaf within its family; the exact path, when it exists, is what its group shows.
  const exactId = text.includes(".") ? index.lookup(text) : -1;
  if (!wholeFound && text.includes(".")) {
    const member = exactId >= 0 ? exactId : index.lookupInFamily(text);
    if (member >= 0) markWhole(member);
  }

  // Coverage counts each word by its rarity: missing "files" costs less than missing "encrypt".
  let wanted = 0;
  for (const w of contentWords) {
    const weight = wordWeight(index, w);
    wanted += weight;
    scoreWord(index, w, weight, scratch, (id, score) => {
      touch(id);
      total[id] = total[id]! + score;
      matched[id] = matched[id]! + weight;
    });
  }

  for (const id of touched.drain()) {
    const flags = index.flags[id]!;
    const hidden =
      (!options.includeBroken && flags & FLAG.broken) || (!options.includeUnfree && flags & FLAG.unfree) || (mask && !mask[index.platformSet[id]!]);
    if (!hidden) {
      const coverage = wanted > 0 ? Math.min(1, matched[id]! / wanted) : 0;
      const factor = familyIds.has(index.family[id]!) ? WEIGHT.namedEcosystem : index.factor[id]!;
      const common = flags & FLAG.common ? WEIGHT.common : 1;
      const score = (whole[id]! * WEIGHT.wholeName + total[id]! * coverage * coverage) * factor * common;
      const rep = index.groupRep[id]!;
      if (best[rep] === 0) reps.push(rep);
      if (score > best[rep]!) best[rep] = score;
    }
    total[id] = 0;
    matched[id] = 0;
    whole[id] = 0;
  }

  const candidates = reps.drain();
  const top = topK(candidates, best, limit, index);
  for (const rep of candidates) best[rep] = 0;
  return top.map(({ id: rep, score }) => {
    const id = exactId >= 0 && index.groupRep[exactId] === rep ? exactId : rep;
    return {
      ...index.record(id),
      flags: index.flagNames(id),
      alsoIn: index.groupMembers(id).map((member) => index.attr(member)),
      score: Math.round(score * 10) / 10,
    };
  });
}

/** How much a word says: its description rarity, the most for words no description uses. */
function wordWeight(index: NixpkgsIndex, word: string): number {
  const term = index.descriptions.find(stem(word));
  return Math.log(1 + index.size / (term >= 0 ? index.descriptions.postings(term).length : 1));
}

/** Calls `add` once per package with the best way one query word matches it. */
function scoreWord(index: NixpkgsIndex, word: string, weight: number, scratches: Scratch, add: (id: number, score: number) => void): void {
  const { word: scratch, description, hits, described } = scratches;
  // A common word ("file", "tool") in a name says less than a rare one.
  const rarity = Math.min(1.3, Math.max(0.4, weight / WEIGHT.typicalWordWeight));
  const offer = (id: number, score: number) => {
    if (scratch[id] === 0) hits.push(id);
    if (score > scratch[id]!) scratch[id] = score;
  };
  const nameTerm = index.names.find(word);
  if (nameTerm >= 0) {
    for (const id of index.names.postings(nameTerm)) {
      offer(id, rarity * (WEIGHT.nameWord + WEIGHT.nameWordCloseness * Math.min(1, word.length / index.nameLength[id]!)));
    }
  }
  const partial = (term: number, weight: number) => {
    const score = rarity * weight * (0.5 + word.length / index.names.term(term).length / 2);
    for (const id of index.names.postings(term)) offer(id, score);
  };
  if (word.length >= 2) for (const term of index.names.withPrefix(word, PREFIX_EXPANSION)) partial(term, WEIGHT.namePrefix);
  if (word.length >= 3) {
    const reversed = [...word].reverse().join("");
    for (const entry of index.namesReversed.withPrefix(reversed, PREFIX_EXPANSION)) partial(index.namesReversed.postings(entry)[0]!, WEIGHT.nameSuffix);
  }

  // Description: the stem itself, longer words it starts, and related words, each by rarity.
  const descriptions = index.descriptions;
  const idf = (term: number) => Math.log(1 + index.size / descriptions.postings(term).length);
  const credit = (term: number, weight: number) => {
    const score = weight * idf(term);
    for (const id of descriptions.postings(term)) {
      if (description[id] === 0) described.push(id);
      if (description[id]! < score) description[id] = score;
    }
  };
  const stemmed = stem(word);
  const own = descriptions.find(stemmed);
  if (own >= 0) credit(own, WEIGHT.descriptionStem);
  if (stemmed.length >= 4) for (const term of descriptions.withPrefix(stemmed, PREFIX_EXPANSION)) credit(term, WEIGHT.descriptionPrefix);
  for (const related of relatedStems(stemmed)) {
    const term = descriptions.find(related);
    if (term >= 0) credit(term, WEIGHT.descriptionStem * WEIGHT.related);
  }
  // A word in both the name and the description counts for both, the description half.
  for (const id of described.drain()) {
    const score = description[id]!;
    description[id] = 0;
    if (scratch[id]! > 0) scratch[id] = scratch[id]! + score / 2;
    else offer(id, score);
  }
  for (const id of hits.drain()) {
    add(id, scratch[id]!);
    scratch[id] = 0;
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
function topK(ids: Uint32Array, score: Float64Array, k: number, index: NixpkgsIndex): Ranked[] {
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
