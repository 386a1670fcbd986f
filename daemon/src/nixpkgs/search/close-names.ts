// "Did you mean …" for a name this nixpkgs lacks: the index's names within a typo or two of it
// (Damerau-Levenshtein over the `exact` dictionary: attribute leaves, pnames and programs), in
// the set the name is in when it names one. Closer first, then top-level before a set's members,
// then the likelier (the index's factor). Only names of a length and of letters within the typos
// allowed are compared, in place, decoding none: under 2 ms over nixpkgs' quarter of a million names,
// where comparing each took 9.
import { type NixpkgsIndex, perIndex } from "../index/index.js";
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
  const { letters, byLength, lengthStarts } = shapesOf(index);
  const keyLetters = letterSet(key, 0, key.length);
  const rows = new TypoRows(key.length + max + 1);
  // Only names of a length within the typos allowed (none when every name is shorter).
  const longest = lengthStarts.length - 2;
  const [from, to] = [Math.min(longest + 1, Math.max(0, key.length - max)), Math.min(longest, key.length + max)];
  for (let at = lengthStarts[from]!; at < lengthStarts[to + 1]!; at++) {
    const term = byLength[at]!;
    // Each letter one has and the other lacks takes an edit: most names are further than that, and cost no table.
    const nameLetters = letters[term]!;
    if (bitCount(keyLetters & ~nameLetters) > max || bitCount(nameLetters & ~keyLetters) > max) continue;
    const start = offsets[term]!;
    const typos = rows.distance(key, bytes, start, offsets[term + 1]! - start, max);
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

/** The `exact` dictionary's names by shape: each one's letters (letterSet), and their ids by length, computed once per index. */
interface NameShapes {
  letters: Uint32Array;
  /** Term ids, shortest name first... */
  byLength: Uint32Array;
  /** ...where those of length L start (and end at L + 1's start). */
  lengthStarts: Uint32Array;
}
const shapesOf = perIndex((index): NameShapes => {
  const { bytes, offsets } = index.exact.termBytes();
  const size = index.exact.size;
  const letters = new Uint32Array(size);
  const lengthOf = (term: number) => offsets[term + 1]! - offsets[term]!;
  let longest = 0;
  for (let term = 0; term < size; term++) {
    letters[term] = letterSet(bytes, offsets[term]!, offsets[term + 1]!);
    longest = Math.max(longest, lengthOf(term));
  }
  const lengthStarts = new Uint32Array(longest + 2);
  for (let term = 0; term < size; term++) lengthStarts[lengthOf(term) + 1]!++;
  for (let length = 1; length < lengthStarts.length; length++) lengthStarts[length]! += lengthStarts[length - 1]!;
  const byLength = new Uint32Array(size);
  const next = lengthStarts.slice();
  for (let term = 0; term < size; term++) byLength[next[lengthOf(term)]!++] = term;
  return { letters, byLength, lengthStarts };
});

/** The letters of bytes[start..end] as bits: a to z, then one bit for any digit and one for anything else. */
function letterSet(bytes: Uint8Array, start: number, end: number): number {
  let set = 0;
  for (let i = start; i < end; i++) {
    const byte = bytes[i]!;
    const bit = byte >= 97 && byte <= 122 ? byte - 97 : byte >= 48 && byte <= 57 ? 26 : 27;
    set |= 1 << bit;
  }
  return set;
}

/** The number of bits set (a population count, in parallel over the word). */
function bitCount(bits: number): number {
  let n = bits - ((bits >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
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
