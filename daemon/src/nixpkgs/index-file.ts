// The index file container: a magic line, a JSON header, then 8-byte-aligned binary sections.
// Written once by the builder; read with one readFileSync, sections viewed in place (no copying,
// no parsing beyond the small header), so loading 130k packages costs milliseconds.
import { readFileSync } from "node:fs";

const MAGIC = Buffer.from("NIXSHEDX");
export const INDEX_FORMAT_VERSION = 1;

export type Section = Uint8Array | Uint16Array | Uint32Array | Float32Array;

export interface IndexHeader {
  formatVersion: number;
  packageCount: number;
  source: string;
  builtAt: string;
  platforms: string[];
  /** Each a list of indices into `platforms`; index 0 is "every platform" (meta.platforms absent). */
  platformSets: number[][];
  families: string[];
  sections: Record<string, [offset: number, byteLength: number]>;
}

export class IndexFormatError extends Error {}

export function isIndexFile(bytes: Uint8Array): boolean {
  return bytes.length >= MAGIC.length && Buffer.from(bytes.buffer, bytes.byteOffset, MAGIC.length).equals(MAGIC);
}

export function encodeIndexFile(header: Omit<IndexHeader, "sections" | "formatVersion">, sections: Record<string, Section>): Buffer {
  const layout: IndexHeader["sections"] = {};
  let offset = 0;
  for (const [name, data] of Object.entries(sections)) {
    layout[name] = [offset, data.byteLength];
    offset = align(offset + data.byteLength);
  }
  const headerJson = Buffer.from(JSON.stringify({ formatVersion: INDEX_FORMAT_VERSION, ...header, sections: layout }));
  const bodyStart = align(MAGIC.length + 4 + headerJson.length);
  const file = Buffer.alloc(bodyStart + offset);
  MAGIC.copy(file, 0);
  file.writeUInt32LE(headerJson.length, MAGIC.length);
  headerJson.copy(file, MAGIC.length + 4);
  for (const [name, data] of Object.entries(sections)) {
    const [at] = layout[name]!;
    file.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), bodyStart + at);
  }
  return file;
}

export interface IndexFile {
  header: IndexHeader;
  bytes: Buffer;
  u8(name: string): Uint8Array;
  u16(name: string): Uint16Array;
  u32(name: string): Uint32Array;
  f32(name: string): Float32Array;
}

export function readIndexFile(path: string): IndexFile {
  let bytes = readFileSync(path);
  if (!isIndexFile(bytes)) throw new IndexFormatError(`${path}: not a nixshed nixpkgs index`);
  // Typed views need aligned offsets; a pooled small Buffer may not be.
  if (bytes.byteOffset % 8 !== 0) bytes = Buffer.from(bytes);
  const headerLength = bytes.readUInt32LE(MAGIC.length);
  const header = JSON.parse(bytes.toString("utf8", MAGIC.length + 4, MAGIC.length + 4 + headerLength)) as IndexHeader;
  if (header.formatVersion !== INDEX_FORMAT_VERSION) {
    throw new IndexFormatError(`${path}: index format ${header.formatVersion}, this nixshed reads ${INDEX_FORMAT_VERSION}; rebuild it`);
  }
  const bodyStart = bytes.byteOffset + align(MAGIC.length + 4 + headerLength);
  const view = <T>(name: string, make: (buffer: ArrayBufferLike, offset: number, length: number) => T, size: number): T => {
    const entry = header.sections[name];
    if (!entry) throw new IndexFormatError(`${path}: section ${name} missing`);
    return make(bytes.buffer, bodyStart + entry[0], entry[1] / size);
  };
  return {
    header,
    bytes,
    u8: (name) => view(name, (b, o, l) => new Uint8Array(b, o, l), 1),
    u16: (name) => view(name, (b, o, l) => new Uint16Array(b, o, l), 2),
    u32: (name) => view(name, (b, o, l) => new Uint32Array(b, o, l), 4),
    f32: (name) => view(name, (b, o, l) => new Float32Array(b, o, l), 4),
  };
}

function align(n: number): number {
  return (n + 7) & ~7;
}
