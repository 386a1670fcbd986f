// Tells text from binary by the first bytes and names the common binary formats by their magic
// numbers, so a binary file (or a jailed program's binary output) is described instead of dumped.
const SAMPLE = 8192;

const MAGIC: [number[], string][] = [
  [[0x89, 0x50, 0x4e, 0x47], "PNG image"],
  [[0xff, 0xd8, 0xff], "JPEG image"],
  [[0x47, 0x49, 0x46, 0x38], "GIF image"],
  [[0x25, 0x50, 0x44, 0x46], "PDF document"],
  [[0x50, 0x4b, 0x03, 0x04], "ZIP archive"],
  [[0x1f, 0x8b], "gzip data"],
  [[0x28, 0xb5, 0x2f, 0xfd], "zstd data"],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a], "xz data"],
  [[0x7f, 0x45, 0x4c, 0x46], "ELF executable"],
  [[0x00, 0x61, 0x73, 0x6d], "WebAssembly module"],
  [[0x53, 0x51, 0x4c, 0x69, 0x74, 0x65], "SQLite database"],
];

/** A control byte no text has: not whitespace (tab, newline, form feed, carriage return) or escape (colours). */
function isControl(byte: number): boolean {
  return (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b) || byte === 0x7f;
}

/**
 * Binary rather than text: a NUL byte (as git and ripgrep judge), or more than 1 in 10 bytes that
 * text has not, control bytes and, in UTF-8 text, bytes of no UTF-8 character. Random data without a
 * NUL is binary; text with a few stray control bytes, or a Latin-1 file, even of one accented word, stays text.
 * All of `bytes` is judged (a jailed program's kept output); a file is judged by its first bytes (isBinaryFile).
 */
export function isBinary(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return true;
  let odd = 0;
  for (const byte of bytes) if (isControl(byte)) odd++;
  // Each byte of no UTF-8 character decodes as one U+FFFD; in Latin-1 text every byte is a character.
  const text = UTF8.decode(bytes);
  if (!isLatin1(text)) for (let at = text.indexOf("\uFFFD"); at >= 0; at = text.indexOf("\uFFFD", at + 1)) odd++;
  return odd * 10 > bytes.length;
}

const UTF8 = new TextDecoder();
// Such files are mostly Windows-1252, Latin-1 with curly quotes, dashes and € where ISO-8859-1 has control codes
// (Node's TextDecoder("latin1") decodes ISO-8859-1, whatever the label says).
const WINDOWS_1252_80_9F = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ";

/**
 * Text written in Latin-1 rather than UTF-8: bytes of no UTF-8 character and not one character UTF-8 spells in several
 * bytes (decoded: something beyond ASCII that is not U+FFFD). UTF-8 text with one stray byte keeps its é.
 */
function isLatin1(decoded: string): boolean {
  return decoded.includes("\uFFFD") && !/[\u0080-\uFFFC\uFFFE\uFFFF]/.test(decoded);
}

/** Some text's bytes as the characters they spell: UTF-8, or Latin-1 (isLatin1). */
export function decodeText(bytes: Uint8Array): string {
  const text = UTF8.decode(bytes);
  if (!isLatin1(text)) return text;
  return Buffer.from(bytes)
    .toString("latin1")
    .replace(/[\u0080-\u009F]/g, (c) => WINDOWS_1252_80_9F[c.charCodeAt(0) - 0x80]!);
}

/** A file is judged by its first bytes, as git and ripgrep judge one. */
export const isBinaryFile = (head: Uint8Array): boolean => isBinary(head.subarray(0, SAMPLE));

export function describeBinary(head: Uint8Array): string {
  const match = MAGIC.find(([magic]) => magic.every((byte, index) => head[index] === byte));
  return match ? match[1] : "binary data";
}
