// Reads nixpkgs package metadata in the forms nixpkgs produces it: the channel's packages.json
// (optionally brotli-compressed) and `nix-env -qaP --json --meta` output, into plain entries.
// The channel file lacks license/mainProgram/unfree; a fresh evaluation has them: both are read.
import { readFileSync } from "node:fs";
import { brotliDecompressSync, gunzipSync } from "node:zlib";

export interface CatalogEntry {
  attr: string;
  pname: string;
  version: string;
  description: string;
  homepage: string;
  license: string;
  mainProgram: string;
  platforms: string[] | null;
  /** How many maintainers it has: a hint of how established it is. */
  maintainers: number;
  /** Whether it installs man pages (a separate `man` output): another such hint. */
  hasManPages: boolean;
  /** Whether it installs headers to build against (a separate `dev` output): a library, whatever its description says of its programs. */
  hasHeaders: boolean;
  /** Where its expression is defined ("pkgs/by-name/jq/jq/package.nix:125"), or "". */
  position: string;
  broken: boolean;
  unfree: boolean;
  insecure: boolean;
}

export class CatalogError extends Error {}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

export function readCatalogFile(path: string): CatalogEntry[] {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new CatalogError(`${path}: cannot read: ${(error as Error).message}`);
  }
  return parseCatalog(decompress(path, bytes), path);
}

function decompress(path: string, bytes: Buffer): Buffer {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return gunzipSync(bytes);
  if (path.endsWith(".br")) {
    try {
      return brotliDecompressSync(bytes);
    } catch (error) {
      throw new CatalogError(`${path}: not valid brotli: ${(error as Error).message}`);
    }
  }
  return bytes;
}

export function parseCatalog(json: Buffer | string, origin: string): CatalogEntry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json.toString());
  } catch (error) {
    // V8 quotes the text it stopped at, newlines and all: the error stays one line.
    throw new CatalogError(`${origin}: not JSON: ${(error as Error).message.replace(/\s+/g, " ")}`);
  }
  if (!isObject(parsed)) throw new CatalogError(`${origin}: expected a JSON object of packages`);
  // The channel wraps the packages as {version, packages}; nix-env prints the packages alone.
  const packages = isObject(parsed.packages) && "version" in parsed ? parsed.packages : parsed;
  const entries: CatalogEntry[] = [];
  for (const [attr, raw] of Object.entries(packages)) {
    if (!isObject(raw)) continue;
    entries.push(toEntry(attr, raw));
  }
  if (entries.length === 0) throw new CatalogError(`${origin}: no packages in it`);
  return entries;
}

/** One package as nixpkgs writes it, each field checked as it is read. */
function toEntry(attr: string, raw: Record<string, unknown>): CatalogEntry {
  const meta = isObject(raw.meta) ? raw.meta : {};
  const licenses = Array.isArray(meta.license) ? meta.license : meta.license === undefined ? [] : [meta.license];
  const version = text(raw.version) ?? "";
  const name = text(raw.name);
  const pname = text(raw.pname) ?? (name && version && name.endsWith(`-${version}`) ? name.slice(0, -version.length - 1) : name) ?? attr;
  return {
    attr,
    pname,
    version,
    description: oneLine(meta.description),
    homepage: oneLine(Array.isArray(meta.homepage) ? meta.homepage[0] : meta.homepage),
    license: licenses.map(licenseName).filter(Boolean).join(", "),
    mainProgram: text(meta.mainProgram) ?? "",
    platforms: Array.isArray(meta.platforms) ? meta.platforms.filter((p): p is string => typeof p === "string") : null,
    maintainers: Array.isArray(meta.maintainers) ? meta.maintainers.length : 0,
    hasManPages: isObject(raw.outputs) && "man" in raw.outputs,
    hasHeaders: isObject(raw.outputs) && "dev" in raw.outputs,
    position: text(meta.position) ?? "",
    broken: meta.broken === true,
    unfree: meta.unfree === true || licenses.some((license) => isObject(license) && license.free === false),
    insecure: meta.insecure === true || (Array.isArray(meta.knownVulnerabilities) && meta.knownVulnerabilities.length > 0),
  };
}

function licenseName(license: unknown): string {
  if (!isObject(license)) return text(license) ?? "";
  return text(license.spdxId) ?? text(license.shortName) ?? text(license.fullName) ?? "";
}

function oneLine(value: unknown): string {
  return typeof value === "string" ? value.replace(/\s+/g, " ").trim() : "";
}
