// A loaded index: columns and dictionaries viewed in place over one read, attribute paths in memory,
// each package's details read from disk when a result shows it.
import { Dictionary, type DictionarySections } from "./dictionary.js";
import { readIndexFile, type IndexFile, type IndexHeader } from "./file.js";
import { DETAIL_FIELDS, FLAG } from "./build.js";
import { familyFactor, familyOf, isNicheFamily, splitAttr } from "./package-sets.js";

export type PackageRecord = Record<"attr" | (typeof DETAIL_FIELDS)[number], string>;

/** A value computed from an index on first use and kept as long as the index is (search's scratch arrays, its names' shapes). */
export function perIndex<T>(compute: (index: NixpkgsIndex) => T): (index: NixpkgsIndex) => T {
  const known = new WeakMap<NixpkgsIndex, T>();
  return (index) => {
    if (!known.has(index)) known.set(index, compute(index));
    return known.get(index)!;
  };
}

/** Details kept in memory: a few hundred bytes each, so a few hundred KB for a few thousand results. */
const RECENT_RECORDS = 2048;

export class NixpkgsIndex {
  readonly header: IndexHeader;
  readonly size: number;
  readonly flags: Uint8Array;
  readonly platformSet: Uint16Array;
  readonly family: Uint16Array;
  readonly factor: Float32Array;
  readonly nameLength: Uint8Array;
  readonly groupRep: Uint32Array;
  readonly groupNext: Uint32Array;
  /** Per family, the part of `factor` that says how rarely its members are meant unnamed. */
  readonly familyFactors: Float32Array;
  /** Per family, whether agents rarely mean its members unless they name it (package-sets.ts). */
  readonly nicheFamilies: Uint8Array;
  /** The family of top-level attributes (no set's members). */
  readonly topLevelFamily: number;
  readonly exact: Dictionary;
  readonly names: Dictionary;
  readonly namesReversed: Dictionary;
  readonly descriptions: Dictionary;
  /** What other packages' descriptions say of a package (mentions.ts), and the folder nixpkgs files it in (category.ts). */
  readonly context: Dictionary;
  /** The language families a tool's description says it is for (search/tool-languages.ts). */
  readonly toolLanguages: Dictionary;
  /** Language family → the packages whose descriptions say they are made in it ("written in Rust", "Go-based"). */
  readonly madeIn: Dictionary;
  private readonly attrs: Buffer;
  private readonly attrOffsets: Uint32Array;
  private readonly detailOffsets: Uint32Array;
  private readonly readDetails: (start: number, end: number) => Buffer;
  private readonly platformMasks = new Map<string, Uint8Array>();
  /** Details recently read, oldest first (a Map keeps insertion order). */
  private readonly recent = new Map<number, PackageRecord>();
  private familiesByName?: Map<string, number>;
  private readonly topLevelCounts = new Map<Dictionary, Uint32Array>();

  /** The index at `path`; with `builtFrom`, only one built from that source (else IndexFormatError). */
  static load(path: string, builtFrom?: string): NixpkgsIndex {
    return new NixpkgsIndex(readIndexFile(path, "details", builtFrom));
  }

  private constructor(file: IndexFile) {
    this.header = file.header;
    this.size = file.header.packageCount;
    const dictionary = (prefix: string): Dictionary =>
      new Dictionary({
        terms: file.u8(`${prefix}.terms`),
        termOffsets: file.u32(`${prefix}.termOffsets`),
        postingOffsets: file.u32(`${prefix}.postingOffsets`),
        postings: file.u32(`${prefix}.postings`),
      } satisfies DictionarySections);
    const attrs = file.u8("attrs");
    this.attrs = Buffer.from(attrs.buffer, attrs.byteOffset, attrs.byteLength);
    this.attrOffsets = file.u32("attrOffsets");
    this.detailOffsets = file.u32("detailOffsets");
    this.readDetails = file.readOnDisk;
    this.flags = file.u8("flags");
    this.platformSet = file.u16("platformSet");
    this.family = file.u16("family");
    this.factor = file.f32("factor");
    this.nameLength = file.u8("nameLength");
    this.groupRep = file.u32("groupRep");
    this.groupNext = file.u32("groupNext");
    this.exact = dictionary("exact");
    this.names = dictionary("name");
    this.namesReversed = dictionary("nameReversed");
    this.descriptions = dictionary("description");
    this.context = dictionary("context");
    this.toolLanguages = dictionary("toolLanguage");
    this.madeIn = dictionary("madeIn");
    this.familyFactors = Float32Array.from(this.header.families, familyFactor);
    this.nicheFamilies = Uint8Array.from(this.header.families, (family) => (isNicheFamily(family) ? 1 : 0));
    this.topLevelFamily = this.header.families.indexOf("");
  }

  /** The package's details; the most recently shown are kept, so a search like the last one reads nothing from disk. */
  record(id: number): PackageRecord {
    const kept = this.recent.get(id);
    if (kept) {
      this.recent.delete(id);
      this.recent.set(id, kept);
      return kept;
    }
    const fields = this.readDetails(this.detailOffsets[id]!, this.detailOffsets[id + 1]!)
      .toString("utf8")
      .split("\0");
    const record = Object.freeze({
      attr: this.attr(id),
      ...(Object.fromEntries(DETAIL_FIELDS.map((field, i) => [field, fields[i] ?? ""])) as Record<(typeof DETAIL_FIELDS)[number], string>),
    });
    this.recent.set(id, record);
    if (this.recent.size > RECENT_RECORDS) this.recent.delete(this.recent.keys().next().value!);
    return record;
  }

  /** The attribute path's length in bytes. */
  attrLength(id: number): number {
    return this.attrOffsets[id + 1]! - this.attrOffsets[id]!;
  }

  attr(id: number): string {
    return this.attrs.toString("utf8", this.attrOffsets[id], this.attrOffsets[id + 1]);
  }

  flagNames(id: number): string[] {
    const flags = this.flags[id]!;
    return (["broken", "unfree", "insecure"] as const).filter((name) => flags & FLAG[name]);
  }

  /** The package with exactly this attribute path, or -1. */
  lookup(attr: string): number {
    const term = this.exact.find(splitAttr(attr).leaf.toLowerCase());
    if (term < 0) return -1;
    for (const id of this.exact.postings(term)) if (this.attr(id) === attr) return id;
    return -1;
  }

  /**
   * A package of this path's family under this leaf ("python3Packages.x" → python313Packages.x),
   * else one whose pname or program is the leaf (the catalog may list numpy as numpy_2); or -1.
   */
  lookupInFamily(attr: string): number {
    const { set, leaf } = splitAttr(attr);
    const family = this.familyIndex(set);
    const term = this.exact.find(leaf.toLowerCase());
    if (family < 0 || term < 0) return -1;
    const members = [...this.exact.postings(term)].filter((id) => this.family[id] === family);
    const byLikelihood = members.sort((a, b) => this.factor[b]! - this.factor[a]!);
    return byLikelihood.find((id) => splitAttr(this.attr(id)).leaf === leaf) ?? byLikelihood[0] ?? -1;
  }

  /** The family a set name (any case, any version: "python3Packages", "python312packages") belongs to, or -1. */
  familyIndex(set: string): number {
    if (!this.familiesByName) {
      this.familiesByName = new Map(this.header.families.map((name, i) => [name.toLowerCase(), i]));
    }
    return this.familiesByName.get(familyOf(set.toLowerCase())) ?? -1;
  }

  /** How many top-level packages (no set's members) a term of `dictionary` has, counted on first use. */
  topLevelCount(dictionary: Dictionary, term: number): number {
    let counts = this.topLevelCounts.get(dictionary);
    if (!counts) {
      counts = dictionary.countPostings((id) => this.family[id] === this.topLevelFamily);
      this.topLevelCounts.set(dictionary, counts);
    }
    return counts[term]!;
  }

  /** The other members of a package's group (the same library in other versions of its set, or a top-level package's other versions and builds). */
  groupMembers(id: number): number[] {
    const members: number[] = [];
    for (let next = this.groupNext[id]!; next !== id; next = this.groupNext[next]!) members.push(next);
    return members;
  }

  /** Per platform set, whether it includes `platform` (set 0, "no platform list", includes every one). */
  platformMask(platform: string): Uint8Array {
    let mask = this.platformMasks.get(platform);
    if (!mask) {
      const wanted = this.header.platforms.indexOf(platform);
      mask = Uint8Array.from(this.header.platformSets, (set, i) => (i === 0 || (wanted >= 0 && set.includes(wanted)) ? 1 : 0));
      this.platformMasks.set(platform, mask);
    }
    return mask;
  }
}
