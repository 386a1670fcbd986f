// "Did you mean …" for a name this nixpkgs lacks: the index's names within a typo or two of it
// (Damerau-Levenshtein over the `exact` dictionary: attribute leaves, pnames and programs), in
// the set the name is in when it names one. Closer first, then top-level before a set's members,
// then the likelier (the index's factor). One pass over the dictionary's bytes in place, decoding
// none: a few milliseconds over nixpkgs' quarter of a million names.
import type { NixpkgsIndex } from "../index/index.js";
import { splitAttr } from "../index/package-sets.js";
import { squashName } from "./text.js";

interface Candidate {
  name: string;
  typos: number;
  topLevel: boolean;
  factor: number;
}

/** Typos allowed in a name of this length: none in two letters (every two-letter name is one away), one up to five, two beyond. */
function allowedTypos(length: number): number {
  return Math.min(2, Math.floor(length / 3));
}

/** For a search that found nothing: the names closest to a query that is one name ("ripgrpe"), else none. */
export function closeToQuery(index: NixpkgsIndex, query: string): string[] {
  const name = query.trim();
  return /^[\w.+-]+$/.test(name) ? closeNames(index, name) : [];
}

/** The names closest to `attr`'s, as attribute paths; at most `limit`. */
export function closeNames(index: NixpkgsIndex, attr: string, limit = 5): string[] {
  const { set, leaf } = splitAttr(attr);
  const key = Buffer.from(squashName(leaf));
  const max = allowedTypos(key.length);
  const family = set ? index.familyIndex(set) : -1;
  if (max === 0 || (set && family < 0)) return [];
  const topLevel = index.topLevelFamily;
  const found = new Map<string, Candidate>();
  const { bytes, offsets } = index.exact.termBytes();
  const rows = new TypoRows(key.length + max + 1);
  for (let term = 0; term < index.exact.size; term++) {
    const start = offsets[term]!;
    const length = offsets[term + 1]! - start;
    if (Math.abs(length - key.length) > max) continue;
    const typos = rows.distance(key, bytes, start, length, max);
    if (typos > max) continue;
    for (const id of index.exact.postings(term)) {
      if (set && index.family[id] !== family) continue;
      // A set's member in the set as it was named; a package once for all its versions and builds.
      const name = set ? `${set}.${splitAttr(index.attr(id)).leaf}` : index.attr(index.groupRep[id]!);
      const candidate = { name, typos, topLevel: index.family[id] === topLevel, factor: index.factor[id]! };
      const known = found.get(name);
      if (!known || rank(candidate, known) < 0) found.set(name, candidate);
    }
  }
  found.delete(attr);
  return [...found.values()]
    .sort(rank)
    .slice(0, limit)
    .map((candidate) => candidate.name);
}

function rank(a: Candidate, b: Candidate): number {
  return a.typos - b.typos || Number(b.topLevel) - Number(a.topLevel) || b.factor - a.factor || (a.name < b.name ? -1 : 1);
}

/** Three rows of the edit-distance table, reused for every term. */
class TypoRows {
  private older: Int32Array;
  private previous: Int32Array;
  private current: Int32Array;

  constructor(width: number) {
    this.older = new Int32Array(width + 1);
    this.previous = new Int32Array(width + 1);
    this.current = new Int32Array(width + 1);
  }

  /**
   * The optimal-string-alignment distance (insertions, deletions, substitutions and swaps of
   * neighbours) from `key` to the term at bytes[start..start+length], or max + 1 once it exceeds
   * `max`. Only the diagonal band of width 2·max + 1 is filled: a cell further out is more than
   * `max` edits away.
   */
  distance(key: Uint8Array, bytes: Uint8Array, start: number, length: number, max: number): number {
    const over = max + 1;
    for (let j = 0; j <= length; j++) this.previous[j] = j;
    for (let i = 1; i <= key.length; i++) {
      const row = this.current;
      const previous = this.previous;
      const low = Math.max(1, i - max);
      const high = Math.min(length, i + max);
      row[0] = i;
      if (low > 1) row[low - 1] = over;
      let best = low > 1 ? over : i;
      for (let j = low; j <= high; j++) {
        const same = key[i - 1] === bytes[start + j - 1];
        let cell = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (same ? 0 : 1));
        if (i > 1 && j > 1 && key[i - 1] === bytes[start + j - 2] && key[i - 2] === bytes[start + j - 1])
          cell = Math.min(cell, this.older[j - 2]! + 1);
        row[j] = cell;
        if (cell < best) best = cell;
      }
      if (high < length) row[high + 1] = over;
      if (best > max) return over;
      this.current = this.older;
      this.older = previous;
      this.previous = row;
    }
    return Math.min(this.previous[length]!, over);
  }
}
