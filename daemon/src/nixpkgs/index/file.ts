// The index file container: a magic line, a JSON header, then 8-byte-aligned binary sections.
// Written once by the builder; read with one read into one buffer, sections viewed in place (no
// parsing beyond the small header), so loading 130k packages costs milliseconds. The last section
// (the packages' details) stays on disk and is read per result shown.
import { closeSync, openSync, readSync } from "node:fs";
import { z } from "zod";
import { InvalidJson, parseJson } from "../../files/json-file.js";

const MAGIC = Buffer.from("NIXSHEDX");
/**
 * Bumped when the layout or what is indexed changes, and when terms are spelt otherwise (search/text.ts, phrases.ts):
 * a query is stemmed as the index was. A cached index of another version is built again.
 */
export const INDEX_FORMAT_VERSION = 73;

export type Section = Uint8Array | Uint16Array | Uint32Array | Float32Array;

const count = z.number().int().nonnegative();

/** The JSON header the builder writes after the magic line; a header of another format version is refused by its version first. */
const headerSchema = z.object({
  formatVersion: z.literal(INDEX_FORMAT_VERSION),
  packageCount: count,
  source: z.string(),
  builtAt: z.string(),
  platforms: z.array(z.string()),
  /** Each a list of indices into `platforms`; index 0 is "every platform" (meta.platforms absent). */
  platformSets: z.array(z.array(count)),
  families: z.array(z.string()),
  sections: z.record(z.string(), z.tuple([count, count])),
});
const versionSchema = z.object({ formatVersion: z.unknown() });

export type IndexHeader = z.infer<typeof headerSchema>;

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
  u8(name: string): Uint8Array;
  u16(name: string): Uint16Array;
  u32(name: string): Uint32Array;
  f32(name: string): Float32Array;
  /** Bytes [start, end) of the section left on disk. */
  readOnDisk(start: number, end: number): Buffer;
}

/**
 * Reads the header and every section before `onDisk` (which the writer puts last) into memory;
 * the last section stays on disk, read a slice at a time. Typed views need aligned offsets, which
 * a fresh allocation gives. With `builtFrom`, an index built from another source is refused.
 */
export function readIndexFile(path: string, onDisk: string, builtFrom?: string): IndexFile {
  // The descriptor stays open for the life of the index (details are read through it), unless the file is refused.
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    throw new IndexFormatError(`${path}: cannot open: ${(error as Error).message}`);
  }
  try {
    return readSections(path, fd, onDisk, builtFrom);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

function readSections(path: string, fd: number, onDisk: string, builtFrom: string | undefined): IndexFile {
  const head = Buffer.alloc(MAGIC.length + 4);
  readSync(fd, head, 0, head.length, 0);
  if (!isIndexFile(head)) throw new IndexFormatError(`${path}: not a nixshed nixpkgs index`);
  const headerLength = head.readUInt32LE(MAGIC.length);
  const headerBytes = Buffer.alloc(headerLength);
  readSync(fd, headerBytes, 0, headerLength, head.length);
  const text = headerBytes.toString("utf8");
  let header: IndexHeader;
  try {
    const { formatVersion } = parseJson(text, versionSchema, `${path}: index header`);
    if (formatVersion !== INDEX_FORMAT_VERSION) {
      throw new IndexFormatError(`${path}: index format ${formatVersion}, this nixshed reads ${INDEX_FORMAT_VERSION}; rebuild it`);
    }
    header = parseJson(text, headerSchema, `${path}: index header`);
  } catch (error) {
    if (error instanceof InvalidJson) throw new IndexFormatError(`${error.message} (corrupt index header)`);
    throw error;
  }
  if (builtFrom !== undefined && header.source !== builtFrom) {
    throw new IndexFormatError(`${path}: built from ${header.source}, not ${builtFrom}`);
  }
  const bodyStart = align(MAGIC.length + 4 + headerLength);
  const diskSection = header.sections[onDisk];
  if (!diskSection) throw new IndexFormatError(`${path}: section ${onDisk} missing`);
  const body = new ArrayBuffer(diskSection[0]);
  if (readSync(fd, new Uint8Array(body), 0, body.byteLength, bodyStart) !== body.byteLength) {
    throw new IndexFormatError(`${path}: truncated index`);
  }
  const view = <T>(name: string, make: (buffer: ArrayBuffer, offset: number, length: number) => T, size: number): T => {
    const entry = header.sections[name];
    if (!entry || entry[0] + entry[1] > body.byteLength) throw new IndexFormatError(`${path}: section ${name} missing`);
    return make(body, entry[0], entry[1] / size);
  };
  return {
    header,
    u8: (name) => view(name, (b, o, l) => new Uint8Array(b, o, l), 1),
    u16: (name) => view(name, (b, o, l) => new Uint16Array(b, o, l), 2),
    u32: (name) => view(name, (b, o, l) => new Uint32Array(b, o, l), 4),
    f32: (name) => view(name, (b, o, l) => new Float32Array(b, o, l), 4),
    readOnDisk: (start, end) => {
      const slice = Buffer.alloc(end - start);
      readSync(fd, slice, 0, slice.length, bodyStart + diskSection[0] + start);
      return slice;
    },
  };
}

function align(n: number): number {
  return (n + 7) & ~7;
}
