// A unified diff of two texts by lines (Myers' O(ND) algorithm on the part between the common
// head and tail, which for an edit is small), with three lines of context.
const CONTEXT = 3;
/** Int32 cells the Myers trace may hold (128 MiB). */
const TRACE_LIMIT = 32 * 1024 * 1024;

type Op = { kind: " " | "-" | "+"; line: string };

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** The shortest edit script turning a into b, as a list of kept, removed and added lines. */
function myers(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    // Past this the trace would cost too much memory: show the middle as removed then added.
    if ((d + 1) * v.length > TRACE_LIMIT)
      return [...a.map((line): Op => ({ kind: "-", line })), ...b.map((line): Op => ({ kind: "+", line }))];
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a, b, d, offset);
    }
  }
  return [];
}

function backtrack(trace: Int32Array[], a: string[], b: string[], dEnd: number, offset: number): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = dEnd; d >= 0; d--) {
    const v = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : v[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: " ", line: a[--x]! });
      y--;
    }
    if (d > 0) {
      if (x === prevX) ops.push({ kind: "+", line: b[--y]! });
      else ops.push({ kind: "-", line: a[--x]! });
    }
  }
  return ops.reverse();
}

export function unifiedDiff(before: string, after: string, path: string): string {
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const ops: Op[] = [
    ...a.slice(0, head).map((line): Op => ({ kind: " ", line })),
    ...myers(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
    ...a.slice(a.length - tail).map((line): Op => ({ kind: " ", line })),
  ];
  const out = [`--- a/${path}`, `+++ b/${path}`];
  let i = 0;
  let lineA = 1;
  let lineB = 1;
  while (i < ops.length) {
    if (ops[i]!.kind === " ") {
      i++;
      lineA++;
      lineB++;
      continue;
    }
    // A hunk: back up to CONTEXT kept lines, run until CONTEXT*2 kept lines in a row or the end.
    const back = Math.min(CONTEXT, i - firstNonKeptBefore(ops, i));
    const start = i - back;
    let end = i;
    let kept = 0;
    while (end < ops.length && kept <= CONTEXT * 2) {
      kept = ops[end]!.kind === " " ? kept + 1 : 0;
      end++;
    }
    if (kept > CONTEXT) end -= kept - CONTEXT;
    const hunk = ops.slice(start, end);
    const oldCount = hunk.filter((op) => op.kind !== "+").length;
    const newCount = hunk.filter((op) => op.kind !== "-").length;
    const oldStart = lineA - back;
    const newStart = lineB - back;
    out.push(`@@ -${oldCount ? oldStart : oldStart - 1},${oldCount} +${newCount ? newStart : newStart - 1},${newCount} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.line}`);
    for (const op of ops.slice(i, end)) {
      if (op.kind !== "+") lineA++;
      if (op.kind !== "-") lineB++;
    }
    i = end;
  }
  return out.length > 2 ? `${out.join("\n")}\n` : "";
}

/** Index just after the previous hunk's end (kept lines before `i` that are free for context). */
function firstNonKeptBefore(ops: Op[], i: number): number {
  let j = i;
  while (j > 0 && ops[j - 1]!.kind === " ") j--;
  return j;
}
