// search_files: content search by ripgrep (--json), streamed: past the result cap, rg reads on only
// to keep a bounded rest for the agent to page (KEPT_MATCHES, KEPT_LINES, KEEP_READING_MS), so a
// search over a huge tree costs little more than what is returned.
import { constants, existsSync } from "node:fs";
import { lstat, open } from "node:fs/promises";
import { dirname, isAbsolute, join } from "node:path";
import { z } from "zod";
import { decodeText } from "../files/binary-file.js";
import { parseJson } from "../files/json-file.js";
import { withDirectory, type Confinement } from "./confine.js";
import { FsError } from "./errors.js";
import { lineBytes, type Kept } from "../mcp/response-budget.js";
import { globWithin, missingPathHint } from "./glob.js";
import { oneLine } from "./one-line.js";
import { MAX_RG_PATTERN_BYTES, patternBytesOver, ripgrep } from "./ripgrep.js";

// A pattern that reads as a file-name glob (*.ts, src/**/*.py, *.{js,ts}) rather than text to find.
export function looksLikeGlob(pattern: string): boolean {
  return /^\*|\*\*\/|^[\w./-]*\*\.[\w{},]+$/.test(pattern);
}

/**
 * Characters a regular expression reads otherwise than as themselves, and that can keep it from
 * matching the same text ("." matches itself too, so it alone is no reason to search again).
 */
const REGEX_SPECIAL = /[()[\]{}*+?|^$\\]/;

const globHint = (pattern: string) =>
  `"${pattern}" looks like a file-name glob, and search_files searches file contents: use list_files with glob: "${pattern}" to find files by name`;

/** Why rg could not parse a pattern ("unclosed group"), in a few words, when that is what failed. */
function regexError(error: unknown): string | undefined {
  if (!(error instanceof FsError) || !/regex parse error/.test(error.message)) return undefined;
  const said = error.message.split("\n").find((line) => line.startsWith("error: "));
  return said === undefined ? "it does not parse" : oneLine(said.slice("error: ".length)).slice(0, 100);
}

/** Longest line shown; longer ones are cut around the match (minified files). */
const MAX_LINE = 300;
/**
 * Most lines shown of one match across lines; the rest are cut, "…" where it goes on. rg's record of such a match holds
 * all its lines (up to 8 MiB of them, rg-json-record.ts): ten files of four million blank lines between two words made
 * forty million line objects, 4 GB, and a call of two minutes past its timeout.
 */
const MAX_MATCH_LINES = 20;
/**
 * Past the cap: the matches, and lines with their context, kept to page beyond the ones an answer
 * shows, and how long rg may go on looking for them (sparse matches in a huge tree take long). A
 * second: 250 ms kept only 4,000 of 10,000 dense matches on a loaded 2-core CI machine.
 */
const KEPT_MATCHES = 10_000;
const KEPT_LINES = 20_000;
const KEEP_READING_MS = 1000;
export const MAX_CONTEXT_LINES = 10;
/** How long a search that found nothing looks in what .gitignore excludes, to say the pattern is there. */
const IGNORED_LOOK_MS = 500;

/** The matches a call gets: what it asked for, never above the daemon's fs.max_search_results. */
export function resultsWithin(requested: number | undefined, cap: number): number {
  if (requested !== undefined && requested > cap) {
    throw new FsError(
      `max_results ${requested} is above the limit of ${cap} (fs.max_search_results)`,
      `ask for at most ${cap}, narrowing with path or glob`,
    );
  }
  return requested ?? cap;
}

export interface SearchRequest {
  pattern: string;
  path?: string;
  glob?: string;
  /** Match the pattern as plain text; by default it is a regular expression. */
  literal?: boolean;
  /** Search what .gitignore excludes too. */
  includeIgnored?: boolean;
  /** Unset: smart case (insensitive unless the pattern has an uppercase letter). */
  caseSensitive?: boolean;
  contextLines?: number;
  maxResults: number;
  /** The text's room (escaped, as an answer carries it): fewer matches are shown where theirs would not fit. */
  maxBytes?: number;
  /** Directories of these names are not walked into. */
  skipDirs?: readonly string[];
}

export interface SearchLine {
  line: number;
  text: string;
  /** false for a context line. */
  match: boolean;
  /** Longer than MAX_LINE, or a match of more than MAX_MATCH_LINES lines: shown in part, "…" where it goes on. */
  cut?: true;
}

export interface SearchResult {
  matches: number;
  /** Said when the pattern found nothing and reads like something else (a file-name glob), or is there where not searched. */
  hint?: string;
  /** How the pattern was searched, when not as asked: no valid regular expression, it was searched as the text itself. */
  note?: string;
  /** More matches exist beyond those shown. */
  truncated: boolean;
  /** Stopped before max_results, where the answer is full. */
  full?: boolean;
  files: SearchFile[];
  /** When truncated: a file of every match (complete) or of the first ones, the answer's included, as it shows them. */
  all?: { path: string; matches: number; complete: boolean };
}

export interface SearchFile {
  path: string;
  lines: SearchLine[];
}

/**
 * Matches as text: each file's path, then its lines, "12:text" for a match and "11-text" for context; with
 * context, "--" between groups of lines that are not one after another, as rg prints them.
 */
export const matchLines = (files: SearchFile[]): string[] =>
  files.flatMap((file) => {
    const withContext = file.lines.some((line) => !line.match);
    let next = 0;
    return [
      oneLine(file.path),
      ...file.lines.flatMap((line) => {
        // A match across lines shows each of them numbered, as rg does.
        const texts = line.text.split("\n");
        const apart = withContext && next > 0 && line.line > next ? ["--"] : [];
        next = line.line + texts.length;
        return [...apart, ...texts.map((text, i) => `${line.line && line.line + i}${line.match ? ":" : "-"}${text}`)];
      }),
    ];
  });

const rgText = z.object({ text: z.string().optional(), bytes: z.string().optional() });
type RgText = z.infer<typeof rgText>;

/** One line of `rg --json`: what is read of it (rg's other fields are dropped). */
const rgEventSchema = z.object({
  type: z.string(),
  data: z.object({
    path: rgText.optional(),
    lines: rgText.optional(),
    line_number: z.number().nullish(),
    submatches: z.array(z.object({ start: z.number(), end: z.number() })).optional(),
  }),
});

/** rg's text, or (of no UTF-8) its bytes: a Latin-1 line shows its é (a path's bytes stay what names the file). */
const decode = (value: RgText | undefined, line = false): string => {
  if (value?.text !== undefined) return value.text;
  const bytes = Buffer.from(value?.bytes ?? "", "base64");
  return line ? decodeText(bytes) : bytes.toString("utf8");
};

/**
 * The line, or MAX_LINE characters of it around the match at byte `start` (rg counts UTF-8 bytes).
 * A cut is copied out: a slice would keep the whole line (a megabyte) alive as long as the result.
 */
function shorten(text: string, start = 0): Pick<SearchLine, "text" | "cut"> {
  const line = text.replace(/\r?\n$/, "");
  if (line.length <= MAX_LINE) return { text: line };
  // Bytes are characters in ASCII; otherwise the bytes before the match are decoded to count them.
  const at = Buffer.byteLength(line) === line.length ? start : Buffer.from(line).subarray(0, start).toString().length;
  const from = Math.max(0, Math.min(at - MAX_LINE / 3, line.length - MAX_LINE));
  const cut = Buffer.from(line.slice(from, from + MAX_LINE)).toString();
  return { text: `${from > 0 ? "…" : ""}${cut}${from + MAX_LINE < line.length ? "…" : ""}`, cut: true };
}

/**
 * The first `count` lines of `text`, and whether more follow, without splitting all of it. Each is copied out when
 * there are several: a slice would keep the whole record (megabytes) alive as long as the result.
 */
function firstLines(text: string, count: number): { lines: string[]; rest: boolean } {
  const lines: string[] = [];
  let from = 0;
  while (lines.length < count - 1) {
    const end = text.indexOf("\n", from);
    if (end < 0) break;
    lines.push(text.slice(from, end));
    from = end + 1;
  }
  const end = text.indexOf("\n", from);
  lines.push(text.slice(from, end < 0 ? undefined : end));
  return { lines: lines.length === 1 ? lines : lines.map((line) => Buffer.from(line).toString()), rest: end >= 0 };
}

/** For an answer with a line (or a match across lines) shown in part: how to read it whole. */
export function cutLineNote(files: SearchFile[]): string | undefined {
  for (const file of files) {
    const cut = file.lines.find((line) => line.cut);
    if (cut) {
      const lines = cut.text.split("\n").length;
      const read = JSON.stringify({ path: file.path, start_line: cut.line, ...(lines === 1 ? { end_line: cut.line } : {}) });
      return lines === 1
        ? `[lines over ${MAX_LINE} characters are shown around the match, "…" where they go on: read_content ${read} reads one]`
        : `[lines over ${MAX_LINE} characters, and matches over ${MAX_MATCH_LINES} lines, are shown in part, "…" where they go on: read_content ${read} reads on]`;
    }
  }
  return undefined;
}

/** Largest file a search across lines reads (rg holds it whole), well under rg's memory limit (ripgrep.ts). */
const MULTILINE_MAX_FILE = "256M";

/** A pattern across lines (a line break, or \n in a regular expression): it matches only where rg reads past one. */
const acrossLines = (request: SearchRequest) =>
  request.pattern.includes("\n") || (!request.literal && /(^|[^\\])\\n/.test(request.pattern));

function ripgrepArgs(request: SearchRequest): string[] {
  const args = ["--json", "--no-config", "--hidden", "--no-require-git", "--glob", "!.git"];
  if (request.includeIgnored) args.push("--no-ignore");
  // A regular expression with look-around or backreferences goes to PCRE2 where rg has it.
  args.push(...(request.literal ? ["--fixed-strings"] : ["--engine", "auto"]));
  args.push(request.caseSensitive === undefined ? "--smart-case" : request.caseSensitive ? "--case-sensitive" : "--ignore-case");
  if (request.contextLines) args.push("--context", String(Math.min(request.contextLines, MAX_CONTEXT_LINES)));
  if (request.glob) args.push("--glob", request.glob);
  for (const dir of request.skipDirs ?? []) args.push("--glob", `!**/${dir}/**`);
  // rg then holds a whole file: one larger than its memory limit would fail the search, so such files are skipped.
  if (acrossLines(request)) args.push("--multiline", "--max-filesize", MULTILINE_MAX_FILE);
  args.push("--regexp", request.pattern);
  return args;
}

/** Runs rg in the held directory, or over one held file given as its input, with the arguments for that directory; yields the records and the directory results are shown from. */
function searchRecords(
  confinement: Confinement,
  input: string,
  argsIn: (dir: string) => string[],
  signal: AbortSignal,
  use: (records: AsyncIterable<string>, base: string, single?: string) => Promise<void>,
): Promise<void> {
  return confinement.hold(input, "follow", async (target) => {
    if (!target.exists)
      throw new FsError(
        `${input}: does not exist`,
        missingPathHint(input, "search the project (leave out path), or list_files to see what exists"),
      );
    const stats = await lstat(target.at);
    if (stats.isDirectory()) {
      const args = argsIn(target.real);
      return withDirectory(target.at, input, (dir) =>
        confinement.withRootOf(target.real, input, (jail) => use(ripgrep(args, { cwd: dir, jail, signal, separator: "\n" }), target.real)),
      );
    }
    // One file: rg reads it from a descriptor opened no-follow, so nothing can be swapped in under it. A device
    // would feed rg for ever (a copy of /dev/zero), a FIFO as long as a jailed writer likes: checked before
    // the open (a device may not open at all) and after it (what was opened).
    const notRegular = () => new FsError(`${input}: not a regular file`, "search a file or a directory");
    if (!stats.isFile()) throw notRegular();
    const args = argsIn(dirname(target.real));
    const file = await open(target.at, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      if (!(await file.stat()).isFile()) throw notRegular();
      await use(ripgrep([...args, "--", "-"], { cwd: target.dirAt, stdin: file.fd, signal, separator: "\n" }), target.real, target.real);
    } finally {
      await file.close();
    }
  });
}

/**
 * `keep` stores the matches past max_results (a bounded rest, see KEPT_MATCHES) when the cap stops the answer;
 * rg reads on for them at most `keepReadingMs`.
 */
export function searchFiles(
  confinement: Confinement,
  request: SearchRequest,
  signal: AbortSignal,
  keep?: (text: string) => Promise<Kept>,
  keepReadingMs = KEEP_READING_MS,
): Promise<SearchResult> {
  return search(confinement, request, signal, { keep, keepReadingMs, hints: true });
}

/** A search; with `hints`, one that finds nothing looks once more for why (the searches it makes for that look no further). */
async function search(
  confinement: Confinement,
  request: SearchRequest,
  signal: AbortSignal,
  { keep, keepReadingMs, hints }: { keep?: (text: string) => Promise<Kept>; keepReadingMs: number; hints: boolean },
): Promise<SearchResult> {
  if (request.pattern === "")
    throw new FsError("pattern is empty", "give the regular expression (or, with literal: true, the text) to look for");
  if (`${request.pattern}${request.glob ?? ""}`.includes("\0"))
    throw new FsError("pattern or glob has a NUL character, which rg cannot take");
  const bytes = patternBytesOver(request.pattern, request.glob);
  if (bytes)
    throw new FsError(
      `pattern and glob are ${bytes} bytes, over the ${MAX_RG_PATTERN_BYTES} a search takes`,
      "search for a shorter, telling part of it",
    );
  const result: SearchResult = { matches: 0, truncated: false, files: [] };
  // Every match read, the answer's and those kept beyond it.
  const read = { matches: 0, lines: 0, files: [] as SearchFile[], stopped: false };
  const readUpTo = request.maxResults + (keep ? KEPT_MATCHES : 0);
  let linesUpTo = Infinity;
  const reading = readingTime(signal, keepReadingMs);
  const argsIn = (dir: string) =>
    ripgrepArgs({ ...request, glob: request.glob === undefined ? undefined : globWithin(confinement, request.glob, dir) });
  const searched = searchRecords(confinement, request.path ?? ".", argsIn, reading.signal, async (records, base, single) => {
    let current: SearchFile | undefined;
    for await (const record of records) {
      const event = parseJson(record, rgEventSchema, "rg --json output");
      if (event.type === "begin") {
        current = { path: confinement.shown(single ?? join(base, decode(event.data.path))), lines: [] };
        continue;
      }
      if (event.type !== "match" && event.type !== "context") continue;
      if (event.type === "match") {
        if (read.matches === request.maxResults && !result.truncated) {
          result.truncated = true;
          linesUpTo = read.lines + KEPT_LINES;
          if (keep) reading.start();
        }
        if (read.matches === readUpTo || read.lines >= linesUpTo) {
          read.stopped = true;
          break;
        }
        read.matches++;
      }
      if (!current) continue;
      if (current.lines.length === 0) read.files.push(current);
      // A match across lines (--multiline) is one record of them all, each line shortened on its own, its first lines only.
      const {
        lines: [head, ...more],
        rest,
      } = firstLines(decode(event.data.lines, true).replace(/\r?\n$/, ""), MAX_MATCH_LINES);
      const shortened = [shorten(head!, event.data.submatches?.[0]?.start), ...more.map((text) => shorten(text))];
      if (rest) shortened.push({ text: `${shortened.pop()!.text}…`, cut: true });
      read.lines += shortened.length;
      current.lines.push({
        line: event.data.line_number ?? 0,
        text: shortened.map((each) => each.text).join("\n"),
        ...(shortened.some((each) => each.cut) ? { cut: true } : {}),
        match: event.type === "match",
      });
    }
  });
  let invalid: string | undefined;
  try {
    await searched.catch((error: unknown) => {
      if (error === reading.timeUp) return;
      invalid = regexError(error);
      if (invalid === undefined) throw error;
      if (looksLikeGlob(request.pattern))
        throw new FsError(globHint(request.pattern), "or pass literal: true to search for the text itself");
    });
  } finally {
    reading.done();
  }
  // "apply_discount(" is what agents search for: as the text it is, said so.
  if (invalid !== undefined) {
    const asText = await search(confinement, { ...request, literal: true }, signal, { keep, keepReadingMs, hints });
    return { ...asText, note: `not a valid regular expression (${invalid}): searched as the text itself` };
  }
  if (reading.signal.reason === reading.timeUp) read.stopped = true;
  const shown = matchesWithin(read.files, Math.min(read.matches, request.maxResults), request.maxBytes ?? Number.POSITIVE_INFINITY);
  if (shown < Math.min(read.matches, request.maxResults)) Object.assign(result, { truncated: true, full: true });
  result.matches = shown;
  result.files = firstMatches(read.files, shown);
  if (result.matches === 0 && hints) result.hint = await whyNothing(confinement, request, signal);
  if (result.truncated && keep) {
    // Stopping at a cap can leave the leading context of a match not read: drop such a last file.
    const whole = await keep(`${matchLines(read.files.filter((file) => file.lines.some((line) => line.match))).join("\n")}\n`);
    if ("path" in whole) result.all = { path: whole.path, matches: read.matches, complete: !read.stopped };
  }
  return result;
}

/** Why a search found nothing, where a reason shows: it reads as another thing, or what it looks for is where it did not look. */
async function whyNothing(confinement: Confinement, request: SearchRequest, signal: AbortSignal): Promise<string | undefined> {
  if (looksLikeGlob(request.pattern)) return globHint(request.pattern);
  if (acrossLines(request)) return `across lines; files over ${MULTILINE_MAX_FILE}iB are not searched so`;
  const once = (asked: Partial<SearchRequest>, within = signal) =>
    search(confinement, { ...request, ...asked, maxResults: 1 }, within, { keepReadingMs: 0, hints: false });
  // "print(foo(21))" finds nothing as a regular expression; said so when the text itself is there.
  if (!request.literal && REGEX_SPECIAL.test(request.pattern) && (await once({ literal: true })).matches > 0)
    return "as a regular expression; the text itself is there: pass literal: true";
  if (request.includeIgnored) return undefined;
  // A log or a .env is where agents look, and .gitignore excludes both; so it does installed dependencies, which
  // match most patterns somewhere and are named only when nothing else matches (read_package reads them). At most
  // half a second in all: a tree's node_modules can hold a million files.
  const within = AbortSignal.any([signal, AbortSignal.timeout(IGNORED_LOOK_MS)]);
  if (!(await leavesOutAnything(confinement, request.path ?? ".", within).catch(() => true))) return undefined;
  const ignoredIn = (skipDirs: readonly string[], stop = within) => once({ includeIgnored: true, skipDirs }, stop).catch(() => undefined);
  // Both at once: where the pattern is nowhere (the usual case) each reads to the end, and the second one no longer
  // waits for the first. Its answer counts only when the first found nothing.
  const dependencies = new AbortController();
  const inAll = ignoredIn([], AbortSignal.any([within, dependencies.signal]));
  const own = await ignoredIn(DEPENDENCY_DIRS);
  if (own?.matches) dependencies.abort();
  const found = own?.matches ? own : await inAll;
  const file = found?.matches ? found.files[0]!.path : undefined;
  if (!file) return undefined;
  return `in files .gitignore excludes (${file}): pass include_ignored: true${own?.matches ? `, with path ${JSON.stringify(file)} for that file alone` : ""}`;
}

/** The files whose rules rg follows, and a repository's own (it reads .git/info/exclude). */
const RULE_FILES = [".gitignore", ".ignore", ".rgignore", "/.git/info/exclude"];
/** What at a root's top says a search may leave something out: a file of rules, or a repository. */
const TOP_RULES = [".gitignore", ".ignore", ".rgignore", ".git"];

/**
 * Whether a search may leave anything out: most projects say so at their top; else a file of rules may be anywhere
 * below (or above the path searched, so the project is walked whole; another root's path from itself). Without one (a
 * dependency tree unpacked, a plain directory) the look in what is left out would read the whole tree again for
 * nothing; for this the names alone are walked, up to the first such file.
 */
async function leavesOutAnything(confinement: Confinement, path: string, signal: AbortSignal): Promise<boolean> {
  if (confinement.roots().some((root) => TOP_RULES.some((name) => existsSync(join(root.real, name))))) return true;
  const args = ["--files", "--line-buffered", "--no-config", "--hidden", "--no-ignore", ...RULE_FILES.flatMap((name) => ["--glob", name])];
  let found = false;
  await searchRecords(
    confinement,
    isAbsolute(path) ? path : ".",
    () => args,
    signal,
    async (records) => {
      for await (const _ of records) {
        found = true;
        break;
      }
    },
  );
  return found;
}

/** Where installed dependencies are, which .gitignore excludes and a search of what it excludes names last. */
const DEPENDENCY_DIRS = ["node_modules", ".venv", "venv", "site-packages", "__pycache__", ".tox", ".nox", "vendor"];

/** What ends rg's reading: the caller's signal, or, `ms` after `start`, the time to read on past the cap (`timeUp`). */
function readingTime(signal: AbortSignal, ms: number) {
  const controller = new AbortController();
  const timeUp = new Error("no more time to read on");
  const cancel = () => controller.abort(signal.reason);
  signal.addEventListener("abort", cancel, { once: true });
  let timer: NodeJS.Timeout | undefined;
  return {
    signal: controller.signal,
    timeUp,
    start: () => {
      timer = setTimeout(() => controller.abort(timeUp), ms);
    },
    done: () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", cancel);
    },
  };
}

/** How many of the first `count` matches show within `maxBytes` (at least one), their lines as an answer carries them. */
function matchesWithin(files: SearchFile[], count: number, maxBytes: number): number {
  const bytes = (k: number) => matchLines(firstMatches(files, k)).reduce((sum, line) => sum + lineBytes(line), 0);
  if (count <= 1 || bytes(count) <= maxBytes) return count;
  // More matches never take fewer bytes: the most that fit, by bisection.
  let [fits, over] = [1, count];
  while (over - fits > 1) {
    const middle = Math.floor((fits + over) / 2);
    if (bytes(middle) <= maxBytes) fits = middle;
    else over = middle;
  }
  return fits;
}

/** The files and lines up to the `count`th match, with what follows it up to the next match. */
function firstMatches(files: SearchFile[], count: number): SearchFile[] {
  let left = count;
  const kept: SearchFile[] = [];
  for (const file of files) {
    // A file begun after the last match wanted has only that next match's leading context.
    if (left === 0) break;
    const lines: SearchLine[] = [];
    for (const line of file.lines) {
      if (line.match) {
        if (left === 0) break;
        left--;
      }
      lines.push(line);
    }
    kept.push({ ...file, lines });
  }
  return kept;
}
