// Multi-item tools handle each item on its own: one item's expected failure becomes that item's
// error and the others go on; a bug still fails the whole call, and so does every item failing.
import { FsError, itemError } from "./errors.js";
import { oneLine } from "./one-line.js";

export async function eachItem<T, R>(
  items: T[],
  signal: AbortSignal | undefined,
  pathOf: (item: T) => string,
  one: (item: T) => Promise<R>,
  failed: (item: T, error: string) => R,
): Promise<R[]> {
  const outcomes: R[] = [];
  for (const item of items) {
    signal?.throwIfAborted();
    try {
      outcomes.push(await one(item));
    } catch (error) {
      outcomes.push(failed(item, itemError(error, pathOf(item))));
    }
  }
  return outcomes;
}

/** A multi-item call's result: its items, some of which may have failed; when all did, nothing was done and the call failed, one line per item. */
export function batchResult<R extends { error?: string }>(items: R[]): { items: R[] } {
  if (items.every((item) => item.error !== undefined)) throw new FsError(items.map((item) => item.error).join("\n"));
  return { items };
}

/** How many of a multi-item result's items failed, as its text's first line when some did: a partial failure is no success. */
export function failedTally(items: { error?: string }[]): string[] {
  const failed = items.filter((item) => item.error !== undefined).length;
  return failed > 0 ? [`${failed} of ${items.length} failed:`] : [];
}

/** A multi-item result's text: the tally of failures, then one line per item (names a project gave kept to it), an error as `error: …`. */
export function itemLines<R extends { error?: string }>(items: R[], line: (item: R) => string): string {
  return [...failedTally(items), ...items.map((item) => oneLine(item.error !== undefined ? `error: ${item.error}` : line(item)))].join(
    "\n",
  );
}
