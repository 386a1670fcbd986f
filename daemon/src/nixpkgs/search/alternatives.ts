// "prettier alternative", "replacement for ls", "like make": a query for another tool than the one it
// names. Two lists answer it, merged by rank: the packages whose words name that tool (fd is "alternative
// to find", sd "sed alternative", kakoune "Vim inspired"), and those whose descriptions say what the
// named tool's own says (opentofu, like terraform, is "Tool for building, changing, and versioning
// infrastructure"), matched against descriptions alone: a word of it that is another package's name
// (pip's "installing": pypaInstallHook) says nothing of what that package does. What is built on the
// named tool (prettier-d-slim, coc-prettier, mtr-gui) is in neither, nor is the tool itself unless the
// query asks for one like it ("schedule jobs like cron").
import type { NixpkgsIndex, PackageRecord } from "../index/index.js";
import { ECOSYSTEM_WORDS, splitAttr } from "../index/package-sets.js";
import { nameWords, normalizeName, stem, textWords } from "./text.js";

/**
 * Words after which, or before which, a query names the tool it wants another of ("find equivalent", "better
 * find"). "like" and "similar" ask for its kind, the tool itself included ("schedule jobs like cron") unless a
 * "but" follows ("like make but simpler"), but "would
 * like to" for nothing; a clone is also what a git repository has ("clone a git repository"), so only "vim clone"
 * asks for one.
 */
export const STANDING_IN = ["alternative", "alternatives", "replacement", "replacements", "fork", "forks", "equivalent", "equivalents"];
const AFTER_NAME = new Set([...STANDING_IN, "clone", "clones"]);
const BEFORE_NAME = new Set([...STANDING_IN, "like", "similar", "better"]);
const OF_ITS_KIND = new Set(["like", "similar"]);
const LIKE_AFTER = "postlike";
/** Sets whose packages are often command-line tools (black, pip, webpack). */
const TOOL_FAMILIES = [...ECOSYSTEM_WORDS.python!, ...ECOSYSTEM_WORDS.node!];
const LINKS = new Set(["to", "for", "of", "the", "a", "an"]);
/** How far down one list a rank still counts against a rank in the other (reciprocal rank fusion's k). */
const FUSION_K = 3;
/** What a package that names the tool, but not as one it stands in for, counts (tuned on the bench queries). */
const ONLY_NAMING = 0.75;
/** Words of a description standing in for another tool: "alternative to find", "Cat(1) clone", "Vim inspired", "Vim fork". */
const LIKENESS = /\b(alternatives?|replacements?|clones?|like|inspired|forks?|compatible|drop-in|rewrite|reimplementation|instead|but)\b/i;
/** A description as a query: its first words say what the tool is. */
const MAX_DESCRIPTION_QUERY = 120;

export interface AlternativesAsked {
  /** The query as it was asked. */
  query: string;
  /** The packages of the tool named (findutils for "find", every curl build for "curl"). */
  named: number[];
  /** The name as the query wrote it. */
  name: string;
  /** The query's other words ("fast", "written in go"), which the other tool should also be. */
  rest: string;
  /** Whether the tool named is an answer too: "like cron" asks for cron's kind. */
  namedToo: boolean;
}

/** The tool a query asks another of, when it names one nixpkgs knows; undefined for any other query. */
export function alternativesAsked(index: NixpkgsIndex, query: string): AlternativesAsked | undefined {
  // "make-like": "like" after the name, as one word with it (a word no query has stands for it).
  const words = textWords(query.replace(/\b-like\b/gi, ` ${LIKE_AFTER}`));
  for (const [i, word] of words.entries()) {
    const before = i > 0 && (word === LIKE_AFTER || AFTER_NAME.has(word)) ? i - 1 : -1;
    let after = -1;
    if (BEFORE_NAME.has(word) && !(word === "like" && words[i + 1] === "to")) {
      after = i + 1;
      while (LINKS.has(words[after] ?? "")) after++;
    }
    // "alternative to find" names find after it; "terraform alternative for my project" terraform before it.
    // "curl but friendlier": what the query opens with, it wants otherwise.
    const places = LINKS.has(words[i + 1] ?? "") ? [after, before] : before >= 0 ? [before] : [after];
    if (i === 1 && word === "but") places.push(0);
    for (const at of places) {
      const name = words[at];
      const named = name ? namedPackages(index, name) : [];
      if (named.length === 0) continue;
      const rest = words.filter((_, j) => j !== i && j !== at && !(j > i && j < at)).join(" ");
      return {
        query,
        named,
        name: name!,
        rest,
        namedToo: (OF_ITS_KIND.has(word) || word === LIKE_AFTER) && !saysHowItDiffers(words.slice(Math.max(i, at) + 1), name!),
      };
    }
  }
  return undefined;
}

/**
 * Whether the words after the name say how the tool wanted differs from it: "like make but simpler", not "like
 * ripgrep but" (nothing said) or "like make but compatible with make" (make itself would do).
 */
function saysHowItDiffers(after: readonly string[], name: string): boolean {
  const but = after.indexOf("but");
  const how = but < 0 ? [] : after.slice(but + 1);
  return how.length > 0 && !how.includes(name);
}

/**
 * The packages a name is: top-level ones (attribute, pname or program) first, else a Python or Node
 * package of that name, as many of their tools are ("black" is python313Packages.black). Not
 * any set's: "makefile" is no Haskell library.
 */
function namedPackages(index: NixpkgsIndex, name: string): number[] {
  const term = index.exact.find(normalizeName(name));
  if (term < 0) return [];
  const ids = [...index.exact.postings(term)];
  const topLevel = index.topLevelFamily;
  const top = ids.filter((id) => index.family[id] === topLevel);
  if (top.length > 0) return top;
  const toolFamilies = new Set(TOOL_FAMILIES.map((family) => index.familyIndex(family)));
  return ids.filter((id) => toolFamilies.has(index.family[id]!) && normalizeName(splitAttr(index.attr(id)).leaf) === normalizeName(name));
}

interface Ranked {
  attr: string;
  description: string;
}

/**
 * The alternatives, best first. A package naming the tool as its alternative ("alternative to find")
 * counts fully; one that only names it ("tmux session manager") may as well be built on it, and counts ONLY_NAMING.
 */
export function rankAlternatives<T extends Ranked>(
  index: NixpkgsIndex,
  asked: AlternativesAsked,
  /** Ranks a query; `describedOnly`: by descriptions alone, for a description as the query. */
  rank: (query: string, describedOnly: boolean) => T[],
  limit: number,
): (T & { fused: number })[] {
  const others = (results: T[]) => results.filter((result) => !isOfNamed(index, asked, index.lookup(result.attr)));
  const named = asked.named.map((id) => index.record(id));
  // The tool named by its package ("findutils") is the program it installs to those that stand in for it ("alternative to find").
  const programs = new Set(named.map((record) => normalizeName(record.mainProgram)).filter(Boolean));
  const naming = others(rank(asked.query, false)).filter(saysNamed(index, asked, programs));
  const { description } = named[0]!;
  // A package's description says what its own program does, not another it installs: coreutils' "GNU Core Utilities" is no ls.
  const ownName = (record: PackageRecord) =>
    [splitAttr(record.attr).leaf, record.pname, record.mainProgram].some((name) => normalizeName(name) === normalizeName(asked.name));
  const alike = description && named.some(ownName) ? others(rank(`${firstWords(description)} ${asked.rest}`, true)) : [];
  const weight = (item: T, list: number) => (list === 1 || LIKENESS.test(item.description) ? 1 : ONLY_NAMING);
  return fuseRankings([naming, alike], weight, limit);
}

/** A description's first MAX_DESCRIPTION_QUERY characters, to the end of the word there: "… multiple bundles" is no "bun". */
function firstWords(description: string): string {
  return description.slice(0, MAX_DESCRIPTION_QUERY) + /^\w*/.exec(description.slice(MAX_DESCRIPTION_QUERY))![0];
}

/** Whether a package is the tool named or built on it: the name is one of its name's words ("coc-prettier", "mtr-gui"), not fused into another ("neovim", "htop"). */
function isOfNamed(index: NixpkgsIndex, asked: AlternativesAsked, id: number): boolean {
  if (asked.named.includes(id)) return !asked.namedToo;
  return nameWords(splitAttr(index.attr(id)).leaf).includes(normalizeName(asked.name));
}

/**
 * A test of whether a ranked package's words name the tool asked about: its description, what others say of it
 * (podman is "podman or docker" to distrobox, "Docker and Podman containers" to lazyjournal: mentioned beside it, as
 * one of its kind), or its name with the name fused in (gping); or its description stands in for one of the tool's
 * programs ("alternative to find" for findutils). What the name is, is looked up once, not per package.
 */
function saysNamed(index: NixpkgsIndex, asked: AlternativesAsked, programs: ReadonlySet<string>): (result: Ranked) => boolean {
  const name = normalizeName(asked.name);
  const context = index.context.find(stem(name));
  return ({ attr, description }) => {
    const id = index.lookup(attr);
    const words = textWords(description);
    return (
      words.includes(name) ||
      (context >= 0 && index.context.lists(context, id)) ||
      splitAttr(attr).leaf.toLowerCase().includes(name) ||
      asked.named.includes(id) ||
      (LIKENESS.test(description) && words.some((word) => programs.has(word)))
    );
  };
}

/** Rankings as one: each item by the sum of weight/(k + rank) over the lists it is in. */
function fuseRankings<T extends { attr: string }>(
  lists: readonly T[][],
  weight: (item: T, list: number) => number,
  limit: number,
): (T & { fused: number })[] {
  const fused = new Map<string, { item: T; score: number }>();
  lists.forEach((list, i) => {
    list.forEach((item, rank) => {
      const entry = fused.get(item.attr) ?? { item, score: 0 };
      entry.score += weight(item, i) / (FUSION_K + rank);
      fused.set(item.attr, entry);
    });
  });
  return [...fused.values()]
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map(({ item, score }) => ({ ...item, fused: score }));
}
