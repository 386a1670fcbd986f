// Turns catalog entries into the binary index: per-package columns, attribute paths, details
// (description, homepage…) read from disk only for the results shown, and term dictionaries: whole names, name words,
// description stems, reversed name words for suffix matches ("grep" → ripgrep), what other packages say of a
// package, and the languages a tool says it is for.
import { mkdirSync } from "node:fs";
import { replaceFile } from "../../files/planted-safe-write.js";
import { dirname } from "node:path";
import type { CatalogEntry } from "./catalog.js";
import { dictionarySections, encodeDictionary, Dictionary } from "./dictionary.js";
import { encodeIndexFile, type Section } from "./file.js";
import { COMMON_ATTRS } from "../tools/common-tools.js";
import { KNOWN_MAIN_PROGRAMS, KNOWN_OTHER_PROGRAMS } from "./programs.js";
import { categoryTerms } from "./category.js";
import { findMentions } from "./mentions.js";
import { catalogYear, establishment, mentionFactor } from "./prominence.js";
import { compareVersions, familyFactor, familyOf, plainPname, setVersion, splitAttr } from "./package-sets.js";
import { groupByKeys } from "./groups.js";
import { descriptionTerms, nameWords, normalizeName, squashName, textWords } from "../search/text.js";
import { implementationLanguages, languageFamily, termsNameLanguage, toolLanguages } from "../search/tool-languages.js";

/** Bits of the flags column; indexes already cached keep these values (8 is no longer written). */
export const FLAG = { broken: 1, unfree: 2, insecure: 4, common: 16, libraryName: 32, buildOfTopLevel: 64, headers: 128 } as const;

/** Fields of a package's details, in the order they are stored (the attribute path is kept apart). */
export const DETAIL_FIELDS = ["pname", "version", "description", "homepage", "license", "mainProgram"] as const;

/**
 * A set's member that is a top-level package's build: it has the expression of a top-level package it is grouped
 * with, and that expression is the package's own, not among a set's (pkgs/development/python-modules,
 * haskell-modules, top-level/perl-packages.nix…). python312Packages.rpm is rpm, built with its Python bindings;
 * haskellPackages.hlint is Haskell's own, which top-level hlint exposes.
 */
function isBuildOfTopLevel(entry: CatalogEntry, topLevelPositions: ReadonlySet<string>): boolean {
  return (
    entry.attr.includes(".") && topLevelPositions.has(entry.position) && !/-modules\/|\/node-packages\/|\/top-level\//.test(entry.position)
  );
}

export function buildIndex(input: CatalogEntry[], source: string): Buffer {
  // The channel's metadata has no mainProgram: programs.ts knows the well-known ones.
  const entries = input
    .map((entry) => {
      const known = knownPrograms(KNOWN_MAIN_PROGRAMS, entry);
      return entry.mainProgram || !known ? entry : { ...entry, mainProgram: known };
    })
    .sort((a, b) => (a.attr < b.attr ? -1 : a.attr > b.attr ? 1 : 0));
  const n = entries.length;
  const flags = new Uint8Array(n);
  const platformSet = new Uint16Array(n);
  const family = new Uint16Array(n);
  const factor = new Float32Array(n);
  const nameLength = new Uint8Array(n);
  const groupRep = new Uint32Array(n);
  const groupNext = new Uint32Array(n);
  const attrOffsets = new Uint32Array(n + 1);
  const attrs: Buffer[] = [];
  const detailOffsets = new Uint32Array(n + 1);
  const details: Buffer[] = [];

  const platforms = new Map<string, number>();
  const platformSets = new Map<string, number>([["*", 0]]);
  const families = new Map<string, number>();
  const groupKeys: string[][] = [];
  const exact = new Map<string, number[]>();
  const names = new Map<string, number[]>();
  const descriptions = new Map<string, number[]>();
  const toolLanguage = new Map<string, number[]>();
  const madeIn = new Map<string, number[]>();
  const post = (dictionary: Map<string, number[]>, term: string, id: number) => {
    const list = dictionary.get(term);
    if (!list) dictionary.set(term, [id]);
    else if (list[list.length - 1] !== id) list.push(id);
  };

  // Established packages come in several versions at top level (postgresql_13…17, openjdk17/21).
  const variants = new Map<string, number>();
  for (const entry of entries) if (!entry.attr.includes(".")) variants.set(entry.pname, (variants.get(entry.pname) ?? 0) + 1);

  // The newest set of each family (python313Packages over python312Packages) wins ties.
  const newestSet = new Map<string, number[]>();
  for (const { attr } of entries) {
    const { set } = splitAttr(attr);
    const best = newestSet.get(familyOf(set));
    if (!best || compareVersions(setVersion(set), best) > 0) newestSet.set(familyOf(set), setVersion(set));
  }

  const year = catalogYear(entries.map((entry) => entry.version));
  const releases = new Set(entries.flatMap((entry) => (entry.attr.includes(".") ? [] : [releaseKey(entry, entry.attr)])));

  let attrBytes = 0;
  let detailBytes = 0;
  entries.forEach((entry, id) => {
    const { set, leaf } = splitAttr(entry.attr);
    const familyName = familyOf(set);
    if (!families.has(familyName)) families.set(familyName, families.size);
    family[id] = families.get(familyName)!;
    flags[id] =
      (entry.broken ? FLAG.broken : 0) |
      (entry.unfree ? FLAG.unfree : 0) |
      (entry.insecure ? FLAG.insecure : 0) |
      (COMMON_ATTRS.has(entry.attr) ? FLAG.common : 0) |
      (familyName === "" && /^lib[a-z]/.test(leaf) ? FLAG.libraryName : 0) |
      (familyName === "" && entry.hasHeaders ? FLAG.headers : 0);
    const newest = compareVersions(setVersion(set), newestSet.get(familyName)!) === 0;
    factor[id] = familyFactor(familyName) * establishment(entry, variants.get(entry.pname) ?? 1, year) * (newest ? 1.02 : 1);
    nameLength[id] = Math.min(255, squashName(leaf).length);
    platformSet[id] = platformSetId(entry.platforms, platforms, platformSets);

    // A library in each version of its set is one result, whatever each version's description says; so is a
    // package kept in several versions or builds, at top level or in a set, or in both (crystal, crystal_1_14;
    // imagemagick, imagemagickBig; haskell.compiler's ghc96, ghc98; python313Packages.torch-bin, torchWithVulkan;
    // yt-dlp, python312Packages.yt-dlp; nodejs_24 and nodePackages.nodejs, the channel's name for nodejs_22): the same
    // pname and description. So is a top-level build of one release under a longer name (neovim-unwrapped,
    // emacs-nox, kubernetes-helm-wrapped, whose pname is helm): the same description and version.
    groupKeys[id] = [
      `${familyName}\0${leaf}`,
      ...(entry.description ? [`\0${plainPname(entry.pname)}\0${entry.description}`] : []),
      ...(familyName === "" ? releaseKeys(entry, leaf, releases) : []),
    ];

    const pname = plainPname(entry.pname);
    // Nested attribute paths are found through their leaf (index.lookup checks the whole path).
    const programs = knownPrograms(KNOWN_OTHER_PROGRAMS, entry) ?? [];
    for (const name of [leaf, pname, entry.mainProgram, ...programs]) {
      if (!name) continue;
      post(exact, normalizeName(name), id);
      post(exact, squashName(name), id);
    }
    const described = new Set(descriptionTerms(entry.description));
    for (const name of [leaf, pname, entry.mainProgram]) {
      if (!name) continue;
      post(names, squashName(name), id);
      // Phrases in names too: typescript-language-server is found by "lsp", as its description would be.
      const parts = nameWords(name);
      const words = [...parts, ...textWords(parts.join(" "))];
      const noise = lettersBesideDigits(name);
      const madeIn = familyName === "" && parts.length > 1 ? madeInParts(words, described) : undefined;
      for (const word of words) if (!noise.has(word) && !madeIn?.has(word)) post(names, word, id);
    }
    // Its other programs each as one word of its names, unsplit: "uuid" starts uuidgen (util-linux), "pdf" pdfinfo
    // (poppler-utils), but pg_dump's "dump" is no name of postgresql.
    for (const program of programs) post(names, squashName(program), id);
    // Python libraries glue "py" to what they are about: pyyaml is a yaml library, pytest a test one.
    if (familyName === "pythonPackages" && /^py[a-z]{3,}/i.test(leaf)) post(names, squashName(leaf.slice(2)), id);
    for (const term of described) post(descriptions, term, id);
    for (const language of toolLanguages(entry.description)) post(toolLanguage, language, id);
    for (const language of implementationLanguages(entry.description)) post(madeIn, language, id);

    const attr = Buffer.from(entry.attr);
    attrs.push(attr);
    attrOffsets[id + 1] = attrBytes += attr.length;
    const detail = Buffer.from(DETAIL_FIELDS.map((field) => entry[field].replaceAll("\0", "")).join("\0"));
    details.push(detail);
    detailOffsets[id + 1] = detailBytes += detail.length;
  });

  // Other packages name the ones everybody knows ("a Git client", "ffmpeg bindings", "coc-eslint"),
  // and what they say of it is searched too, below its own description, as is the folder nixpkgs
  // files it in (pkgs/tools/security/pass).
  const mentions = findMentions(entries);
  const context = new Map<string, number[]>();
  entries.forEach((_, id) => {
    factor[id] = factor[id]! * mentionFactor(mentions.count[id]!);
    for (const term of mentions.context[id]!) post(context, term, id);
    for (const term of categoryTerms(entries[id]!)) post(context, term, id);
  });

  for (const members of groupByKeys(n, (id) => groupKeys[id]!)) {
    const attrOf = (id: number) => entries[id]!.attr;
    // A top-level package stands for the group (yt-dlp over python312Packages.yt-dlp), then the newest set's
    // member (python313Packages over python312Packages), then one named
    // after the package (python312 over jupyter, a Python environment), the default (crystal over crystal_1_14),
    // a release (python312 over python314's release candidate), the newest (dune_3 over dune_1).
    const rep = members.reduce((best, id) => {
      const order =
        Number(!attrOf(id).includes(".")) - Number(!attrOf(best).includes(".")) ||
        compareVersions(setVersion(splitAttr(attrOf(id)).set), setVersion(splitAttr(attrOf(best)).set)) ||
        extendsName(attrOf(best), attrOf(id)) ||
        namedAfterPackage(entries[id]!) - namedAfterPackage(entries[best]!) ||
        attrOf(best).length - attrOf(id).length ||
        Number(isRelease(entries[id]!.version)) - Number(isRelease(entries[best]!.version)) ||
        compareVersions(setVersion(entries[id]!.version), setVersion(entries[best]!.version));
      return order > 0 ? id : best;
    });
    members.forEach((id, i) => {
      groupRep[id] = rep;
      groupNext[id] = members[(i + 1) % members.length]!;
    });
    const topLevelPositions = new Set(members.filter((id) => !attrOf(id).includes(".")).map((id) => entries[id]!.position));
    topLevelPositions.delete("");
    for (const id of members) if (isBuildOfTopLevel(entries[id]!, topLevelPositions)) flags[id] = flags[id]! | FLAG.buildOfTopLevel;
  }

  exact.delete("");
  names.delete("");
  const nameDictionary = encodeDictionary(names);
  const nameReader = new Dictionary(nameDictionary);
  const reversed = new Map<string, number[]>();
  for (const word of names.keys()) {
    if (word.length >= 4) reversed.set([...word].reverse().join(""), [nameReader.find(word)]);
  }

  const sections: Record<string, Section> = {
    attrs: Buffer.concat(attrs),
    attrOffsets,
    detailOffsets,
    flags,
    platformSet,
    family,
    factor,
    nameLength,
    groupRep,
    groupNext,
    ...dictionarySections("exact", encodeDictionary(exact)),
    ...dictionarySections("name", nameDictionary),
    ...dictionarySections("nameReversed", encodeDictionary(reversed)),
    ...dictionarySections("description", encodeDictionary(descriptions)),
    ...dictionarySections("context", encodeDictionary(context)),
    ...dictionarySections("toolLanguage", encodeDictionary(toolLanguage)),
    ...dictionarySections("madeIn", encodeDictionary(madeIn)),
    // Last: the reader leaves it on disk.
    details: Buffer.concat(details),
  };
  return encodeIndexFile(
    {
      packageCount: n,
      source,
      builtAt: new Date().toISOString(),
      platforms: [...platforms.keys()],
      platformSets: [...platformSets.keys()].map((key) => (key === "*" ? [] : key.split(",").map(Number))),
      families: [...families.keys()],
    },
    sections,
  );
}

/** One release of a top-level package under one name. */
const releaseKey = (entry: CatalogEntry, leaf: string) => `${entry.version}\0${entry.description}\0${leaf}`;

/**
 * A top-level package's release under its own name and, where there is one, under the shorter name it
 * extends (neovim for neovim-unwrapped, kubernetes-helm for kubernetes-helm-wrapped). Two packages that
 * only share a description and version stay apart: gcc and gfortran, dotnet-runtime and dotnet-aspnetcore.
 */
function releaseKeys(entry: CatalogEntry, leaf: string, releases: ReadonlySet<string>): string[] {
  if (!entry.description) return [];
  const shorter = [...leaf.matchAll(/[-_]/g)].map((separator) => releaseKey(entry, leaf.slice(0, separator.index)));
  return [releaseKey(entry, leaf), ...shorter.filter((key) => releases.has(key))];
}

/** 1 when a's name is b's extended (neovim-unwrapped of neovim), -1 the other way round, else 0. */
function extendsName(a: string, b: string): number {
  if (a.length > b.length + 1 && /[-_]/.test(a[b.length]!) && a.startsWith(b)) return 1;
  if (b.length > a.length + 1 && /[-_]/.test(b[a.length]!) && b.startsWith(a)) return -1;
  return 0;
}

/** 2 when the attribute is the package's name, 1 when it starts with it (crystal_1_14, python312 for python3), else 0. */
function namedAfterPackage(entry: CatalogEntry): number {
  const leaf = splitAttr(entry.attr).leaf.toLowerCase();
  const pname = plainPname(entry.pname).toLowerCase();
  return leaf === pname ? 2 : leaf.startsWith(pname) ? 1 : 0;
}

/** Not a pre-release ("3.14.0rc3", "2.0-beta1") or a snapshot. */
function isRelease(version: string): boolean {
  return !/(rc|alpha|beta|pre|dev)[0-9.-]*$|unstable/i.test(version);
}

/**
 * Sets whose member named after a language is its compiler or runtime (haskell.compiler.ghc98 is ghc,
 * beam28Packages.erlang erlang), where the channel has none at top level; in other sets a tool's name is often a
 * library's (python313Packages.redis installs no redis-cli).
 */
const TOOLCHAIN_SETS = /^(haskell\.compiler|beam\d*Packages)$/;

/** What a table of programs says of a package: by attribute, or by pname at top level and in a set of toolchains. */
function knownPrograms<T>(table: ReadonlyMap<string, T>, entry: CatalogEntry): T | undefined {
  const byPname = !entry.attr.includes(".") || TOOLCHAIN_SETS.test(splitAttr(entry.attr).set);
  return table.get(entry.attr) ?? (byPname ? table.get(plainPname(entry.pname)) : undefined);
}

function platformSetId(list: string[] | null, platforms: Map<string, number>, sets: Map<string, number>): number {
  if (list === null) return 0;
  const ids = list.map((platform) => {
    if (!platforms.has(platform)) platforms.set(platform, platforms.size);
    return platforms.get(platform)!;
  });
  const key = [...new Set(ids)].sort((a, b) => a - b).join(",");
  if (!sets.has(key)) {
    if (sets.size >= 0xffff) throw new Error("more than 65535 distinct platform lists");
    sets.set(key, sets.size);
  }
  return sets.get(key)!;
}

/** Writes the index atomically: readers never see a half-written file. */
export function writeIndex(path: string, bytes: Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  replaceFile(path, bytes);
}

/** Single letters a name runs into digits ("c64-debugger", "k9s", "x264"): no word of it, as "c" or "r" would be. */
function lettersBesideDigits(name: string): Set<string> {
  const parts = name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((part) => /[0-9]/.test(part));
  return new Set(parts.flatMap((part) => part.match(/[a-z]+/g) ?? []).filter((letters) => letters.length === 1));
}

/**
 * The parts of a top-level package's longer name that name a language its description does not say (outside a clause
 * saying what it is written in): what it is made in, not what it is for. yq-go is no Go tool, nor is go-task ("… written
 * in Go") more than any task runner; tree-sitter-go ("Go grammar for tree-sitter") is Go's. Its whole name still finds it.
 */
function madeInParts(words: readonly string[], described: ReadonlySet<string>): ReadonlySet<string> {
  return new Set(
    words.filter((word) => {
      const family = languageFamily(word);
      return family !== undefined && !termsNameLanguage(described, family);
    }),
  );
}
