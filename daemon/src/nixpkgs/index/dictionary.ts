// A sorted term dictionary with a postings list per term, stored as four flat arrays: term bytes,
// term offsets, postings offsets, postings. Lookups binary-search the bytes in place, so nothing
// is decoded at load time.
import type { Section } from "./file.js";

export interface DictionarySections {
  terms: Uint8Array;
  termOffsets: Uint32Array;
  postingOffsets: Uint32Array;
  postings: Uint32Array;
}

/** Builds a dictionary from term → sorted unique package ids. */
export function encodeDictionary(postingsByTerm: Map<string, number[]>): DictionarySections {
  const encoded = [...postingsByTerm.keys()].map((term) => ({ term, bytes: Buffer.from(term) }));
  encoded.sort((a, b) => Buffer.compare(a.bytes, b.bytes));
  const termOffsets = new Uint32Array(encoded.length + 1);
  const postingOffsets = new Uint32Array(encoded.length + 1);
  let termBytes = 0;
  let postingCount = 0;
  encoded.forEach(({ term, bytes }, i) => {
    termBytes += bytes.length;
    postingCount += postingsByTerm.get(term)!.length;
    termOffsets[i + 1] = termBytes;
    postingOffsets[i + 1] = postingCount;
  });
  const terms = new Uint8Array(termBytes);
  const postings = new Uint32Array(postingCount);
  encoded.forEach(({ term, bytes }, i) => {
    terms.set(bytes, termOffsets[i]!);
    postings.set(postingsByTerm.get(term)!, postingOffsets[i]!);
  });
  return { terms, termOffsets, postingOffsets, postings };
}

export function dictionarySections(prefix: string, dictionary: DictionarySections): Record<string, Section> {
  return {
    [`${prefix}.terms`]: dictionary.terms,
    [`${prefix}.termOffsets`]: dictionary.termOffsets,
    [`${prefix}.postingOffsets`]: dictionary.postingOffsets,
    [`${prefix}.postings`]: dictionary.postings,
  };
}

export class Dictionary {
  private readonly termBuffer: Buffer;

  constructor(private readonly sections: DictionarySections) {
    this.termBuffer = Buffer.from(sections.terms.buffer, sections.terms.byteOffset, sections.terms.byteLength);
  }

  get size(): number {
    return this.sections.termOffsets.length - 1;
  }

  term(index: number): string {
    return this.termBuffer.toString("utf8", this.sections.termOffsets[index], this.sections.termOffsets[index + 1]);
  }

  postings(index: number): Uint32Array {
    return this.sections.postings.subarray(this.sections.postingOffsets[index], this.sections.postingOffsets[index + 1]);
  }

  /** Whether a term's postings, ascending, hold `id`. */
  lists(term: number, id: number): boolean {
    // In place, with no view of the postings made: this runs once per candidate of a search.
    const { postings, postingOffsets } = this.sections;
    let [low, high] = [postingOffsets[term]!, postingOffsets[term + 1]!];
    const end = high;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (postings[middle]! < id) low = middle + 1;
      else high = middle;
    }
    return low < end && postings[low] === id;
  }

  /** Per term, how many of its postings `accept` takes: a column derived in one pass over the postings. */
  countPostings(accept: (id: number) => boolean): Uint32Array {
    const { postings, postingOffsets } = this.sections;
    const counts = new Uint32Array(this.size);
    for (let term = 0; term < this.size; term++) {
      // Bounded by the postings as postings() is, whatever a damaged file's offsets say.
      const end = Math.min(postingOffsets[term + 1]!, postings.length);
      for (let at = postingOffsets[term]!; at < end; at++) if (accept(postings[at]!)) counts[term]!++;
    }
    return counts;
  }

  /** Per id below `size`, how many terms list it: a description's length in distinct stems. */
  termsPerId(size: number): Uint16Array {
    const { postings } = this.sections;
    const counts = new Uint16Array(size);
    for (const id of postings) if (id < size) counts[id]!++;
    return counts;
  }

  /** The terms' bytes in place, term i at offsets[i]..offsets[i + 1]: for a scan of every term that decodes none. */
  termBytes(): { bytes: Uint8Array; offsets: Uint32Array } {
    return { bytes: this.sections.terms, offsets: this.sections.termOffsets };
  }

  /** A term's length in bytes, without decoding it. */
  termLength(index: number): number {
    return this.sections.termOffsets[index + 1]! - this.sections.termOffsets[index]!;
  }

  /**
   * How the term at `index` orders against `key` in bytes (negative: the term sorts first), or, with
   * `prefixOnly`, against the key's length of it. A loop of JavaScript: for keys of a few bytes it is
   * several times faster than Buffer.compare's native call, and lookups make hundreds per search.
   */
  private compareTerm(index: number, key: Uint8Array, prefixOnly = false): number {
    const { terms, termOffsets } = this.sections;
    const start = termOffsets[index]!;
    const length = (prefixOnly ? Math.min(termOffsets[index + 1]!, start + key.length) : termOffsets[index + 1]!) - start;
    const common = Math.min(length, key.length);
    for (let i = 0; i < common; i++) {
      const difference = terms[start + i]! - key[i]!;
      if (difference !== 0) return difference;
    }
    return length - key.length;
  }

  /** Index of the first term ≥ `key` in byte order. */
  lowerBound(key: Uint8Array): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compareTerm(mid, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Index of `term`, or -1. */
  find(term: string): number {
    const key = Buffer.from(term);
    const at = this.lowerBound(key);
    return at < this.size && this.compareTerm(at, key) === 0 ? at : -1;
  }

  /**
   * Indices of the terms that start with `prefix`, among the first `limit` that do: longer ones only,
   * unless `including` the term equal to it, and at most `maxExtra` bytes longer than it.
   */
  withPrefix(prefix: string, limit: number, { including = false, maxExtra = Number.POSITIVE_INFINITY } = {}): number[] {
    const key = Buffer.from(prefix);
    const found: number[] = [];
    for (let at = this.lowerBound(key), seen = 0; at < this.size && seen < limit; at++, seen++) {
      const length = this.termLength(at);
      if (length < key.length || this.compareTerm(at, key, true) !== 0) break;
      if ((length > key.length || including) && length - key.length <= maxExtra) found.push(at);
    }
    return found;
  }
}
