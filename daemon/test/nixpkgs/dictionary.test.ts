// The term dictionary's prefix scan, which search uses for names a word starts and for forms of it.
import { describe, expect, it } from "vitest";
import { Dictionary, encodeDictionary } from "../../src/nixpkgs/index/dictionary.js";

const dictionary = new Dictionary(
  encodeDictionary(new Map(["java", "javac", "javascript", "javadoc", "jq"].map((term, i) => [term, [i]]))),
);
const terms = (found: number[]) => found.map((at) => dictionary.term(at));

describe("a dictionary's terms with a prefix", () => {
  it("are the longer ones, or the term itself too when including it, up to a limit", () => {
    expect(terms(dictionary.withPrefix("java", 10))).toEqual(["javac", "javadoc", "javascript"]);
    expect(terms(dictionary.withPrefix("java", 10, { including: true }))).toEqual(["java", "javac", "javadoc", "javascript"]);
    expect(terms(dictionary.withPrefix("java", 2, { including: true }))).toEqual(["java", "javac"]);
  });

  it("are at most maxExtra bytes longer when asked: forms of a word, not other words", () => {
    expect(terms(dictionary.withPrefix("java", 10, { maxExtra: 3 }))).toEqual(["javac", "javadoc"]);
    expect(dictionary.withPrefix("jx", 10)).toEqual([]);
  });
});

describe("a dictionary's lookup of a term", () => {
  it("finds every term and nothing else, in byte order, whatever its bytes (a prefix of another, beyond ASCII)", () => {
    const words = ["a", "ab", "abc", "b", "ba", "z", "zz", "é", "éa", "ü", "日本", "日", "~", "0", "a-b", "a_b"];
    const found = new Dictionary(encodeDictionary(new Map(words.map((term, i) => [term, [i]]))));
    for (const [i, term] of words.entries()) expect([...found.postings(found.find(term))]).toEqual([i]);
    for (const absent of ["", "aa", "abcd", "c", "e", "é b", "日本語", "zzz", "\u00ff"]) expect(found.find(absent)).toBe(-1);
    expect(found.withPrefix("é", 10).map((at) => found.term(at))).toEqual(["éa"]);
    expect(found.withPrefix("日", 10, { including: true }).map((at) => found.term(at))).toEqual(["日", "日本"]);
    expect(found.termLength(found.find("日本"))).toBe(6);
  });
});

describe("a dictionary's postings counted per term", () => {
  it("says whether a term lists an id, at either end of its postings, between them, or when it lists none", () => {
    const listed = new Dictionary(
      encodeDictionary(
        new Map([
          ["a", [1, 4, 9, 12]],
          ["b", []],
          ["c", [13]],
        ]),
      ),
    );
    // 13 follows a's postings in the flat array, as c's: it is no posting of a's.
    expect([0, 1, 4, 5, 9, 12, 13].map((id) => listed.lists(0, id))).toEqual([false, true, true, false, true, true, false]);
    expect([listed.lists(1, 0), listed.lists(1, 13), listed.lists(2, 13)]).toEqual([false, false, true]);
  });

  it("counts the ones accepted, per term", () => {
    const counted = new Dictionary(
      encodeDictionary(
        new Map([
          ["a", [1, 2, 3]],
          ["b", [2]],
          ["c", []],
        ]),
      ),
    );
    expect([...counted.countPostings((id) => id >= 2)]).toEqual([2, 1, 0]);
  });

  it("stays within the postings when a damaged file's offsets run past them", () => {
    const sections = encodeDictionary(
      new Map([
        ["a", [1, 2]],
        ["b", [3]],
      ]),
    );
    sections.postingOffsets[2] = 0xffffffff;
    expect([...new Dictionary(sections).countPostings(() => true)]).toEqual([2, 1]);
  });
});

describe("a dictionary's terms counted per id", () => {
  it("counts the terms listing each id, and no id past the size given (a damaged file's)", () => {
    const counted = new Dictionary(
      encodeDictionary(
        new Map([
          ["a", [0, 1]],
          ["b", [1, 7]],
        ]),
      ),
    );
    expect([...counted.termsPerId(3)]).toEqual([1, 2, 0]);
  });
});
