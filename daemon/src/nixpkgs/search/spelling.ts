// A misspelt word of a longer query ("filter json on the comand line", "go languge server") read as the word
// meant: one no name, description or other package's word has, within one typo (an insertion, a deletion, a
// substitution or a swap of neighbours) of a word descriptions use. A query of one word is a name, left to
// "did you mean" (close-names.ts).
import type { NixpkgsIndex } from "../index/index.js";
import { isStopword, stem } from "./text.js";

/** Shorter words are too often an acronym or a name this nixpkgs lacks, one typo from some other word... */
const MIN_LENGTH = 5;
/** ...and a longer one no typo of a word (each letter costs 54 lookups). */
const MAX_LENGTH = 16;
/** The most words mended in one query: a query of nonsense words costs no more than a few. */
const MAX_MENDED = 2;
/** The word meant is a common one: a typo of a word few descriptions use is more likely another word. */
const MIN_USES = 3;
const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** The query with each misspelt word respelt. */
export function withTyposMended(index: NixpkgsIndex, query: string): string {
  if (!/\s/.test(query.trim())) return query;
  let tries = 0;
  // Whole words only, between spaces and punctuation: the parts of a name or a path ("AlgorithmC3", "rtl8812au",
  // "dictdDBs.wiktionary") are no words.
  return query.replace(/(?<=^|[\s,;:!?()"'])[A-Za-z]+(?=$|[\s,;:!?()"']|\.(?:\s|$))/g, (word) => {
    const lower = word.toLowerCase();
    // A stopword is in no index, and no typo: "would" is no "world", "until" no "util".
    if (lower.length < MIN_LENGTH || lower.length > MAX_LENGTH || tries >= MAX_MENDED || isStopword(lower) || known(index, lower))
      return word;
    tries++;
    return meant(index, lower) ?? word;
  });
}

/** Whether any name, description or other package's word of any package is this word. */
function known(index: NixpkgsIndex, word: string): boolean {
  const stemmed = stem(word);
  return (
    index.exact.find(word) >= 0 || index.names.find(word) >= 0 || index.descriptions.find(stemmed) >= 0 || index.context.find(stemmed) >= 0
  );
}

/** The word one typo away that the most descriptions use, if enough do. */
function meant(index: NixpkgsIndex, word: string): string | undefined {
  let best: string | undefined;
  let bestUses = MIN_USES - 1;
  for (const candidate of oneTypoFrom(word)) {
    const candidateStem = stem(candidate);
    // A word meant keeps at least half its letters in its stem; one that the stemmer cuts shorter is another,
    // shorter word with an ending made up: "bitrate" is no "biteate", which stems to "bit".
    if (2 * candidateStem.length < word.length) continue;
    const term = index.descriptions.find(candidateStem);
    const uses = term >= 0 ? index.descriptions.postings(term).length : 0;
    if (uses > bestUses) [best, bestUses] = [candidate, uses];
  }
  return best;
}

/** Every word one insertion, deletion, substitution or swap of neighbours from `word`. */
function oneTypoFrom(word: string): Set<string> {
  const words = new Set<string>();
  for (let i = 0; i <= word.length; i++) {
    const [before, after] = [word.slice(0, i), word.slice(i)];
    for (const letter of LETTERS) {
      words.add(before + letter + after);
      if (after) words.add(before + letter + after.slice(1));
    }
    if (after) words.add(before + after.slice(1));
    if (after.length >= 2) words.add(before + after[1] + after[0] + after.slice(2));
  }
  words.delete(word);
  return words;
}
