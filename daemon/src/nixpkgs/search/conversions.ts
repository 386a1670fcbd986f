// Converters are named after what they convert: pdftotext, html2pdf, pandoc's kin md2pdf. "convert
// pdf to text", "pdf to text" or "extract text from a pdf" asks for such a name, whatever its
// description says; these are the names a query of that shape would give one. A converter named
// the other way round (markdown2html for "html to markdown") matches every word and does the opposite.
const TO = /\b([a-z0-9]+)(?:\s+(?:files?\s+|documents?\s+)?(?:to|into)\s+(?:an?\s+|the\s+)?|\s*(?:->|→|=>)\s*)([a-z0-9]+)/g;
const FROM = /\b([a-z0-9]+)\s+from\s+(?:an?\s+|the\s+)?([a-z0-9]+)/g;
/** Shorter or wider forms formats go by in names: a PNG is an image to img2pdf. */
const SHORT: Record<string, readonly string[]> = {
  markdown: ["md"],
  image: ["img"],
  images: ["img"],
  text: ["txt"],
  jpeg: ["jpg", "img"],
  jpg: ["img"],
  png: ["img"],
  gif: ["img"],
  webp: ["img"],
};

/** Formats as names shorten them, spelled out as descriptions write them: "md to pdf" is "Markdown to PDF". */
const LONG: Record<string, string> = { md: "markdown", txt: "text", yml: "yaml", jpg: "jpeg" };

export type Conversion = readonly [from: string, to: string];

/** A converter's name ("pdf2txt", "md2html") as the conversion it names, or undefined. A letter is no format (x2go, i2c). */
export function conversionOfName(name: string): string | undefined {
  const [, from, to] = /^([a-z][a-z0-9]+?)2([a-z][a-z0-9]+)$/i.exec(name.trim()) ?? [];
  return from && to ? `${from} to ${to}` : undefined;
}

/** The words of a query asking for conversions with their formats spelled out; any other query's as they are. */
export function formatsSpelledOut(conversions: readonly Conversion[], words: readonly string[]): string[] {
  return conversions.length > 0 ? words.map((word) => LONG[word] ?? word) : [...words];
}

/** The conversions a query asks for, from and to ("convert pdf to text", "text from a pdf", "md -> pdf"): read once per query. */
export function conversionsAsked(query: string): Conversion[] {
  const text = query.toLowerCase();
  return [...[...text.matchAll(TO)].map((m) => [m[1]!, m[2]!] as const), ...[...text.matchAll(FROM)].map((m) => [m[2]!, m[1]!] as const)];
}

function namesOf(conversions: readonly Conversion[]): string[] {
  const forms = (word: string) => [word, ...(SHORT[word] ?? []), ...(LONG[word] ? [LONG[word]] : [])];
  return conversions.flatMap(([from, to]) => forms(from).flatMap((a) => forms(to).flatMap((b) => [`${a}2${b}`, `${a}to${b}`])));
}

/** Names of a converter that does what the query asks. */
export function conversionNames(conversions: readonly Conversion[]): string[] {
  return namesOf(conversions);
}

/** Verbs asking to undo a format: "extract a rar file", "decompress zstd". */
const UNPACKING_VERBS = new Set(["extract", "unpack", "decompress", "uncompress", "unarchive"]);

/**
 * Names of a tool that undoes the format a query asks to unpack: unpackers are named "un" and their format (unrar,
 * unzip, undmg, and zstd's unzstd), whose description need not say so (unrar's is rar's own, "Utility for RAR archives").
 */
export function unpackerNames(words: readonly string[]): string[] {
  if (!words.some((word) => UNPACKING_VERBS.has(word))) return [];
  return words.filter((word) => !UNPACKING_VERBS.has(word) && /^[a-z][a-z0-9]+$/.test(word)).map((format) => `un${format}`);
}

/** Names (squashed: no separators) of a converter that does the opposite. */
export function reverseConversionNames(conversions: readonly Conversion[]): string[] {
  return namesOf(conversions.map(([from, to]) => [to, from] as const));
}
