// Converters are named after what they convert: pdftotext, html2pdf, pandoc's kin md2pdf. "convert
// pdf to text", "pdf to text" or "extract text from a pdf" asks for such a name, whatever its
// description says; these are the names a query of that shape would give one. A converter named
// the other way round (markdown2html for "html to markdown") matches every word and does the opposite.
const TO = /\b([a-z0-9]+)\s+(?:files?\s+|documents?\s+)?(?:to|into)\s+(?:an?\s+|the\s+)?([a-z0-9]+)/g;
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

type Conversion = readonly [from: string, to: string];

function conversionsAsked(query: string): Conversion[] {
  const text = query.toLowerCase();
  return [...[...text.matchAll(TO)].map((m) => [m[1]!, m[2]!] as const), ...[...text.matchAll(FROM)].map((m) => [m[2]!, m[1]!] as const)];
}

function namesOf(conversions: Conversion[]): string[] {
  const forms = (word: string) => [word, ...(SHORT[word] ?? [])];
  return conversions.flatMap(([from, to]) => forms(from).flatMap((a) => forms(to).flatMap((b) => [`${a}2${b}`, `${a}to${b}`])));
}

/** Names of a converter that does what the query asks. */
export function conversionNames(query: string): string[] {
  return namesOf(conversionsAsked(query));
}

/** Names (squashed: no separators) of a converter that does the opposite. */
export function reverseConversionNames(query: string): string[] {
  return namesOf(conversionsAsked(query).map(([from, to]) => [to, from] as const));
}
