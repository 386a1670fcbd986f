// Test data for byte-exact transfers: a pattern in which a byte lost, doubled or moved shows, and
// its digest, so that megabytes compare as one line.
import { createHash } from "node:crypto";

/** `length` bytes; another `seed` gives another pattern (for the two directions of one connection). */
export function patternBytes(length: number, seed = 7): Buffer {
  const data = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i++) data[i] = (i * seed + (i >> 12)) & 0xff;
  return data;
}

export const sha256 = (data: Buffer): string => createHash("sha256").update(data).digest("hex");
