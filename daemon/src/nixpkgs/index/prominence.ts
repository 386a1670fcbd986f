// How likely a package is meant when several match, from what the catalog says of how established
// it is. Each signal is weak alone; together they separate the tools everybody uses from the
// hundred small ones whose descriptions use the same words. Each factor below was kept only when it
// raised MRR on both the dev and the held-out agent queries (npm run bench -- search).
import type { CatalogEntry } from "./catalog.js";
import { splitAttr } from "./package-sets.js";

/**
 * From the package itself: more maintainers, man pages, several versions kept, a site of its own,
 * a released version not long since, a name of its own, an expression of some length, more systems than Linux;
 * a package without a description rarely is meant. `catalogYear`: see catalogYear.
 */
export function establishment(entry: CatalogEntry, variants: number, catalogYear: number): number {
  const { set, leaf } = splitAttr(entry.attr);
  return (
    (entry.description ? 1 : 0.8) *
    (1 + 0.05 * Math.min(entry.maintainers, 4)) *
    (entry.hasManPages ? 1.25 : 1) *
    (1 + 0.08 * Math.min(variants - 1, 3)) *
    (hasOwnSite(entry.homepage) ? 1.25 : 1) *
    releaseFactor(entry.version) *
    stalenessFactor(entry.version, catalogYear) *
    nameShapeFactor(leaf) *
    expressionFactor(entry.position, set !== "") *
    (linuxOnly(entry.platforms) ? 0.75 : 1)
  );
}

/**
 * Built for Linux alone: desktop applets, kernel and hardware tools, Linux's own plumbing. An agent's
 * task more often means a tool that runs anywhere: of the packages ranked above an expected answer in
 * the dev queries, 15% were Linux-only; of the expected answers, 4%.
 */
function linuxOnly(platforms: string[] | null): boolean {
  return platforms !== null && platforms.length > 0 && platforms.every((platform) => platform.endsWith("-linux"));
}

/**
 * The shape of its name: the established tool has a short one of its own ("jq", "pandoc", "tcpdump");
 * an add-on or a variant has parts ("python-lsp-black", "wireshark-cli"), each a little less likely
 * meant (version suffixes such as "_0_26_0" are no parts).
 */
function nameShapeFactor(leaf: string): number {
  const parts = leaf.split(/[-_]/).filter((part) => /[a-z]/i.test(part)).length;
  const short = leaf.replace(/[^a-z0-9]/gi, "").length <= 6;
  return 0.82 ** Math.min(Math.max(parts - 1, 0), 3) * (short ? 1.1 : 1);
}

/** From other packages: how many name it (mentions.ts), per doubling, up to a cap. */
export function mentionFactor(count: number): number {
  return Math.min(1.5, 1 + 0.12 * Math.log2(1 + count));
}

/** Hosts that serve anybody's code or packages: a homepage there says nothing of the project's standing. */
const SHARED_HOSTS =
  /(^|\.)(github\.com|gitlab\.com|codeberg\.org|sr\.ht|bitbucket\.org|pypi\.org|pypi\.python\.org|crates\.io|docs\.rs|lib\.rs|hackage\.haskell\.org|metacpan\.org|cpan\.org|cran\.r-project\.org|bioconductor\.org|npmjs\.com|rubygems\.org|packagist\.org|opam\.ocaml\.org|melpa\.org|elpa\.gnu\.org|sourceforge\.net|launchpad\.net|gitea\.com|framagit\.org|github\.io|gitlab\.io|readthedocs\.io|pkg\.go\.dev|hex\.pm|juliahub\.com|ctan\.org)$/;

/** A project with a domain of its own (pandoc.org, wireshark.org) is usually the established one. */
function hasOwnSite(homepage: string): boolean {
  const host = /^https?:\/\/([^/:?#]+)/i.exec(homepage)?.[1]?.toLowerCase();
  return host !== undefined && !SHARED_HOSTS.test(host);
}

/** A 1.0 or later release is likelier meant than a 0.x one; an unreleased snapshot ("0-unstable-…") least. */
function releaseFactor(version: string): number {
  if (/unstable|^0-|^0\.0\./.test(version)) return 0.5;
  return /^[1-9]/.test(version) ? 1.3 : 1;
}

/** A date in a version: a snapshot's ("0-unstable-2020-12-08", "2020-12-08") or a dated release's ("2025.07.28"). */
const VERSION_DATE = /(?:^|\D)((?:19|20)\d\d)[-.]\d\d[-.]\d\d(?:$|\D)/;
/** How many years behind the catalog a dated version may be before it looks abandoned. */
const STALE_YEARS = 2;

/**
 * A version dated two years or more before the catalog was taken: nobody has released or packaged
 * anything newer since (golint's "2020-12-08", deprecated for golangci-lint). A dated release kept
 * current (rust-analyzer's, clj-kondo's) is not.
 */
function stalenessFactor(version: string, catalogYear: number): number {
  const year = Number(VERSION_DATE.exec(version)?.[1] ?? catalogYear);
  return catalogYear - year >= STALE_YEARS ? 0.6 : 1;
}

/**
 * The year a catalog was taken, read from the dates in its versions (no clock: an index built later
 * ranks as one built then): the latest year that at least a hundredth of them reach, so that one
 * version dated in the future moves nothing.
 */
export function catalogYear(versions: Iterable<string>): number {
  const years: number[] = [];
  for (const version of versions) {
    const year = VERSION_DATE.exec(version)?.[1];
    if (year) years.push(Number(year));
  }
  years.sort((a, b) => b - a);
  return years[Math.floor(years.length / 100)] ?? 0;
}

/**
 * How long its expression is, read from where its description sits (meta comes last): a package
 * of a few dozen lines is a plain build of a small project; the tools everybody uses carry options,
 * patches and outputs. Below 50 lines, down to 0.8 at 25. Only files of one package say this.
 * A set's member gains as much per doubling above 50, up to 1.4 at 200: its set's members share one
 * builder, so length compares like with like, and the libraries a language's users reach for (psycopg,
 * beautifulsoup4, scikit-image) carry optional dependencies and test exclusions a small one has not. A
 * top-level package's length says more of its build system (a Rust tool's is short) than of its standing.
 */
function expressionFactor(position: string, inSet: boolean): number {
  const [file, line] = position.split(":");
  if (!file || !/(^|\/)(package|default)\.nix$/.test(file) || !(Number(line) > 0)) return 1;
  return Math.min(inSet ? 1.4 : 1, Math.max(0.8, 1 + 0.2 * Math.log2(Number(line) / 50)));
}
