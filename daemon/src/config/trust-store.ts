// The trust records `nixshed trust` writes, the way `direnv allow` works: one file per trusted
// project file, naming its path and the sha256 of the content the user trusted. A record counts
// only for that path with that exact content, so an edited file is untrusted again. The store lives
// in the state directory chosen by trusted layers only (./layers.ts), never one the project names.
// Zod-free: serve reads it before the schema library loads.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { replaceFile } from "../files/planted-safe-write.js";
import { join } from "node:path";

export interface TrustRecord {
  path: string;
  sha256: string;
  /** When `nixshed trust` wrote it (ISO 8601), for `nixshed trust --list`. */
  trusted_at: string;
}

export const sha256 = (content: string | Buffer): string => createHash("sha256").update(content).digest("hex");

export const trustStoreDir = (stateDir: string): string => join(stateDir, "trust");

const recordFile = (store: string, path: string) => join(store, `${sha256(path).slice(0, 32)}.json`);

const isRecord = (value: unknown): value is TrustRecord =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as TrustRecord).path === "string" &&
  typeof (value as TrustRecord).sha256 === "string" &&
  typeof (value as TrustRecord).trusted_at === "string";

function readRecord(file: string): TrustRecord | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined; // A damaged record trusts nothing; `nixshed trust` rewrites it.
  }
}

/** Whether the user trusted exactly this content at this path. */
export function isTrusted(store: string, path: string, contentSha256: string): boolean {
  const record = readRecord(recordFile(store, path));
  return record !== undefined && record.path === path && record.sha256 === contentSha256;
}

export function writeTrust(store: string, path: string, contentSha256: string): TrustRecord {
  const record: TrustRecord = { path, sha256: contentSha256, trusted_at: new Date().toISOString() };
  mkdirSync(store, { recursive: true, mode: 0o700 });
  const file = recordFile(store, path);
  replaceFile(file, `${JSON.stringify(record)}\n`, 0o600);
  return record;
}

/** Removes the record of `path`; false when there was none. */
export function revokeTrust(store: string, path: string): boolean {
  try {
    rmSync(recordFile(store, path));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

export function listTrust(store: string): TrustRecord[] {
  let names: string[];
  try {
    names = readdirSync(store);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  return names
    .filter((name) => name.endsWith(".json"))
    .map((name) => readRecord(join(store, name)))
    .filter((record): record is TrustRecord => record !== undefined)
    .sort((a, b) => a.path.localeCompare(b.path));
}
