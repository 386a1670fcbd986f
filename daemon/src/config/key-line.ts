// The line of a TOML file that sets a dotted key, so that a config error can say FILE:LINE. A line
// scan, not a parser: it follows [table] headers and dotted keys, which is how config files are
// written; when it cannot tell, the error goes without a line number.

const unquote = (part: string) => part.trim().replace(/^"(.*)"$|^'(.*)'$/, "$1$2");
const dotted = (text: string) => text.split(".").map(unquote).join(".");

/** The 1-based line that sets `key` (or opens it as a table), or undefined. */
export function lineOfKey(text: string, key: string): number | undefined {
  let table = "";
  const lines = text.split("\n");
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    const header = /^\[\[?([^\]]+)\]\]?/.exec(line);
    if (header) {
      table = dotted(header[1]!);
      if (table === key) return index + 1;
      continue;
    }
    // The key is all before the first "=", when it is made of key characters only. (A regular expression with a lazy
    // key and spaces after it took quadratic time: a planted line of 300,000 spaces kept the server from starting.)
    const equals = line.indexOf("=");
    const left = equals > 0 ? line.slice(0, equals).trimEnd() : "";
    if (!/^[A-Za-z0-9_\-."' ]+$/.test(left)) continue;
    const full = table ? `${table}.${dotted(left)}` : dotted(left);
    if (full === key || key.startsWith(`${full}.`)) return index + 1;
  }
  return undefined;
}
