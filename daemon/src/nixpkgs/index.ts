// A loaded index: columns viewed in place over one file read, records decoded on demand.
import { Dictionary, type DictionarySections } from "./dictionary.js";
import { readIndexFile, type IndexFile, type IndexHeader } from "./index-file.js";
import { FLAG, RECORD_FIELDS } from "./index-build.js";
import { familyOf, splitAttr } from "./package-sets.js";

export type PackageRecord = Record<(typeof RECORD_FIELDS)[number], string>;

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
  readonly exact: Dictionary;
  readonly names: Dictionary;
  readonly namesReversed: Dictionary;
  readonly descriptions: Dictionary;
  private readonly records: Buffer;
  private readonly recordOffsets: Uint32Array;
  private readonly platformMasks = new Map<string, Uint8Array>();

  static load(path: string): NixpkgsIndex {
    return new NixpkgsIndex(readIndexFile(path));
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
    const records = file.u8("records");
    this.records = Buffer.from(records.buffer, records.byteOffset, records.byteLength);
    this.recordOffsets = file.u32("recordOffsets");
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
  }

  record(id: number): PackageRecord {
    const fields = this.records.toString("utf8", this.recordOffsets[id], this.recordOffsets[id + 1]).split("\0");
    return Object.fromEntries(RECORD_FIELDS.map((field, i) => [field, fields[i] ?? ""])) as PackageRecord;
  }

  attr(id: number): string {
    const start = this.recordOffsets[id]!;
    const end = this.records.indexOf(0, start);
    return this.records.toString("utf8", start, end < 0 ? this.recordOffsets[id + 1] : end);
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

  /** A package with this leaf in the family of this path's set ("python3Packages.x" → python313Packages.x), or -1. */
  lookupInFamily(attr: string): number {
    const { set, leaf } = splitAttr(attr);
    const family = this.header.families.indexOf(familyOf(set));
    const term = this.exact.find(leaf.toLowerCase());
    if (family < 0 || term < 0) return -1;
    for (const id of this.exact.postings(term)) if (this.family[id] === family && splitAttr(this.attr(id)).leaf === leaf) return id;
    return -1;
  }

  /** The other members of a package's group (the same library in other versions of its set). */
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
