// A pattern whose `*` stands for any run of characters (a workspace glob's part, a scan filter), matched by finding
// its pieces in turn: a regular expression made of `*a*a*a…*b` backtracked exponentially on a name of forty a's, and a
// planted workspace glob held the whole server.

/** Whether `text` is `pattern`, each `*` in it standing for any run of characters and nothing else special. */
export function matchesWildcard(pattern: string, text: string): boolean {
  const pieces = pattern.split("*");
  const first = pieces.shift()!;
  const last = pieces.pop();
  if (last === undefined) return text === first;
  if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  // Each middle piece as early as it occurs: a later match never leaves more room for the rest.
  const end = text.length - last.length;
  let at = first.length;
  for (const piece of pieces) {
    const found = text.indexOf(piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}
