// How likely a package is meant when several match, from what the catalog says of how established
// it is. Each signal is weak alone; together they separate the tools everybody uses from the
// hundred small ones whose descriptions use the same words.
import type { CatalogEntry } from "./catalog.js";

/**
 * From the package itself: more maintainers, man pages, several versions kept; a package without
 * a description rarely is meant.
 */
export function establishment(entry: CatalogEntry, variants: number): number {
  return (
    (entry.description ? 1 : 0.8) *
    (1 + 0.05 * Math.min(entry.maintainers, 4)) *
    (entry.hasManPages ? 1.25 : 1) *
    (1 + 0.08 * Math.min(variants - 1, 3))
  );
}

/** From other packages: how many name it (mentions.ts), per doubling, up to a cap. */
export function mentionFactor(count: number): number {
  return Math.min(1.5, 1 + 0.12 * Math.log2(1 + count));
}
