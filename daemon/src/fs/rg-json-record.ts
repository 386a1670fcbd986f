// One record of `rg --json` as it streams in, held within a bound. rg writes a match's whole line, and
// every submatch, into one record: a 300 MB line is a record of 300 MB (held whole, with its parse,
// 1.2 GB of the daemon per search, outside any jail), 3 MB of repeats one of 160 MB (a submatch per
// character). Past MAX_RECORD_CHARS only the record's start is kept, and of the rest only what comes
// after the line: its number, and where the first submatch is; the record is then made again from
// those, its line cut to what was kept. A search shows a few hundred characters around the match.
//
// The fields are found by text: `},"line_number":` and a submatch's `},"start":` cannot occur
// unescaped inside a JSON string (a quote in one is \"), and rg writes them in this order.

/**
 * Most characters of one record held: a line of megabytes still shows around its first match (a deeper one shows
 * the line's start, cut), and one search holds tens of MB at most.
 */
export const MAX_RECORD_CHARS = 8 << 20;

/**
 * What is looked for after the line, in order, each from where the one before it ended: the line's number and
 * offset (the marker, then the text up to the submatches' start), then the first submatch's place.
 */
const AFTER_LINE = [
  { marker: '},"line_number":', upTo: '"submatches":[' },
  { marker: '},"start":', upTo: "}" },
] as const;
/** Most characters read after a marker for what it starts: a number or two. */
const MAX_FIELD = 100;

/** A record past the bound: its start, and what was found after the line. */
interface Skim {
  start: string;
  /** Whether nothing after the submatches' "[" was read yet: "]" there says there are none. */
  fresh: boolean;
  /** Which of AFTER_LINE is looked for; whether its marker was found; what is held of it (the end of what was scanned, where the marker may begin, or what followed the marker). */
  step: number;
  marked: boolean;
  read: string;
  /** What followed each marker found, up to its end. */
  found: string[];
}

export class RgJsonRecord {
  private pieces: string[] = [];
  private held = 0;
  private skimmed?: Skim;

  add(piece: string): void {
    if (!this.skimmed) {
      this.pieces.push(piece);
      this.held += piece.length;
      if (this.held <= MAX_RECORD_CHARS) return;
      const all = this.pieces.join("");
      this.pieces = [];
      this.skimmed = { start: all.slice(0, MAX_RECORD_CHARS), fresh: false, step: 0, read: "", marked: false, found: [] };
      this.scan(all);
      return;
    }
    this.scan(piece);
  }

  /** The record, whole or made again; the holder is empty after. */
  take(): string {
    const skimmed = this.skimmed;
    const whole = this.pieces.join("");
    this.pieces = [];
    this.held = 0;
    this.skimmed = undefined;
    return skimmed ? remade(skimmed) : whole;
  }

  /** Looks for what AFTER_LINE names, in order, in `text`. */
  private scan(text: string): void {
    const skim = this.skimmed!;
    let rest = text;
    while (skim.step < AFTER_LINE.length && rest !== "") {
      const { marker, upTo } = AFTER_LINE[skim.step]!;
      const read = skim.read + rest;
      if (!skim.marked) {
        const at = read.indexOf(marker);
        // "]" right after the submatches' "[": there are none.
        if (skim.fresh) {
          skim.fresh = false;
          if (read.startsWith("]")) {
            skim.step = AFTER_LINE.length;
            return;
          }
        }
        // Not there: only the end, where the marker may begin, is kept.
        if (at < 0) {
          skim.read = read.slice(1 - marker.length);
          return;
        }
        [skim.marked, skim.read, rest] = [true, "", read.slice(at + marker.length)];
        continue;
      }
      const end = read.indexOf(upTo);
      if (end < 0) {
        skim.read = read;
        if (read.length > MAX_FIELD) skim.step = AFTER_LINE.length;
        return;
      }
      skim.found.push(read.slice(0, end));
      [skim.step, skim.read, skim.marked, rest] = [skim.step + 1, "", false, read.slice(end + upTo.length)];
      skim.fresh = true;
    }
  }
}

/** A record from its kept start and what was found after the line: the line cut to a valid JSON string. */
function remade({ start, found }: Skim): string {
  const head = /^\{"type":"(\w+)","data":\{"path":(\{"(?:text|bytes)":"(?:[^"\\]|\\.)*"\}),"lines":\{"(text|bytes)":"/.exec(start);
  // "12,"absolute_offset":345,", then "0,"end":6".
  const place = /^(\d+|null),"absolute_offset":(\d+),$/.exec(found[0] ?? "");
  const submatch = /^(\d+),"end":(\d+)$/.exec(found[1] ?? "");
  if (!head || !place) return '{"type":"skipped","data":{}}';
  let line = start.slice(head[0].length);
  const end = stringEnd(line);
  if (end >= 0) line = line.slice(0, end);
  // Cut, base64 in whole groups, text without the broken escape it may end in (at most 5 characters of "\\uXXXX").
  else if (head[3] === "bytes") line = line.slice(0, line.length - (line.length % 4));
  else for (let cut = 0; cut < 6 && !isJsonString(line); cut++) line = line.slice(0, -1);
  return `{"type":"${head[1]}","data":{"path":${head[2]},"lines":{"${head[3]}":"${line}"},"line_number":${place[1]},"absolute_offset":${place[2]},"submatches":[${submatch ? `{"start":${submatch[1]},"end":${submatch[2]}}` : ""}]}}`;
}

/** Where a JSON string's text that `text` starts ends: its first quote no backslash escapes; -1 when it goes on past it. */
function stringEnd(text: string): number {
  for (let at = 0; at < text.length; at++) {
    if (text[at] === "\\") at++;
    else if (text[at] === '"') return at;
  }
  return -1;
}

function isJsonString(text: string): boolean {
  try {
    JSON.parse(`"${text}"`);
    return true;
  } catch {
    return false;
  }
}
