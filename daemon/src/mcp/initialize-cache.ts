// The instructions of the initialize reply, remembered from the last start of the same build with
// the same configuration layers in the same project. With them at hand, `serve` answers
// initialize before the schema library, the MCP SDK and the capabilities have loaded; they are
// stored only after a start whose configuration validated, so a hit never answers for a
// configuration that would be refused.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { replaceFile } from "../files/planted-safe-write.js";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { unlessAbsent } from "../files/absence.js";
import { mergeLayers, nixshedDir, trustedLayers, type Layers } from "../config/layers.js";
import { VERSION } from "../version.js";

export interface InitializeCache {
  /** The remembered instructions, when this build and configuration have started before. */
  instructions?: string;
  remember(instructions: string): void;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** This build: rebuilding rewrites every output file, and a Nix build lives at its own path. */
function buildStamp(): string {
  const self = fileURLToPath(import.meta.url);
  return `${VERSION} ${self} ${statSync(self).mtimeMs}`;
}

/** The file's object, or undefined on a first start here or a damaged file (then initialize is answered after loading). */
function storedAnswer(file: string): Record<string, unknown> | undefined {
  const text = unlessAbsent(() => readFileSync(file, "utf8"), undefined);
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined; // Cut short by a crash mid-write: the next start rewrites it.
  }
}

export function openInitializeCache(layers: Layers): InitializeCache {
  // Only trusted layers choose where this cache lives: a planted answer is an answer we would send.
  const dir = join(nixshedDir("cache", mergeLayers(trustedLayers(layers)).merged.cache_dir, layers.env), "initialize");
  const file = join(dir, `${sha256(layers.projectRoot).slice(0, 16)}.json`);
  const key = sha256(JSON.stringify([buildStamp(), layers.layers, layers.project]));
  const stored = storedAnswer(file);
  const instructions = stored?.key === key && typeof stored.instructions === "string" ? stored.instructions : undefined;
  return {
    instructions,
    remember(current) {
      if (current === instructions) return;
      try {
        mkdirSync(dir, { recursive: true });
        replaceFile(file, JSON.stringify({ key, instructions: current }));
      } catch {
        // A read-only cache only costs speed.
      }
    },
  };
}
