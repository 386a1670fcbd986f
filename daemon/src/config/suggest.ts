// "Did you mean …": the candidate nearest to a mistyped word, when one is near enough to be the
// likely intent (a typo, a swapped or missing letter), for config keys, flags and commands.

export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The nearest candidate within max(2, a third of the word's length) edits; else the one candidate the
 * word abbreviates or is a part of ("proj": project, "index": nixpkgs-index); else the one whose parts
 * the word's parts begin, in order ("timeout_secs": max_timeout_seconds); else undefined.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const lower = word.toLowerCase();
  const all = [...candidates];
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of all) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  if (best && best.distance <= Math.max(2, Math.ceil(word.length / 3))) return best.candidate;
  if (lower.length < 3) return undefined;
  const containing = all.filter((candidate) => {
    const name = candidate.toLowerCase();
    return name.startsWith(lower) || name.split(/[-_.]/).includes(lower);
  });
  if (containing.length === 1) return containing[0];
  const shortened = all.filter((candidate) => partsBegin(lower, candidate.toLowerCase()));
  return shortened.length === 1 ? shortened[0] : undefined;
}

/** Whether each of a word's two or more parts begins a part of the name, in order, a plural's "s" aside. */
function partsBegin(word: string, name: string): boolean {
  const parts = word.split(/[-_.]/).filter(Boolean);
  const theirs = name.split(/[-_.]/);
  let at = 0;
  for (const part of parts) {
    const start = part.length > 3 ? part.replace(/s$/, "") : part;
    while (at < theirs.length && !theirs[at]!.startsWith(start)) at++;
    if (at++ === theirs.length) return false;
  }
  return parts.length > 1;
}
