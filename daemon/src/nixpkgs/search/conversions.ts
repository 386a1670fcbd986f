// Converters are named after what they convert: pdftotext, html2pdf, pandoc's kin md2pdf. "convert
// pdf to text", "pdf to text" or "extract text from a pdf" asks for such a name, whatever its
// description says; these are the names a query of that shape would give one.
const TO = /\b([a-z0-9]+)\s+(?:files?\s+|documents?\s+)?(?:to|into)\s+(?:an?\s+|the\s+)?([a-z0-9]+)/g;
const FROM = /\b([a-z0-9]+)\s+from\s+(?:an?\s+|the\s+)?([a-z0-9]+)/g;
/** Short forms formats go by in names. */
const SHORT: Record<string, string> = { markdown: "md", image: "img", images: "img", text: "txt", jpeg: "jpg" };

export function conversionNames(query: string): string[] {
  const text = query.toLowerCase();
  const pairs = [
    ...[...text.matchAll(TO)].map((m) => [m[1]!, m[2]!] as const),
    ...[...text.matchAll(FROM)].map((m) => [m[2]!, m[1]!] as const),
  ];
  const forms = (word: string) => [word, ...(SHORT[word] ? [SHORT[word]] : [])];
  return pairs.flatMap(([from, to]) => forms(from).flatMap((a) => forms(to).flatMap((b) => [`${a}2${b}`, `${a}to${b}`])));
}
