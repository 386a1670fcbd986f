// What an attribute path says about its package set: python312Packages.requests and
// python313Packages.requests are one library in two versions of one family ("pythonPackages"),
// and the family tells how likely an agent means it when it does not name the ecosystem.

export interface AttrParts {
  /** Everything before the last dot ("" for top-level attributes). */
  set: string;
  /** The last component. */
  leaf: string;
}

/**
 * pname without the interpreter prefix nixpkgs adds to library packages ("python3.13-requests",
 * "ocaml4.14.2-ocamlformat", "php-ast"). It carries a version: lua-language-server is no Lua library.
 */
export function plainPname(pname: string): string {
  return pname.replace(/^(?:(?:python|perl|ruby|lua|luajit|ocaml|coq)[0-9][0-9.]*|php)-/, "");
}

/** An attribute path as agents also write it, as an installable: "nixpkgs#jq", "pkgs.jq", "nixpkgs.legacyPackages.x86_64-linux.jq". */
export function withoutInstallable(text: string): string {
  return text.trim().replace(/^(nixpkgs#|nixpkgs\.|pkgs\.)(legacyPackages\.[\w-]+\.)?/, "");
}

export function splitAttr(attr: string): AttrParts {
  const dot = attr.lastIndexOf(".");
  return dot < 0 ? { set: "", leaf: attr } : { set: attr.slice(0, dot), leaf: attr.slice(dot + 1) };
}

/**
 * The set with its version numbers removed: python313Packages → pythonPackages, rubyPackages_3_4 → rubyPackages,
 * nodePackages_latest → nodePackages (the same packages at newer versions, shown beside the default set's).
 */
export function familyOf(set: string): string {
  return set.replace(/_latest$/, "").replace(/_?[0-9]+(_[0-9]+)*/g, "");
}

/** How nixpkgs names the set of a language's or a tool's add-ons: elmPackages, tmuxPlugins, mpvScripts. */
export const SET_SUFFIXES = ["Packages", "Plugins", "Extensions", "Scripts"];
const SET_SUFFIX = new RegExp(`(${SET_SUFFIXES.join("|")}).*$`);

/** What a family's set is named for, lower-cased: "python" of pythonPackages, "postgresql" of postgresqlPackages; none for haskell.compiler. */
export function setNamedFor(family: string): string | undefined {
  const name = family.replace(SET_SUFFIX, "");
  return name === family ? undefined : name.toLowerCase();
}

/** The version numbers in a set's name, for preferring the newest: python313Packages → [313]. */
export function setVersion(set: string): number[] {
  return (set.match(/[0-9]+/g) ?? []).map(Number);
}

export function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const diff = (a[i] ?? -1) - (b[i] ?? -1);
    if (diff !== 0) return diff;
  }
  return 0;
}

/** Query words that name an ecosystem, and the families they point at. */
export const ECOSYSTEM_WORDS: Record<string, string[]> = {
  python: ["pythonPackages"],
  py: ["pythonPackages"],
  pip: ["pythonPackages"],
  haskell: ["haskellPackages", "haskell.compiler"],
  hackage: ["haskellPackages"],
  emacs: ["emacsPackages"],
  vim: ["vimPlugins", "vimPlugins.nvim-treesitter-parsers"],
  neovim: ["vimPlugins", "vimPlugins.nvim-treesitter-parsers"],
  nvim: ["vimPlugins", "vimPlugins.nvim-treesitter-parsers"],
  perl: ["perlPackages"],
  ruby: ["rubyPackages"],
  gem: ["rubyPackages"],
  lua: ["luaPackages", "luajitPackages"],
  ocaml: ["ocamlPackages"],
  r: ["rPackages"],
  cran: ["rPackages"],
  node: ["nodePackages", "nodePackages_latest"],
  npm: ["nodePackages", "nodePackages_latest"],
  tex: ["texlivePackages"],
  latex: ["texlivePackages"],
  typst: ["typstPackages"],
  lisp: ["sbclPackages"],
  php: ["phpExtensions", "phpPackages"],
  gnome: ["gnomeExtensions"],
  kde: ["kdePackages"],
  postgres: ["postgresqlPackages"],
  postgresql: ["postgresqlPackages"],
};

/** Ecosystems that are as often a subject of another's packages ("python library for postgres", "python latex parser") as where to look. */
export const SUBJECT_ECOSYSTEM_WORDS: ReadonlySet<string> = new Set(["postgres", "postgresql", "tex", "latex", "typst", "gnome", "kde"]);
/** Of those, the document languages, whose packages go inside a document rather than work on one. */
export const DOCUMENT_ECOSYSTEM_WORDS: ReadonlySet<string> = new Set(["tex", "latex", "typst"]);

/** Families an agent rarely means unless it names them; their members rank below everything else. */
const NICHE_FAMILIES = new Set([
  "rPackages",
  "haskellPackages",
  "emacsPackages",
  "sbclPackages",
  "texlivePackages",
  "typstPackages",
  "vimPlugins",
  "vimPlugins.nvim-treesitter-parsers",
  "home-assistant-component-tests",
  "chickenPackages.chickenEggs",
  "akkuPackages",
  "gnomeExtensions",
  "nltk-data",
  "terraform-providers",
  "azure-cli-extensions",
  "phpExtensions",
]);

/** Families of families: kernels, Android SDK parts and editor extensions, one family per publisher. */
const NICHE_PREFIXES = ["linuxKernel", "androidenv", "vscode-extensions"];

/** Whether agents rarely mean this family's members unless they name it. */
export function isNicheFamily(family: string): boolean {
  return NICHE_FAMILIES.has(family) || NICHE_PREFIXES.some((prefix) => family.startsWith(prefix));
}

/** How likely an agent means a member of this family when it does not name it: a score factor. */
export function familyFactor(family: string): number {
  if (family === "") return 1;
  if (isNicheFamily(family)) return 0.3;
  // Python's set holds many command-line tools (mitmproxy, ocrmypdf, pgcli); Perl's is modules for Perl programs,
  // which a task's words often match ("Look up location … by IP Address"). Of the dev and h16 queries' answers 4
  // are Perl modules, all asked for with Perl named, where this factor does not count; of the wrong places in
  // their top 5s, Perl modules held 144 at 0.7 and 43 at 0.35.
  if (family === "pythonPackages") return 0.7;
  if (family === "perlPackages") return 0.35;
  return 0.5;
}
