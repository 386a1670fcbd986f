import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseCatalog } from "../../src/nixpkgs/index/catalog.js";
import { NixpkgsError } from "../../src/nixpkgs/errors.js";
import { buildIndex, writeIndex } from "../../src/nixpkgs/index/build.js";
import { NixpkgsIndex } from "../../src/nixpkgs/index/index.js";
import { plainPname, setNamedFor } from "../../src/nixpkgs/index/package-sets.js";
import { kindNames } from "../../src/nixpkgs/search/kind-names.js";
import { answerSearch, nothingFound } from "../../src/nixpkgs/search/nothing-found.js";
import { searchIndex } from "../../src/nixpkgs/search/search.js";
import { CHANNEL_CATALOG, NIX_ENV_CATALOG } from "./catalog-fixture.js";

let index: NixpkgsIndex;
const attrs = (query: string, options = {}) => searchIndex(index, query, { platform: "x86_64-linux", ...options }).map((r) => r.attr);

beforeAll(() => {
  const path = join(mkdtempSync(join(tmpdir(), "nixshed-search-")), "index");
  writeIndex(path, buildIndex(parseCatalog(JSON.stringify(NIX_ENV_CATALOG), "fixture"), "fixture"));
  index = NixpkgsIndex.load(path);
});

describe("catalog parsing", () => {
  it("reads nix-env output with licenses, unfree and mainProgram", () => {
    const entries = parseCatalog(JSON.stringify(NIX_ENV_CATALOG), "fixture");
    const ripgrep = entries.find((e) => e.attr === "ripgrep")!;
    expect(ripgrep).toMatchObject({ license: "Unlicense, MIT", mainProgram: "rg", unfree: false, maintainers: 2 });
    expect(entries.find((e) => e.attr === "proprietary-grep")!.unfree).toBe(true);
  });

  it("reads which outputs a package has: man pages, and headers to build against (a library's)", () => {
    const split = { curl: { name: "curl-8.15.0", version: "8.15.0", outputs: { bin: null, dev: null, man: null, out: null }, meta: {} } };
    expect(parseCatalog(JSON.stringify(split), "split")[0]).toMatchObject({ hasManPages: true, hasHeaders: true });
    const whole = { jq: { name: "jq-1.8.1", version: "1.8.1", outputs: { out: null }, meta: {} } };
    expect(parseCatalog(JSON.stringify(whole), "whole")[0]).toMatchObject({ hasManPages: false, hasHeaders: false });
  });

  it("reads the channel's wrapped packages.json", () => {
    const entries = parseCatalog(JSON.stringify(CHANNEL_CATALOG), "channel");
    expect(entries.map((e) => e.attr).sort()).toEqual(["perl540Packages.Foo", "ripgrep"]);
  });

  it("reads a package whose fields have the wrong types as if they were absent, never taking them as text", () => {
    const forged = {
      odd: {
        name: 7,
        version: "1.0",
        pname: ["x"],
        outputs: "man",
        meta: { license: [{ spdxId: 5, shortName: "MIT" }], mainProgram: {}, description: 3 },
      },
    };
    expect(parseCatalog(JSON.stringify(forged), "forged")).toEqual([
      expect.objectContaining({
        attr: "odd",
        pname: "odd",
        version: "1.0",
        license: "MIT",
        mainProgram: "",
        description: "",
        hasManPages: false,
        hasHeaders: false,
        position: "",
      }),
    ]);
  });

  it("rejects what is not a catalog", () => {
    expect(() => parseCatalog("[1,", "bad")).toThrow(/not JSON/);
    expect(() => parseCatalog("garbage\nmore\nlines", "bad")).toThrow(/^bad: not JSON: [^\n]*$/);
    expect(() => parseCatalog("{}", "empty")).toThrow(/no packages/);
  });
});

describe("ranked search", () => {
  it("finds a package by its main program before a same-named library", () => {
    expect(attrs("rg")[0]).toBe("ripgrep");
  });

  it("finds a package set member by its bare name, once, newest set first", () => {
    const results = searchIndex(index, "requests", { platform: "any" });
    expect(results[0]!.attr).toBe("python313Packages.requests");
    expect(results[0]!.alsoIn).toEqual(["python312Packages.requests"]);
    expect(results.filter((r) => r.attr.endsWith(".requests"))).toHaveLength(1);
  });

  it("resolves an attribute path through a set alias, a set named as a word, and installable syntax", () => {
    expect(attrs("python3Packages.requests")[0]).toBe("python313Packages.requests");
    expect(attrs("python3Packages requests")[0]).toBe("python313Packages.requests");
    expect(attrs("nixpkgs#ripgrep")[0]).toBe("ripgrep");
    expect(attrs("pkgs.jq")[0]).toBe("jq");
  });

  it("matches descriptions through stemming", () => {
    expect(attrs("resize images")).toContain("imagemagick");
    expect(attrs("json processors")[0]).toBe("jq");
  });

  it("reads an ecosystem word as the ecosystem: its packages match it, a same-named package elsewhere is no whole-name hit", () => {
    expect(attrs("python formatter")[0]).toBe("python313Packages.black");
    expect(attrs("formatter")[0]).toBe("formatter");
  });

  it("finds the package an ecosystem word names, not only the set's members: 'postgresql client' is postgresql", () => {
    expect(attrs("postgresql client")).toContain("postgresql");
  });

  it("meets a phrase and its short form: 'lsp' finds a language server", () => {
    expect(attrs("lsp").slice(0, 2)).toContain("ferris-ls");
    expect(attrs("rust lsp")[0]).toBe("ferris-ls");
    expect(attrs("rust language server")[0]).toBe("ferris-ls");
  });

  it("reads a question of how many as asking for a count: 'how many lines of code per language' is a code counter", () => {
    const small = smallIndex([
      ["tokei", "Count your code, quickly"],
      ["kotlin", "General purpose programming language"],
      ["nim", "Statically typed programming language"],
      ["qrcodegen", "QR Code generator library in many languages"],
      ...WIDGETS,
    ]);
    expect(ranked(small, "how many lines of code per language are in this repo")[0]).toBe("tokei");
  });

  it("meets a phrase however it is spelt: 'regex' is a regular expression, 'orm' an object-relational mapper, C++17 C++", () => {
    const small = smallIndex([
      ["re2", "Regular expression library"],
      ["sqlalchemy", "Python SQL toolkit and Object Relational Mapper"],
      ["cli11", "Command line parser for C++11"],
      ["clap", "Command line parser for Rust"],
      ...WIDGETS,
    ]);
    expect(ranked(small, "regex library")).toEqual(["re2"]);
    expect(ranked(small, "orm")).toEqual(["sqlalchemy"]);
    expect(ranked(small, "c++ command line parser")[0]).toBe("cli11");
  });

  it("reads 'ports are open' as open ports, Let's Encrypt as ACME, and 'see' as a light verb", () => {
    const small = smallIndex([
      ["portscan", "Scans the ports of a host"],
      ["opener", "Open files in the right program"],
      ["see", "Open files in the terminal"],
      ["lego", "ACME client for certificates"],
      ["certtool", "Inspect certificates"],
      ...WIDGETS,
    ]);
    expect(ranked(small, "how do i see which ports are open")[0]).toBe("portscan");
    expect(ranked(small, "get lets encrypt certificates")[0]).toBe("lego");
  });

  it("reads a name with its version in a description as the name too: SSHv2 is SSH, GTK4 GTK", () => {
    const small = smallIndex([
      ["paramik", "Native SSHv2 protocol library"],
      ["netlib", "Network protocol library"],
      ["widgetkit", "GTK4 widget toolkit"],
      ["qtkit", "Qt widget toolkit"],
      ...WIDGETS,
    ]);
    expect(ranked(small, "ssh library")[0]).toBe("paramik");
    expect(ranked(small, "gtk widget toolkit")[0]).toBe("widgetkit");
  });

  it("takes a name's usual other spelling as that name (golang is go), but not a phrase's short form (version control is no vcs)", () => {
    const small = smallIndex([
      ["go", "Go Programming language"],
      ["yq-go", "Portable command-line YAML processor"],
      ["go-task", "Task runner written in Go"],
      ["vcs", "Generates contact sheets from video files"],
      ["git", "Distributed version control system"],
      ...WIDGETS,
    ]);
    expect(ranked(small, "golang")[0]).toBe("go");
    expect(ranked(small, "version control system")[0]).toBe("git");
  });

  it("takes a command another distribution renamed (batcat, fdfind) as the package named first, whose description says the rest", () => {
    const small = smallIndex([
      ["bat", "Cat(1) clone with syntax highlighting and Git integration"],
      ["fd", "Simple, fast and user-friendly alternative to find"],
      ["fatcat", "FAT filesystem explore, extract, repair, and forensic tool"],
      ["batcave", "Cave explorer"],
      ["rdfind", "Removes or hardlinks duplicate files very swiftly"],
      ...WIDGETS,
    ]);
    expect(ranked(small, "batcat")[0]).toBe("bat");
    expect(ranked(small, "fdfind")[0]).toBe("fd");
    // Only the rest its own description says: bat is no "batdog", nor a name that is one ("batcave").
    expect(ranked(small, "batdog")).not.toContain("bat");
    expect(ranked(small, "batcave")[0]).toBe("batcave");
  });

  it("takes a language's name alone as the language, not an editor's plugin or a niche set's library so named", () => {
    const small = smallIndex([
      ["rustc", "Safe, concurrent, practical language"],
      ["rPackages.rust", ""],
      ["vimPlugins.nvim-treesitter-parsers.rust", "Tree-sitter grammar for rust"],
      ["emacsPackages.use-package", "Declarative package configuration"],
      ["rpm", "RPM package manager"],
      ...WIDGETS,
    ]);
    expect(ranked(small, "rust")[0]).toBe("rustc");
    // A name that is no language's is still the niche set's member so named.
    expect(ranked(small, "use-package")[0]).toBe("emacsPackages.use-package");
  });

  it("takes '<language> <tool kind>' as asking for the tool, not a library of the language spelled so", () => {
    expect(attrs("haskell lsp")[0]).toBe("haskell-language-server");
  });

  it("takes several words that spell a nested library's name as a task, unless its ecosystem is named", () => {
    expect(attrs("command runner")[0]).toBe("task-tool");
    expect(attrs("python command runner")[0]).toBe("python313Packages.command-runner");
  });

  it("finds a package by what the packages naming it say of it", () => {
    // Only the everyday converter (imagemagick), which matches "convert" alone, may rank above it.
    expect(attrs("convert to slides").filter((attr) => attr !== "imagemagick")[0]).toBe("docconv");
  });

  it("hides broken and unfree packages unless asked", () => {
    expect(attrs("grep")).not.toContain("old-grep");
    expect(attrs("grep")).not.toContain("proprietary-grep");
    expect(attrs("grep", { includeBroken: true })).toContain("old-grep");
    expect(attrs("grep", { includeUnfree: true })).toContain("proprietary-grep");
    expect(searchIndex(index, "proprietary-grep", { includeUnfree: true })[0]!.flags).toEqual(["unfree"]);
  });

  it("filters by platform; packages without a platform list count everywhere", () => {
    expect(attrs("mac-only-tool")).not.toContain("mac-only-tool");
    expect(attrs("mac-only-tool", { platform: "aarch64-darwin" })[0]).toBe("mac-only-tool");
    expect(attrs("mac-only-tool", { platform: "any" })[0]).toBe("mac-only-tool");
    expect(attrs("jq", { platform: "aarch64-darwin" })).toContain("jq");
  });

  it("for a search that finds nothing as asked, names what it hid and the switch that shows each, else the closest names", () => {
    const asked = { platform: "x86_64-linux" };
    const firstHidden = (query: string) => (nothingFound(index, query, asked) as { hidden: string[] }).hidden[0];
    expect(firstHidden("old-grep")).toBe("old-grep (broken: pass include_broken)");
    expect(firstHidden("proprietary-grep")).toBe("proprietary-grep (unfree: pass include_unfree)");
    expect(firstHidden("mac-only-tool")).toBe('mac-only-tool (not for x86_64-linux: pass platform "any")');
    expect(nothingFound(index, "ripgrp", asked)).toMatchObject({ suggestions: expect.arrayContaining(["ripgrep"]) });
  });

  it("answers a misspelt name with the packages of the closest names, and a name that matches as it is", () => {
    const asked = { platform: "x86_64-linux" };
    const typo = answerSearch(index, "ripgrp", asked);
    expect(typo.results[0]?.attr).toBe("ripgrep");
    expect(typo.suggestions).toContain("ripgrep");
    expect(answerSearch(index, "ripgrep", asked)).toEqual({ results: searchIndex(index, "ripgrep", asked) });
  });

  it("returns every documented field", () => {
    expect(searchIndex(index, "ripgrep", { limit: 1 })[0]).toMatchObject({
      attr: "ripgrep",
      pname: "ripgrep",
      version: "14.1.1",
      homepage: "https://github.com/BurntSushi/ripgrep",
      license: "Unlicense, MIT",
      mainProgram: "rg",
      flags: [],
    });
  });

  it("caps the limit and rejects empty queries and unknown platforms", () => {
    expect(searchIndex(index, "grep", { limit: 1 })).toHaveLength(1);
    expect(() => searchIndex(index, "  ")).toThrow(NixpkgsError);
    // A query longer than a few words is refused as it came, before any of it is read (its wrapping words included).
    expect(() => searchIndex(index, "grep ".repeat(200_000))).toThrow(
      expect.objectContaining({ message: "query is 1000000 characters long", hint: expect.stringMatching(/at most 200/) }),
    );
    expect(() => searchIndex(index, `nix package to ${"grep ".repeat(38)}`)).toThrow(/query is 205 characters long/);
    expect(() => searchIndex(index, "jq", { platform: "not a platform" })).toThrow(/not a Nix system/);
    expect(attrs("jq", { platform: "riscv64-netbsd" })).toEqual(["jq"]);
  });

  it("pages: each page goes on where the last stopped, says where the next starts, and an offset past the end is refused", () => {
    const small = smallIndex(
      Array.from({ length: 25 }, (_, i) => [`widget-tool-${i}`, `Convert widget files, variant ${i}`] as [string, string]),
    );
    const whole = ranked(small, "convert widget files", 25);
    expect(whole).toHaveLength(25);
    const pages = [0, 10, 20].map((offset) => answerSearch(small, "convert widget files", { limit: 10, offset }));
    expect(pages.flatMap((page) => page.results.map((result) => result.attr))).toEqual(whole);
    expect(pages.map((page) => page.nextOffset)).toEqual([10, 20, undefined]);
    expect(() => answerSearch(small, "convert widget files", { offset: 25 })).toThrow(
      expect.objectContaining({ message: "'convert widget files' has 25 results, fewer than offset 25", hint: "Pass a smaller offset." }),
    );
  });

  it("looks attributes up exactly", () => {
    expect(index.attr(index.lookup("python313Packages.requests"))).toBe("python313Packages.requests");
    expect(index.lookup("python3Packages.requests")).toBe(-1);
  });
});

/** An index of a few packages, each a name and a description, for one ranking question. */
function smallIndex(packages: [attr: string, description: string, pname?: string, version?: string, position?: string][]): NixpkgsIndex {
  const catalog = Object.fromEntries(
    packages.map(([attr, description, pname = attr, version = "1.0", position]) => [
      attr,
      { name: `${pname}-${version}`, pname, version, meta: { description, position } },
    ]),
  );
  const path = join(mkdtempSync(join(tmpdir(), "nixshed-search-small-")), "index");
  writeIndex(path, buildIndex(parseCatalog(JSON.stringify(catalog), "fixture"), "fixture"));
  return NixpkgsIndex.load(path);
}
const ranked = (small: NixpkgsIndex, query: string, limit?: number) => searchIndex(small, query, { limit }).map((result) => result.attr);
/** Unrelated packages beside a few, so that their words are as rare as in nixpkgs. */
const WIDGETS = Array.from({ length: 200 }, (_, i): [string, string] => [`widget${i}`, `Renders widget ${i}`]);

describe("kinds of tool the stemmer keeps whole", () => {
  it("rank a formatter before one with Format in its name, and take 'formats' in a description as file formats", () => {
    const found = ranked(
      smallIndex([
        ["webmin", "Minifiers for web formats and more formats"],
        ["number-format", "Formats numbers"],
        ["codetidy", "Code formatter"],
        ["ocamlformat", "Tidies OCaml code"],
      ]),
      "formatter",
    );
    expect(found.slice(0, 2)).toEqual(["codetidy", "ocamlformat"]);
    expect(found).not.toContain("webmin");
  });

  it("take a document's style as no formatter: 'latex formatter' is tex-fmt, not a thesis style", () => {
    const found = ranked(
      smallIndex([
        ["tex-fmt", "LaTeX formatter written in Rust"],
        ["texlivePackages.tui", "Thesis style for the University of the Andes"],
        ["texlivePackages.cell", "Bibliography style for Cell"],
      ]),
      "latex formatter",
    );
    expect(found).toEqual(["tex-fmt"]);
  });
});

describe("a language's own sets", () => {
  it("of PHP extensions are the runtime's, no tool: 'php formatter' is a formatter, 'php tidy extension' the extension", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["php84Extensions.tidy", "PHP extension: tidy, formatter of PHP's HTML output", "php-tidy", "8.4.12"],
      ["pretty-php", "Opinionated PHP code formatter", "pretty-php", "0.4.95"],
    ]);
    expect(ranked(small, "php formatter")[0]).toBe("pretty-php");
    expect(ranked(small, "php tidy extension")[0]).toBe("php84Extensions.tidy");
  });

  it("of Perl are modules for Perl programs, meant for a task only with Perl named: less than another set's members", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["perl540Packages.GeoIP", "Look up the location of an IP address", "perl5.40.0-GeoIP"],
      ["rubyPackages.geoip", "Look up the location of an IP address", "ruby3.4-geoip"],
    ]);
    expect(ranked(small, "look up the location of an ip address")).toEqual(["rubyPackages.geoip", "perl540Packages.GeoIP"]);
    expect(ranked(small, "perl module to look up the location of an ip address")[0]).toBe("perl540Packages.GeoIP");
  });

  it("hold its compilers too: 'haskell compiler' is GHC (haskell.compiler.*), not a Haskell library about compiling", () => {
    const small = smallIndex([
      ["haskell.compiler.ghc98", "Glasgow Haskell Compiler", "ghc", "9.8.4"],
      ["haskellPackages.hakyll", "A static website compiler library", "hakyll"],
      ["haskellPackages.alpha", "A compiler for the Alpha language", "alpha"],
      ["haskellPackages.aeson", "Fast JSON parsing and encoding", "aeson"],
      ...WIDGETS,
    ]);
    expect(ranked(small, "haskell compiler")[0]).toBe("haskell.compiler.ghc98");
  });

  it("show one result for a family's versions of one thing (haskell.compiler's GHCs), the newest release, the rest beside it", () => {
    const small = smallIndex([
      ["haskell.compiler.ghc94", "Glasgow Haskell Compiler", "ghc", "9.4.8"],
      ["haskell.compiler.ghc98", "Glasgow Haskell Compiler", "ghc", "9.8.4"],
      ["haskell.compiler.ghc96", "Glasgow Haskell Compiler", "ghc", "9.6.7"],
      ["haskellPackages.aeson", "Fast JSON parsing and encoding", "aeson"],
      ["haskellPackages.aeson_1", "Fast JSON parsing and encoding", "aeson"],
      ...WIDGETS,
    ]);
    const [first, ...rest] = searchIndex(small, "ghc");
    expect(first).toMatchObject({ attr: "haskell.compiler.ghc98" });
    expect(first!.alsoIn.sort()).toEqual(["haskell.compiler.ghc94", "haskell.compiler.ghc96"]);
    expect(rest.map((result) => result.attr)).not.toContain("haskell.compiler.ghc94");
    // So does a set of add-ons: a library's versions are one result, the one named after it first.
    expect(searchIndex(small, "aeson").map((result) => [result.attr, result.alsoIn])).toEqual([
      ["haskellPackages.aeson", ["haskellPackages.aeson_1"]],
    ]);
  });

  it("show one result for a set's package that is also at top level as it is, the top-level one, unless its path is asked", () => {
    const small = smallIndex([
      ["yt-dlp", "Command-line tool to download videos from YouTube", "yt-dlp", "2025.9.26"],
      ["python312Packages.yt-dlp", "Command-line tool to download videos from YouTube", "yt-dlp", "2025.9.26"],
      ...WIDGETS,
    ]);
    expect(searchIndex(small, "download youtube videos").map((result) => [result.attr, result.alsoIn])).toEqual([
      ["yt-dlp", ["python312Packages.yt-dlp"]],
    ]);
    expect(ranked(small, "python312Packages.yt-dlp")[0]).toBe("python312Packages.yt-dlp");
    expect(ranked(small, "python3Packages.yt-dlp")[0]).toBe("python312Packages.yt-dlp");
  });

  it("show a set's build of another release of a top-level package as that package, and it when its release is asked", () => {
    // The channel lists nodejs_22 once, as nodePackages.nodejs.
    const node = "Event-driven I/O framework for the V8 JavaScript engine";
    const small = smallIndex([
      ["nodejs_24", node, "nodejs", "24.8.0"],
      ["nodePackages.nodejs", node, "nodejs", "22.19.0"],
      ["corepack", "Wrappers for npm, pnpm and Yarn via Node.js Corepack", "corepack", "24.8.0"],
      ...WIDGETS,
    ]);
    expect(searchIndex(small, "nodejs").map((result) => [result.attr, result.alsoIn])).toEqual([["nodejs_24", ["nodePackages.nodejs"]]]);
    expect(ranked(small, "nodejs 22")[0]).toBe("nodePackages.nodejs");
    // A release is of the name asked, not of any package whose version happens to be it: "qt 6" is no gnuplot_qt 6.0.
    const qt = smallIndex([
      ["gnuplot_qt", "Portable command-line driven graphing utility", "gnuplot", "6.0.3"],
      ["qt-frontends", "Qt frontends for command-line tools", "qt-frontends", "1.2"],
      ...WIDGETS,
    ]);
    expect(ranked(qt, "qt 6")[0]).toBe("qt-frontends");
  });

  it("take a library for command lines that says CLI for one, when a library for them is asked", () => {
    const small = smallIndex([
      ["python313Packages.cement", "CLI application framework for Python"],
      ["python313Packages.serde", "Python serialization framework"],
      ["python313Packages.httpie", "Command line HTTP client"],
      ["python313Packages.requests", "HTTP library for Python"],
      // "CLI" is as common as in nixpkgs, where it says little.
      ...Array.from({ length: 100 }, (_, i): [string, string] => [`service${i}-cli`, `CLI for service ${i}`]),
      ...WIDGETS,
    ]);
    expect(ranked(small, "python cli framework")[0]).toBe("python313Packages.cement");
    // A program is still no library asked for something else.
    expect(ranked(small, "python http client library")[0]).toBe("python313Packages.requests");
  });

  it("take a top-level library that names no language for a C or C++ one, below those that say so", () => {
    const small = smallIndex([
      ["fmt", "Small, safe and fast formatting library"],
      ["pyformat", "Formatting library for Python"],
      ["vcardcpp", "C++ library to read VCard contacts"],
      ["cppformat", "C++ formatting library for logs"],
      ...WIDGETS,
    ]);
    const found = ranked(small, "c++ formatting library");
    expect(found.slice(0, 2)).toEqual(["cppformat", "fmt"]);
    // One naming another language is for it.
    expect(found.indexOf("pyformat")).toBeGreaterThan(found.indexOf("vcardcpp"));
  });

  it("show one result for a library's builds in each version of its set, and keep libraries that only share a description apart", () => {
    const torch = "PyTorch: Tensors and Dynamic neural networks in Python with strong GPU acceleration";
    const small = smallIndex([
      ["python312Packages.torch-bin", torch, "python3.12-torch", "2.8.0"],
      ["python313Packages.torch-bin", torch, "python3.13-torch", "2.8.0"],
      ["python313Packages.torchWithVulkan", torch, "python3.13-torch", "2.8.0"],
      [
        "python313Packages.pytorch-lightning",
        "Lightweight PyTorch wrapper for machine learning researchers",
        "python3.13-pytorch-lightning",
      ],
      ["python313Packages.gi-bindings", "Python bindings", "python3.13-gi-bindings"],
      ["python313Packages.cairo-bindings", "Python bindings", "python3.13-cairo-bindings"],
      ...WIDGETS,
    ]);
    const found = searchIndex(small, "pytorch").find((result) => result.attr.includes("torch-bin"));
    expect(found?.alsoIn.sort()).toEqual(["python312Packages.torch-bin", "python313Packages.torchWithVulkan"]);
    expect(ranked(small, "python bindings").sort()).toEqual(["python313Packages.cairo-bindings", "python313Packages.gi-bindings"]);
  });

  it("keep one leaf of a versioned family one result, though its versions describe it otherwise", () => {
    const small = smallIndex([
      ["chickenPackages_4.chickenEggs.base64", "Base64 encoding", "base64", "3.3.1"],
      ["chickenPackages_5.chickenEggs.base64", "Encoding and decoding of base64", "base64", "1.0"],
      ...WIDGETS,
    ]);
    expect(ranked(small, "base64")).toEqual(["chickenPackages_5.chickenEggs.base64"]);
  });
});

describe("nouns the stemmer keeps whole", () => {
  it("keep a container apart from what is self-contained, and Docker from a dock", () => {
    const small = smallIndex([
      ["selfdb", "Self-contained database engine"],
      ["podman", "Manages containers and images"],
      ["plank", "Dock for the desktop"],
      ["dockerd", "Docker daemon"],
    ]);
    expect(ranked(small, "containers")[0]).toBe("podman");
    expect(ranked(small, "containers")).not.toContain("selfdb");
    expect(ranked(small, "docker")[0]).toBe("dockerd");
    expect(ranked(small, "docker")).not.toContain("plank");
  });
});

describe("what a package is made of", () => {
  it("is not what it is for: 'rust lsp' is the language server for Rust, not one written in Rust", () => {
    const small = smallIndex([
      ["mdls", "Markdown language server written in Rust"],
      ["tomlls", "TOML language server made in Rust"],
      ["analyzer", "Language server for the Rust language"],
    ]);
    expect(ranked(small, "rust lsp")[0]).toBe("analyzer");
  });

  it("is not what it is for however the language is qualified: a viewer 'written in portable C' is no C viewer", () => {
    const small = smallIndex([
      ["docview", "Document viewer written in portable C"],
      ["graphview", "Viewer of call graphs of C programs"],
      ...WIDGETS,
    ]);
    expect(ranked(small, "c viewer")).toEqual(["graphview", "docview"]);
  });

  it("is what a query asks for by it: 'terminal emulator written in rust' is an emulator made in Rust, not a viewer 'written with Rust'", () => {
    const small = smallIndex([
      ["imgview", "Image viewer written with GTK4 and Rust"],
      ["termemu", "Terminal emulator and multiplexer implemented in Rust"],
      ["vterm", "Terminal emulator widget for GTK"],
      ["goterm", "Terminal emulator written in Go"],
      ["rustlint", "Linter for Rust code"],
      ...WIDGETS,
    ]);
    expect(ranked(small, "terminal emulator written in rust")[0]).toBe("termemu");
    expect(ranked(small, "rust-based terminal emulator")[0]).toBe("termemu");
    // Made in another language is less likely meant than saying nothing of it.
    expect(ranked(small, "terminal emulator written in rust").indexOf("goterm")).toBeGreaterThan(
      ranked(small, "terminal emulator written in rust").indexOf("vterm"),
    );
  });
});

describe("several versions of one package", () => {
  it("are one result, the default or else the newest, with the others beside it; each is still found by its name", () => {
    const small = smallIndex([
      ["crystal", "Compiled language with Ruby like syntax", "crystal", "1.17.1"],
      ["crystal_1_14", "Compiled language with Ruby like syntax", "crystal", "1.14.1"],
      ["dune_1", "Composable build system", "dune", "1.11.4"],
      ["dune_3", "Composable build system", "dune", "3.20.2"],
      ["rubocop", "Ruby linter"],
    ]);
    const found = (query: string) => searchIndex(small, query).map((result) => [result.attr, result.alsoIn]);
    expect(found("ruby")).toEqual([
      ["crystal", ["crystal_1_14"]],
      ["rubocop", []],
    ]);
    expect(found("build system")).toEqual([["dune_3", ["dune_1"]]]);
    expect(found("crystal_1_14")[0]![0]).toBe("crystal_1_14");
    // A version asked for in words shows that version.
    expect(found("crystal 1.14")[0]![0]).toBe("crystal_1_14");
    expect(found("dune 1")[0]).toEqual(["dune_1", ["dune_3"]]);
  });

  it("show the one named after the package, unless another member matched far better", () => {
    const python = "High-level dynamically-typed programming language";
    const small = smallIndex([
      ["python312", python, "python3", "3.12.11"],
      ["python314", python, "python3", "3.14.0rc3"],
      ["jupyter", python, "python3", "3.13.7-env"],
    ]);
    const found = (query: string) => searchIndex(small, query).map((result) => [result.attr, [...result.alsoIn].sort()]);
    expect(found("python3")).toEqual([["python312", ["jupyter", "python314"]]]);
    expect(found("jupyter notebook")).toEqual([["jupyter", ["python312", "python314"]]]);
  });

  it("are one result when they are builds of one release under other names: neovim-unwrapped, emacs-nox, kubernetes-helm-wrapped", () => {
    const vim = "Vim text editor fork focused on extensibility and agility";
    const helm = "Package manager for kubernetes";
    const small = smallIndex([
      ["neovim", vim, "neovim", "0.11.4"],
      ["neovim-unwrapped", vim, "neovim-unwrapped", "0.11.4"],
      ["kubernetes-helm", helm, "kubernetes-helm", "3.19.0"],
      ["kubernetes-helm-wrapped", helm, "helm", "3.19.0"],
      // The same words of another release, or in a package set, are not enough: "Initial project template from stack".
      ["vim-classic", vim, "vim-classic", "0.9.0"],
      ["haskellPackages.neovim-plugin", vim, "neovim-plugin", "0.11.4"],
    ]);
    const found = (query: string) => searchIndex(small, query).map((result) => [result.attr, [...result.alsoIn].sort()]);
    expect(found("text editor").sort()).toEqual([
      ["haskellPackages.neovim-plugin", []],
      ["neovim", ["neovim-unwrapped"]],
      ["vim-classic", []],
    ]);
    expect(found("kubernetes package manager")).toEqual([["kubernetes-helm", ["kubernetes-helm-wrapped"]]]);
  });

  it("show the build under the shorter name, whatever its pname, and keep other packages of one release apart", () => {
    const gcc = "GNU Compiler Collection, version 14.3.0";
    const small = smallIndex([
      ["mpv", "General-purpose media player", "mpv-with-scripts", "0.40.0"],
      ["mpv-unwrapped", "General-purpose media player", "mpv", "0.40.0"],
      ["gcc", gcc, "gcc", "14.3.0"],
      ["gfortran", gcc, "gfortran", "14.3.0"],
    ]);
    const found = (query: string) => searchIndex(small, query).map((result) => [result.attr, [...result.alsoIn].sort()]);
    expect(found("media player")).toEqual([["mpv", ["mpv-unwrapped"]]]);
    expect(found("compiler collection").sort()).toEqual([
      ["gcc", []],
      ["gfortran", []],
    ]);
  });

  it("rank the unversioned default first, or the newest where there is none", () => {
    const build = "Composable build system";
    const small = smallIndex([
      ["dune_1", build, "dune", "1.11.4"],
      ["dune_3", build, "dune", "3.20.2"],
      ["dune_2", build, "dune", "2.9.3"],
      ["jdk", "Java Development Kit", "openjdk", "21.0.8"],
      ["jdk24", "Java Development Kit", "openjdk", "24.0.2"],
    ]);
    expect(ranked(small, "composable build system")[0]).toBe("dune_3");
    expect(ranked(small, "java development kit")[0]).toBe("jdk");
  });
});

describe("a set's _latest twin", () => {
  it("is one result with the default set's member: nodePackages_latest beside nodePackages", () => {
    const small = smallIndex([
      ["nodePackages.coc-rls", "Rust language server extension for coc.nvim"],
      ["nodePackages_latest.coc-rls", "Rust language server extension for coc.nvim"],
    ]);
    const found = searchIndex(small, "rust language server");
    expect(found.map((result) => [result.attr, result.alsoIn])).toEqual([["nodePackages.coc-rls", ["nodePackages_latest.coc-rls"]]]);
  });
});

describe("the interpreter prefix of a pname", () => {
  it("is dropped where it carries the interpreter's version (or is php), and only there", () => {
    const small = smallIndex([
      ["ocamlformat_0_26_1", "Auto-formatter for OCaml code", "ocaml4.14.2-ocamlformat"],
      ["ocamlPackages.pprint", "Pretty-printing library for OCaml", "ocaml4.14.2-pprint"],
    ]);
    expect(ranked(small, "ocamlformat")[0]).toBe("ocamlformat_0_26_1");
    expect(ranked(small, "ocaml formatter")[0]).toBe("ocamlformat_0_26_1");
    // lua-language-server is no Lua library named language-server.
    expect(plainPname("lua-language-server")).toBe("lua-language-server");
    expect([plainPname("python3.13-requests"), plainPname("perl5.40.0-ack"), plainPname("php-ast")]).toEqual(["requests", "ack", "ast"]);
  });

  it("reads what a set is named for from its family, and nothing from a family that is no set", () => {
    expect(["pythonPackages", "postgresqlPackages", "tmuxPlugins", "haskell.compiler"].map(setNamedFor)).toEqual([
      "python",
      "postgresql",
      "tmux",
      undefined,
    ]);
  });
});

describe("a Python library's name", () => {
  it("is read without the py glued to it: pyyaml is named yaml, before another language's library named so", () => {
    const small = smallIndex([
      ["perl540Packages.YAML", "YAML Ain't Markup Language", "perl5.40.0-YAML"],
      ["python313Packages.pyyaml", "Next generation YAML parser and emitter for Python", "python3.13-pyyaml"],
      ["python313Packages.confuse", "Configuration library for Python that uses YAML", "python3.13-confuse"],
    ]);
    expect(ranked(small, "python yaml")[0]).toBe("python313Packages.pyyaml");
  });
});

describe("a library named lib*", () => {
  it("comes after the tool for a task, and is found when a library is asked for", () => {
    const small = smallIndex([
      ["libpcap", "Library to capture network packets"],
      ["tcpdump", "Tool to capture network packets"],
    ]);
    expect(ranked(small, "capture network packets")[0]).toBe("tcpdump");
    expect(ranked(small, "packet capture library")[0]).toBe("libpcap");
    expect(ranked(small, "libpcap")[0]).toBe("libpcap");
  });

  it("asked for with no language named, is a system library, not one of a language's set", () => {
    const small = smallIndex([
      ["python313Packages.pypng", "Pure Python library for PNG image encoding and decoding", "python3.13-pypng"],
      ["libspng", "Simple, modern PNG decoding library"],
    ]);
    expect(ranked(small, "png decoding library")[0]).toBe("libspng");
    expect(ranked(small, "python png decoding library")[0]).toBe("python313Packages.pypng");
  });

  it("asked for, is no program that calls itself a command-line tool and not a library; one that is both counts", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["httpcli", "Command line HTTP client"],
      ["pyhttp", "HTTP client", "pyhttp", "0.9"],
      ["qrtool", "C library and command line tool for QR codes"],
      ["qrlib", "QR code library", "qrlib", "0.9"],
    ]);
    expect(ranked(small, "http client library")[0]).toBe("pyhttp");
    expect(ranked(small, "qr code library")[0]).toBe("qrtool");
  });

  it("may be meant by what a library provides: headers, an API", () => {
    // footool, not foocodec: a name the query's words make ("foo codec") is matched as that name.
    const small = smallIndex([...WIDGETS, ["libfoo", "Foo codec, its headers and API"], ["footool", "Foo codec, its headers and API"]]);
    expect(ranked(small, "foo codec")[0]).toBe("footool");
    expect(ranked(small, "foo codec headers")[0]).toBe("libfoo");
    expect(ranked(small, "foo codec api")[0]).toBe("libfoo");
  });
});

describe("a library asked for", () => {
  it("by its ecosystem's word for one ('perl module', 'ruby gem') is that ecosystem's library, not an everyday program", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["httpie", "Command line HTTP client whose goal is to make requests human-friendly"],
      ["perl540Packages.NetHTTPLite", "Lightweight HTTP implementation", "perl5.40.0-Net-HTTP-Lite"],
      ["rubyPackages.httpx", "HTTP client library", "ruby3.4-httpx"],
    ]);
    expect(ranked(small, "perl module for making http requests")[0]).toBe("perl540Packages.NetHTTPLite");
    expect(ranked(small, "ruby gem for making http requests")[0]).toBe("rubyPackages.httpx");
    // Without its ecosystem, a module is anybody's.
    expect(ranked(small, "module for making http requests")[0]).toBe("httpie");
  });

  it("with its language named is that language's, not a system library: 'python ssh client library' is no libssh", () => {
    const small = smallIndex([
      ...WIDGETS,
      // The system library says more of the query, and is the more established (released, where the other is 0.x).
      ["libssh", "SSH client library", "libssh", "1.11.1"],
      ["python313Packages.paramiko", "SSHv2 protocol library", "python3.13-paramiko", "0.4.0"],
    ]);
    expect(ranked(small, "python ssh client library")[0]).toBe("python313Packages.paramiko");
    // With no language named, the system library.
    expect(ranked(small, "ssh client library")[0]).toBe("libssh");
  });

  it("reads a description's 'comma-separated values' as the csv asked for", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["perl540Packages.TextTable", "Comma-separated values manipulator", "perl5.40.0-Text-Table"],
      ["perl540Packages.FileReader", "Module for parsing files", "perl5.40.0-File-Reader"],
    ]);
    expect(ranked(small, "perl csv parser")[0]).toBe("perl540Packages.TextTable");
  });

  it("is what a lib* name says, as a description saying 'library' would: 'png library' is libpng", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["libpng", "Official reference implementation for the PNG file format"],
      ["pngslim", "Shrinks PNG images"],
      ["slideread", "C library to read whole-slide images"],
    ]);
    expect(ranked(small, "png library")[0]).toBe("libpng");
    // Asked for a tool, the lib* name says nothing.
    expect(ranked(small, "png image tool")[0]).toBe("pngslim");
  });
});

describe("a long query", () => {
  it("finds packages by its six rarest words; the others only re-rank them", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["alpha", "Frobnicates quux"],
      ["beta", "Zorbles quux"],
      ["gamma", "Handles wibble wobble"],
      ["delta", "Zaps and zips"],
      ["epsilon", "Zooms and zings"],
    ]);
    // Among the rarest six, quux finds what says it...
    expect(ranked(small, "wibble zap zip zoom zing quux")).toEqual(expect.arrayContaining(["alpha", "beta"]));
    // ...as the seventh rarest, nothing of its own.
    expect(ranked(small, "wibble wobble zap zip zoom zing quux").sort()).toEqual(["delta", "epsilon", "gamma"]);
  });

  it("finds an answer by its fifth and sixth rarest words ('a throwaway kubernetes cluster inside docker' is kind)", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["gamma", "Handles wibble"],
      ["delta", "Handles wobble"],
      ["epsilon", "Zaps"],
      ["zeta", "Zips"],
      ["eta", "Blorps"],
      ["theta", "Flarps"],
      ["target", "Blorps and flarps"],
    ]);
    expect(ranked(small, "wibble wobble zap zip blorp flarp")[0]).toBe("target");
  });

  it("lets its other words find an everyday tool: 'filter and reshape json returned by an api in a pipeline' lists jq", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["jq", "Lightweight and flexible command-line JSON processor"],
      ["pipewire", "Server and API to deal with multimedia pipelines"],
      ["rs", "Reshape a data array from standard input"],
      ["jsonapi", "JSON API parser returning a dictionary"],
      ["jello", "Filter JSON data with Python syntax"],
      ...Array.from({ length: 40 }, (_, i): [string, string] => [`json${i}`, `Reads JSON ${i}`]),
    ]);
    expect(ranked(small, "filter and reshape json returned by an api in a pipeline")).toContain("jq");
    // Not a package that is no everyday tool: json0 says no rarer word.
    expect(ranked(small, "filter and reshape json returned by an api in a pipeline")).not.toContain("json0");
  });

  it("counts among those only words some package has: 'a modern, lightweight tool to compress images' is an image compressor", () => {
    const small = smallIndex([...WIDGETS, ["imgsquash", "Compresses PNG images"]]);
    expect(ranked(small, "a modern, lightweight, open source tool to compress images")[0]).toBe("imgsquash");
  });
});

describe("make", () => {
  it("leading a query is a light verb, elsewhere the tool, and before a kind of tool", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["gnumake", "Tool to control the generation of non-source files from sources"],
      ["mdslides", "Presentation slides"],
    ]);
    expect(ranked(small, "make slides from markdown")[0]).toBe("mdslides");
    expect(ranked(small, "run make targets")[0]).toBe("gnumake");
    const alternatives = smallIndex([
      ...WIDGETS,
      ["gotask", "Task runner, a simpler Make alternative"],
      ["fdfind", "Simple alternative to find"],
      ["cargo", "Downloads your Rust project's dependencies and builds your project"],
    ]);
    expect(ranked(alternatives, "make alternative")[0]).toBe("gotask");
    // However much follows: make is the tool named, not a light verb before "alternative written in rust" (cargo).
    expect(ranked(alternatives, "make alternative written in rust")[0]).toBe("gotask");
  });

  it("before a use is the tool asked for another use: 'make for go' is a Go build tool, not Go", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["go", "Go Programming language"],
      ["gofont", "Go font family"],
      ["mage", "Make/Rake-like Build Tool Using Go"],
    ]);
    expect(ranked(small, "make for go")[0]).toBe("mage");
  });
});

describe("words of relation and quantity", () => {
  it("say nothing of a package: 'bandwidth test between two hosts' is the bandwidth tool, not a relay between two channels", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["iperf", "Tool to measure IP bandwidth using UDP or TCP"],
      ["relay", "Relays data between two independent channels for testing"],
    ]);
    expect(ranked(small, "bandwidth test between two hosts")[0]).toBe("iperf");
  });

  it("and of time and reference, likewise: 'restart services after they crash' is the supervisor, not what runs 'after' something", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["svwatch", "Supervisor that restarts services when they crash"],
      ["afterhook", "Runs hooks after each commit"],
      ["thenable", "They say it then does it"],
    ]);
    expect(ranked(small, "restart services after they crash")).toEqual(["svwatch"]);
  });
});

describe("a word with a mark at its edge", () => {
  it("is the word: '#includes' is includes, as descriptions are read; c++ keeps its marks", () => {
    const small = smallIndex([...WIDGETS, ["iwyu", "Analyzes #includes of C++ sources"], ["cppcheck2", "Checks C++ files"]]);
    expect(ranked(small, "which #includes does my c++ file need")[0]).toBe("iwyu");
  });
});

describe("the words of asking", () => {
  const small = smallIndex([
    ...WIDGETS,
    ["pdfmerge", "Merge PDF files into one"],
    ["pdfforms", "PDF command line tool and utility program for files, forms and projects"],
    ["pdf-do", "Does things with PDF files in the best way"],
    ["nix", "Nix package manager, for packages that merge into one"],
  ]);

  it("say that a program is wanted, which every package is: 'cli tool to merge pdf files' is the merger, not a PDF tool", () => {
    for (const query of [
      "merge pdf files",
      "cli tool to merge pdf files",
      "command line program to merge pdf files",
      "merge pdf files on linux",
      "merge pdf files in my project",
    ]) {
      expect(ranked(small, query)[0], query).toBe("pdfmerge");
    }
  });

  it("say how good a tool is asked to be, as every package says of itself: 'a fast, simple tool to compress images'", () => {
    const tools = smallIndex([...WIDGETS, ["speedy", "Fast and simple tool to copy files"], ["imgsquash", "Compresses PNG images"]]);
    expect(ranked(tools, "fast simple tool to compress images")[0]).toBe("imgsquash");
    expect(ranked(tools, "a modern, lightweight, open source tool to compress images")[0]).toBe("imgsquash");
  });

  it("take a name to install or use as that name ('install ripgrep'), and install as a word otherwise ('install fonts')", () => {
    const installs = smallIndex([
      ...WIDGETS,
      ["ripgrep", "Recursively searches directories for a regex pattern"],
      ["install-helper", "Install software and ripgrep-like tools"],
      ["fontinst", "Install fonts"],
    ]);
    for (const query of ["install ripgrep", "add ripgrep", "use the ripgrep"]) expect(ranked(installs, query)[0], query).toBe("ripgrep");
    expect(ranked(installs, "install fonts")[0]).toBe("fontinst");
  });

  it("say nothing of a package: 'how do I', 'best way to'", () => {
    expect(ranked(small, "how do I merge pdf files")[0]).toBe("pdfmerge");
    expect(ranked(small, "best way to merge pdf files")[0]).toBe("pdfmerge");
    // However spaced: "command  line" and "command_line" are "command line".
    const linters = smallIndex([...WIDGETS, ["golint", "Go static analysis"], ["gostatic", "Static site generator in Go"]]);
    for (const query of ["go static analysis", "go static  analysis", "go_static_analysis"])
      expect(ranked(linters, query)[0], query).toBe("golint");
  });

  it("match nothing by themselves: a query whose other words match nothing finds nothing, each package listed at most once", () => {
    const clis = smallIndex([
      ...WIDGETS,
      ["python313Packages.foo-cli", "Foo from the command line", "foo-cli", "2.0"],
      ["python312Packages.foo-cli", "Foo from the command line", "foo-cli", "2.0"],
    ]);
    expect(ranked(clis, "foo cli")[0]).toBe("python313Packages.foo-cli");
    expect(ranked(clis, "zzqx cli")).toEqual([]);
  });

  it("'would like to' asks for no tool like another: 'take' is no tool to find alternatives of", () => {
    const takes = smallIndex([...WIDGETS, ["take", "Takes notes"], ["jotter", "Notes app, like take"], ["shotty", "Screenshot taker"]]);
    expect(ranked(takes, "I would like to take a screenshot")[0]).toBe("shotty");
    expect(ranked(takes, "something like take").slice(0, 2)).toEqual(["take", "jotter"]);
  });

  it("of nixpkgs itself ask for a package, not for Nix: 'nix package to merge pdf files'", () => {
    expect(ranked(small, "nix package to merge pdf files")[0]).toBe("pdfmerge");
    expect(ranked(small, "a nixpkgs package for merging pdf files")[0]).toBe("pdfmerge");
    expect(ranked(small, "nix package manager")[0]).toBe("nix");
  });

  it("still find a package by them when they are all the query says", () => {
    expect(ranked(small, "cli tool")[0]).toBe("pdfforms");
    expect(ranked(small, "pdf do")[0]).toBe("pdf-do");
  });
});

describe("words agents use otherwise than descriptions", () => {
  it("meet theirs: big files are large ones, a friendlier tool is a friendly one", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["git-lfs", "Git extension for versioning large files"],
      ["git-files", "Versioned files in Git"],
      ["hclient", "Command line HTTP client whose goal is to make CLI human-friendly"],
      ["curlish", "HTTP client"],
    ]);
    expect(ranked(small, "big files in git")[0]).toBe("git-lfs");
    expect(ranked(small, "huge files in git")[0]).toBe("git-lfs");
    expect(ranked(small, "friendlier http client")[0]).toBe("hclient");
  });
});

describe("a runtime asked for by version", () => {
  it("is the runtime, not the ecosystem's packages nor a description's number: 'node 22'", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["nodejs", "Event-driven I/O framework for the V8 JavaScript engine", "nodejs", "24.8.0"],
      ["nodePackages.left-pad", "Pads strings for Node", "left-pad"],
      ["ocl-icd", "Loader for headers 2025.07.22"],
    ]);
    expect(ranked(small, "node 22")[0]).toBe("nodejs");
    expect(ranked(small, "node left pad")[0]).toBe("nodePackages.left-pad");
  });
});

describe("an alternative asked for", () => {
  it("is another package than the one named", () => {
    const small = smallIndex([
      ["sed", "Stream editor"],
      ["sd", "Intuitive find and replace, a sed alternative"],
    ]);
    expect(ranked(small, "sed alternative")[0]).toBe("sd");
    expect(ranked(small, "sed replacement")[0]).toBe("sd");
  });

  const tools = smallIndex([
    ...WIDGETS,
    ["terraform", "Tool for building, changing, and versioning infrastructure"],
    ["terraform-docs", "Generate documentation from Terraform modules"],
    ["terraform-compliance", "BDD test framework for terraform"],
    ["opentofu", "Tool for building, changing, and versioning infrastructure"],
    ["tmux", "Terminal multiplexer"],
    ["tmux-xpanes", "Ultimate terminal divider powered by tmux"],
    ["tmuxp", "tmux session manager"],
    ["screen", "Window manager that multiplexes a physical terminal"],
    ["findutils", "GNU Find Utilities, the basic directory searching utilities", "findutils", "4.10"],
    ["fd", "Simple, fast and user-friendly alternative to find"],
    ["cron", "Daemon for running commands at specific times"],
    ["cronie", "Cron daemon, runs commands at scheduled times"],
    ["python313Packages.black", "The uncompromising Python code formatter", "black"],
    ["python313Packages.black-macchiato", "Partial formatting of Python code with black", "black-macchiato"],
    ["python313Packages.yapf", "Yet another Python formatter", "yapf"],
  ]);

  it("is found by what other packages say of it: podman, 'podman or docker' to two others, is a docker alternative", () => {
    const small = smallIndex([
      ...WIDGETS,
      // Their own descriptions share no word: only others put them side by side.
      ["docker", "Open source project to pack, ship and run any application"],
      ["podman", "Program for managing pods, containers and container images"],
      ["distrobox", "Wrapper around podman or docker to create and start containers"],
      ["lazyjournal", "TUI for journal logs, as well as Docker and Podman containers"],
    ]);
    expect(ranked(small, "docker alternative")).toContain("podman");
  });

  it("is not found by the description of a package the named tool is only one program of (procps is more than top)", () => {
    const procps = smallIndex([
      ...WIDGETS,
      ["procps", "Utilities that give information about processes using the /proc filesystem"],
      ["procfs-info", "Information about processes using the /proc filesystem, in one table"],
      ["htopish", "Interactive process viewer, a top alternative"],
    ]);
    expect(ranked(procps, "top alternative")).toEqual(["htopish"]);
  });

  it("is found by what the named tool's description says, and not among what is built on the named tool", () => {
    // Neither opentofu nor screen names the tool; the add-ons that do (terraform-docs, tmuxp) are no alternative.
    expect(ranked(tools, "terraform alternative")[0]).toBe("opentofu");
    // Asked with what it is for ("… for my project"), after the word of asking for another.
    expect(ranked(tools, "terraform alternative for my project")[0]).toBe("opentofu");
    // Or as an equivalent, or a better one.
    expect(ranked(tools, "find equivalent")[0]).toBe("fd");
    expect(ranked(tools, "better find")[0]).toBe("fd");
    // A fork is asked for as one: "fork of terraform", "terraform fork"; so is "<tool> but …".
    expect(ranked(tools, "find but simpler")[0]).toBe("fd");
    // Named by its package, the tool is its program to the packages standing in for it: fd is "alternative to find".
    const gnu = smallIndex([
      ...WIDGETS,
      ["findutils", "GNU Find Utilities, the basic directory searching utilities of the GNU operating system", "findutils", "4.10"],
      ["fd", "Simple, fast and user-friendly alternative to find"],
      ["gnugrep", "GNU implementation of the Unix grep command"],
      ["gcc", "GNU Compiler Collection"],
      ["dust", "du, but more intuitive"],
      ["coreutils", "GNU Core Utilities"],
    ]);
    expect(ranked(gnu, "findutils alternative")[0]).toBe("fd");
    expect(ranked(gnu, "du alternative")[0]).toBe("dust");
    expect(ranked(tools, "open source fork of terraform")[0]).toBe("opentofu");
    expect(ranked(tools, "terraform fork")[0]).toBe("opentofu");
    expect(ranked(tools, "alternative to tmux")[0]).toBe("screen");
    expect(ranked(tools, "tmux alternative")).not.toContain("tmux-xpanes");
    // A Python tool named is its Python package.
    expect(ranked(tools, "black alternative")[0]).toBe("python313Packages.yapf");
  });

  it("is found by the named tool's description cut where a word ends, not inside one ('… within bundles' is no 'bun')", () => {
    const bundlers = smallIndex([
      ...WIDGETS,
      [
        "nodePackages.packer",
        // "bundles" from the 118th character on, and the words before it common.
        "Renders widgets and renders widgets, renders widgets and renders widgets, renders widgets and renders widgets within bundles",
        "packer",
      ],
      ["esbundle", "Extremely fast JavaScript bundler"],
      ["bun", "Fast JavaScript runtime"],
    ]);
    expect(ranked(bundlers, "packer alternative")[0]).toBe("esbundle");
  });

  it("by the program named, and of its kind, the tool itself included, when asked for one like it", () => {
    expect(ranked(tools, "find replacement")[0]).toBe("fd");
    expect(ranked(tools, "schedule jobs like cron").slice(0, 2).sort()).toEqual(["cron", "cronie"]);
    expect(ranked(tools, "cron-like scheduler").slice(0, 2).sort()).toEqual(["cron", "cronie"]);
  });

  it("without the tool itself when a 'but' says how the one wanted differs ('like make but simpler')", () => {
    for (const query of ["job scheduler like cron but for containers", "cron-like scheduler but for containers"]) {
      const found = ranked(tools, query);
      expect(found).not.toContain("cron");
      expect(found[0]).toBe("cronie");
    }
    // A "but" that says nothing, or names the tool again, does not.
    expect(ranked(tools, "job scheduler like cron but").slice(0, 2).sort()).toEqual(["cron", "cronie"]);
    expect(ranked(tools, "scheduler like cron but compatible with cron").slice(0, 2).sort()).toEqual(["cron", "cronie"]);
  });
});

describe("what other packages say of a package", () => {
  it("counts twice from a package of the same name in another set: one editor extension tells what the tool is", () => {
    const small = smallIndex([
      ["analyzer", "Modular compiler frontend for the Rust language"],
      ["vscode-extensions.rust-lang.analyzer", "Alternative rust language server"],
    ]);
    expect(ranked(small, "rust lsp")).toContain("analyzer");
  });
});

describe("a word's prefix and suffix matches", () => {
  it("in a description are its forms, not other words that start so: 'java' is not JavaScript", () => {
    // hadolint is an everyday tool, which a partial match of the rarer word made the answer.
    const small = smallIndex([
      ...WIDGETS,
      ["hadolint", "Dockerfile linter JavaScript API"],
      ["checkstyle", "Java linter checking sources against a coding standard"],
    ]);
    expect(ranked(small, "java linter")[0]).toBe("checkstyle");
  });

  it("reach a name past many that sort before it: 'linter' finds eslint behind a hundred other *lint names", () => {
    // Names ending in "lint" whose reversed spelling sorts before eslint's ("tnilse").
    const letters = "abcdefghijklmnopqr";
    const others = Array.from({ length: 120 }, (_, i) => `${letters[i % 18]}${letters[Math.floor(i / 18) % 18]}lint`);
    // Each its own release: one release of one description at top level would be one package built under many names.
    const small = smallIndex([...others, "eslint"].map((name, i) => [name, "Checks code", name, `1.${i}`]));
    expect(ranked(small, "linter", 50)).toContain("eslint");
  });
});

describe("programs the catalog cannot name", () => {
  const small = smallIndex([
    ["poppler-utils", "PDF rendering library"],
    ["coreutils", "GNU Core Utilities"],
    ["pdfsplit", "Split a PDF into pages"],
    ["redis", "Key-value store"],
    ["python313Packages.redis", "Redis client", "python3.13-redis"],
  ]);

  it("find their package by whole name: 'pdfunite' is poppler-utils, 'split' coreutils", () => {
    expect(ranked(small, "pdfunite")[0]).toBe("poppler-utils");
    expect(ranked(small, "split")[0]).toBe("coreutils");
  });

  it("find well-known programs of documents, networks and systems: ebook-convert is calibre, soffice any libreoffice by its pname, kdig knot-dns", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["calibre", "Comprehensive e-book software"],
      ["libreoffice-fresh", "Comprehensive, professional-quality productivity suite", "libreoffice"],
      ["knot-dns", "Authoritative-only DNS server from .cz domain registry"],
      ["lastpass-cli", "Stores, retrieves, generates, and synchronizes passwords securely"],
      ["kdigger", "In-pod context discovery tool for Kubernetes penetration testing"],
      ["powershell", "Powerful cross-platform shell and scripting language based on .NET"],
      ["buildkit", "Concurrent, cache-efficient, and Dockerfile-agnostic builder toolkit"],
      ["nushell", "Modern shell written in Rust"],
      ["coreutils", "GNU Core Utilities"],
      ["natscli", "NATS Command Line Interface"],
      ["haskellPackages.nats", "Natural numbers", "nats"],
    ]);
    expect(
      ["ebook-convert", "soffice", "kdig", "lpass", "pwsh", "buildctl", "nu", "nats"].map((program) => ranked(small, program)[0]),
    ).toEqual(["calibre", "libreoffice-fresh", "knot-dns", "lastpass-cli", "powershell", "buildkit", "nushell", "natscli"]);
  });

  it("are named by a technical token, even among other words: 'calculate sha256 of a file' is coreutils (sha256sum)", () => {
    const small = smallIndex([...WIDGETS, ["coreutils", "GNU Core Utilities"], ["hashdeep", "Recursively compute file hashes"]]);
    expect(ranked(small, "calculate sha256 of a file")[0]).toBe("coreutils");
  });

  it("lend the package their names as words, after a tool about the whole task: 'dump a postgres database' is postgresql (postgres, pg_dump), 'split a pdf' pdfsplit before coreutils", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["postgresql", "Powerful, open source object-relational database system"],
      ["dbdump", "Dumps database tables to files"],
      ["coreutils", "GNU Core Utilities"],
      ["pdfsplit", "Split a PDF into pages"],
    ]);
    expect(ranked(small, "dump a postgres database")[0]).toBe("postgresql");
    expect(ranked(small, "split a pdf").slice(0, 2)).toEqual(["pdfsplit", "coreutils"]);
  });

  it("are a top-level package's: the Python library named redis installs no redis-cli", () => {
    const owners = small.exact.postings(small.exact.find("rediscli"));
    expect([...owners].map((id) => small.attr(id))).toEqual(["redis"]);
  });

  it("are also a compiler's or runtime's in a set of toolchains, where the channel has none at top level: ghci is GHC, iex Elixir", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["haskell.compiler.ghc98", "Glasgow Haskell Compiler", "ghc", "9.8.4"],
      ["haskellPackages.ghci", "The ghci library", "ghci"],
      ["beam28Packages.elixir", "Functional language built on top of the Erlang VM", "elixir"],
      ["beam28Packages.erlang", "Programming language used for massively scalable soft real-time systems", "erlang"],
    ]);
    expect(["ghci", "iex", "erl"].map((program) => ranked(small, program)[0])).toEqual([
      "haskell.compiler.ghc98",
      "beam28Packages.elixir",
      "beam28Packages.erlang",
    ]);
  });
});

describe("a conversion asked for", () => {
  const small = smallIndex([
    ["html2pdf", "Renders web pages"],
    ["pdfmaker", "Generate PDF documents from HTML"],
    ["mdtopdf", "Typesets notes"],
  ]);

  it("finds the converter named after it, however it is worded", () => {
    expect(ranked(small, "generate pdf from html")[0]).toBe("html2pdf");
    expect(ranked(small, "convert html files to pdf")[0]).toBe("html2pdf");
    expect(ranked(small, "markdown to pdf")[0]).toBe("mdtopdf");
  });

  it("finds the unpacker named after a format asked to unpack ('extract a rar file': unrar), whatever its description says", () => {
    const archives = smallIndex([
      ["rar", "Utility for RAR archives"],
      ["unrar", "Utility for RAR archives"],
      ["rarcrack", "Password cracker for RAR archives"],
      ...WIDGETS,
    ]);
    for (const query of ["extract a rar file", "unpack rar archives", "decompress a rar archive"])
      expect(ranked(archives, query)[0], query).toBe("unrar");
    // Only unpacking asks for it: making one is rar.
    expect(ranked(archives, "create a rar archive")[0]).toBe("rar");
  });

  it("reads a converter's name no package has ('md2pdf'), an arrow ('markdown -> pdf') and a format's short form ('md to pdf') as the conversion", () => {
    const converters = smallIndex([
      ["docconv", "Converter of documents between Markdown, HTML and PDF"],
      ["md5sum-tools", "Checksums for md files"],
      ["x2goclient", "Remote desktop client"],
    ]);
    for (const query of ["md2pdf", "markdown -> pdf", "md → pdf", "md to pdf", "html2pdf"])
      expect(ranked(converters, query)[0], query).toBe("docconv");
    // A name some package starts is that name; a letter is no format.
    expect(ranked(converters, "x2go")[0]).toBe("x2goclient");
  });

  it("reads a converter's name only a broken package has ('xml2json', Haskell's) as the conversion, and a top-level one as its tool, first of the converters", () => {
    const catalog = Object.fromEntries(
      [
        ...WIDGETS,
        ["haskellPackages.xml2json", "Translate xml to json"],
        ["xq", "Command-line XML and JSON processor"],
        ["json2yaml", "Converts JSON to YAML"],
        ["yq", "Command-line YAML and JSON processor"],
      ].map(([attr, description]) => [
        attr,
        { name: `${attr}-1.0`, pname: attr!.split(".").pop(), version: "1.0", meta: { description, broken: attr!.endsWith("xml2json") } },
      ]),
    );
    const path = join(mkdtempSync(join(tmpdir(), "nixshed-search-broken-")), "index");
    writeIndex(path, buildIndex(parseCatalog(JSON.stringify(catalog), "fixture"), "fixture"));
    const converters = NixpkgsIndex.load(path);
    expect(ranked(converters, "xml2json")).toContain("xq");
    expect(ranked(converters, "json2yaml")[0]).toBe("json2yaml");
    expect(ranked(converters, "json2yaml")).toContain("yq");
  });

  it("ranks a converter named for the opposite direction last, though it matches every word", () => {
    const both = smallIndex([
      ["markdown2html-converter", "Converts Markdown to HTML"],
      ["pdf2odt", "PDF to ODT converter"],
      ["docconv", "Converter of documents between formats such as Markdown, HTML, ODT and PDF"],
    ]);
    expect(ranked(both, "html to markdown converter")[0]).toBe("docconv");
    expect(ranked(both, "convert odt to pdf")[0]).toBe("docconv");
    expect(ranked(both, "convert pdf to odt")[0]).toBe("pdf2odt");
  });

  it("takes reStructuredText, AsciiDoc and HTML for documents, as a converter of documentation formats says", () => {
    const documents = smallIndex([
      ...WIDGETS,
      ["docconv", "Conversion between documentation formats"],
      ["webshot", "Convert web pages to images"],
      ["rstlint", "Checks rst files"],
    ]);
    expect(ranked(documents, "convert rst to html")[0]).toBe("docconv");
    expect(ranked(documents, "asciidoc to html")[0]).toBe("docconv");
  });

  it("takes an audio or video file format for audio or video, as a media converter says", () => {
    const media = smallIndex([
      ...WIDGETS,
      ["mediaconv", "Record, convert and stream audio and video"],
      ["flacinfo", "Lists the tags of FLAC files"],
    ]);
    expect(ranked(media, "convert flac to mp3")[0]).toBe("mediaconv");
    expect(ranked(media, "convert mov to mp4")[0]).toBe("mediaconv");
  });

  it("takes a PNG or a JPEG for an image, as converters named img… do", () => {
    const images = smallIndex([...WIDGETS, ["img2pdf", "Convert images to PDF"], ["pdfview", "PDF viewer that exports PNG"]]);
    expect(ranked(images, "convert png to pdf")[0]).toBe("img2pdf");
    expect(ranked(images, "jpg to pdf")[0]).toBe("img2pdf");
    expect(ranked(images, "pdf to png")[0]).toBe("pdfview");
  });
});

describe("a language's tool asked for by kind", () => {
  it("takes no short form that names another language's tools: rslint is a JavaScript linter, no Rust one", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["rslint", "Fast JavaScript and TypeScript linter"],
      ["clippy", "Bunch of lints to catch common mistakes and improve your Rust code"],
    ]);
    expect(ranked(small, "rust linter")[0]).toBe("clippy");
  });

  it("reads the verb as the kind and a language by its short form: 'format go code' is gofmt (go's), 'lint terraform' tflint", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["go", "The Go programming language"],
      ["golex", "Lexer generator for Go code"],
      ["tflint", "Finds mistakes"],
      ["tfsec", "Static analysis of Terraform code for security"],
    ]);
    expect(ranked(small, "format go code")[0]).toBe("go");
    expect(ranked(small, "lint terraform")[0]).toBe("tflint");
    // Matched as the kind, not as file formats.
    const haskell = smallIndex([
      ...WIDGETS,
      ["hsformats", "Formats Haskell code and data"],
      ["ormolu", "A formatter for Haskell source code"],
    ]);
    expect(ranked(haskell, "format haskell code")[0]).toBe("ormolu");
    // Only leading: after a subject, "format" is a noun.
    expect(kindNames(["image", "format"])).toEqual([]);
    // Two kinds at once ask for either: "yaml linter and formatter" is yamllint or yamlfmt.
    expect(kindNames(["yaml", "linter", "and", "formatter"])).toEqual(expect.arrayContaining(["yamllint", "yamlfmt"]));
  });

  it("finds it however the two are worded: 'rust code formatter', 'formatter for rust', 'shell script linter'", () => {
    // Their descriptions need not say either: the name does.
    const small = smallIndex([
      ...WIDGETS,
      ["prettier", "Code formatter", "prettier", "3.6.2"],
      ["nixfmt", "Official formatter for Nix code", "nixfmt", "1.0.0"],
      ["rustfmt", "Applies the style guide"],
      ["shlint", "Finds mistakes"],
      ["bashate", "Style checker for shell scripts"],
      ["kube-linter", "Finds misconfigurations"],
      ["kubeval", "Validates Kubernetes manifests"],
    ]);
    for (const query of [
      "rust code formatter",
      "formatter for rust",
      "rust formatter",
      "rust formatters",
      "rust formatter cli for my project",
    ])
      expect(ranked(small, query)[0], query).toBe("rustfmt");
    expect(ranked(small, "shell script linter")[0]).toBe("shlint");
    expect(ranked(small, "lint kubernetes manifests")[0]).toBe("kube-linter");
  });

  it("takes a language's packages about a subject that is an ecosystem too ('python library for postgres'), not that ecosystem's", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["python313Packages.psycopg", "PostgreSQL database adapter for Python"],
      ["python313Packages.yaml-tools", "YAML library for Python"],
      ["postgresql17Packages.plpython", "Extension to write functions in Python"],
    ]);
    expect(ranked(small, "python library for postgres")[0]).toBe("python313Packages.psycopg");
    expect(ranked(small, "postgres extension for python")[0]).toBe("postgresql17Packages.plpython");
  });

  it("ranks a package that calls itself a library and no program below the tools when a language's tool is asked for", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["python313Packages.aprof", "Python profiler library"],
      ["python313Packages.callprof", "Call stack profiler for Python programs"],
    ]);
    expect(ranked(small, "python profiler")[0]).toBe("python313Packages.callprof");
    // Asked for, a library is what is meant.
    expect(ranked(small, "python profiling library")[0]).toBe("python313Packages.aprof");
  });

  it("ranks a niche set's members that are not also at top level below the tools when a language's tool is asked for", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["ormolu", "A formatter for Haskell source code"],
      ["haskellPackages.prettyprinter", "A modern, extensible pretty-printer"],
      ["haskellPackages.prettyprint-extras", "Pretty-printing for Haskell"],
    ]);
    expect(ranked(small, "haskell formatter")[0]).toBe("ormolu");
    // Named, the set's own packages are what is meant.
    expect(ranked(small, "haskell pretty printing library")[0]).toMatch(/^haskellPackages\.prettyprint/);
  });

  it("takes no letter a name runs into digits for a word of it ('c debugger' is no c64-debugger)", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["c64-debugger", "Commodore 64 code and memory debugger"],
      ["nemiver", "Standalone C/C++ debugger"],
    ]);
    expect(ranked(small, "c debugger")[0]).toBe("nemiver");
    expect(ranked(small, "c64")[0]).toBe("c64-debugger");
  });

  it("reads a release asked for with a name as that name's ('jq latest version'), not as words to match", () => {
    const small = smallIndex([
      ["jq", "Command-line JSON processor"],
      ["nss_latest", "Latest security libraries"],
      ["lastversion", "Find the latest release version of a project"],
    ]);
    for (const query of ["jq latest version", "latest jq", "newest jq", "jq stable"]) expect(ranked(small, query), query).toEqual(["jq"]);
    // Not a release of anything named: the words to match.
    expect(ranked(small, "find the latest version of a project")[0]).toBe("lastversion");
  });

  it("reads a language's short form before a kind of tool as the language ('ts linter', 'py formatter'), not a program so named", () => {
    const small = smallIndex([
      ["ts", "Task spooler, a batch queue"],
      ["typelint", "Pluggable linter for TypeScript code"],
      ["snakefmt", "Uncompromising Python code formatter"],
      ["pyflow", "Workflow engine for py scripts"],
    ]);
    expect(ranked(small, "ts linter")[0]).toBe("typelint");
    expect(ranked(small, "py formatter")[0]).toBe("snakefmt");
    expect(ranked(small, "ts")[0]).toBe("ts");
  });

  it("finds the tool named after the two ('go formatter': gofmt, which go installs; 'python lsp': pylsp)", () => {
    const small = smallIndex([
      ["go", "The Go programming language"],
      ["webmin", "Minifies web formats, for Go and others"],
      ["pylsp", "Editor integration"],
      ["pyserve", "Server for Python language plugins"],
    ]);
    expect(ranked(small, "go formatter")[0]).toBe("go");
    expect(ranked(small, "python lsp")[0]).toBe("pylsp");
  });

  it("takes the language's own package as its formatter (zig fmt), never as its language server", () => {
    const small = smallIndex([
      ["zig", "General-purpose programming language and toolchain"],
      ["prettier", "Code formatter", "prettier", "3.6.2"],
      ["zls", "Zig LSP implementation"],
    ]);
    expect(ranked(small, "zig formatter")[0]).toBe("zig");
    expect(ranked(small, "zig lsp")[0]).toBe("zls");
  });

  it("finds such a name within a longer one ('markdown linter': markdownlint-cli), but not a short kind's (rustls is no Rust LSP)", () => {
    const small = smallIndex([
      ["markdownlint-cli", "Command line interface for MarkdownLint"],
      ["textlint", "Pluggable linting tool for text and markdown"],
      ["rustls-ffi", "C bindings to rustls, a TLS library for Rust"],
      ["analyzer", "Language server for the Rust language"],
    ]);
    expect(ranked(small, "markdown linter")[0]).toBe("markdownlint-cli");
    expect(ranked(small, "rust lsp")[0]).toBe("analyzer");
  });

  it("ranks a tool its description says is another language's below one for the language asked: 'c++ lsp' is ccls, not nixd", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["nixd", "Feature-rich Nix language server interoperating with C++ nix"],
      // An unreleased version ranks ccls below nixd, all else equal.
      ["ccls", "C/c++ language server powered by clang", "ccls", "0.20250101"],
      ["yamlfix", "Python formatter for YAML files"],
      ["ruff", "Extremely fast Python linter and code formatter"],
    ]);
    expect(ranked(small, "c++ lsp")[0]).toBe("ccls");
    // "for YAML files" says whose formatter it is, though the description names Python too.
    expect(ranked(small, "yaml formatter")[0]).toBe("yamlfix");
    expect(ranked(small, "python formatter")[0]).toBe("ruff");
    // So does a package manager's.
    const managers = smallIndex([
      ...WIDGETS,
      ["jspm", "Fast package manager for JavaScript"],
      ["pypm", "Package and dependency manager for Python projects", "pypm", "0.5"],
    ]);
    expect(ranked(managers, "fast python package manager")[0]).toBe("pypm");
    // ...and one saying whose tool it is after a word of what it is: "LSP implementation for Swift and C-based languages".
    const servers = smallIndex([
      ...WIDGETS,
      ["sourcekit-lsp", "Language Server Protocol implementation for Swift and C-based languages"],
      ["ccls", "C/c++ language server powered by clang", "ccls", "0.20250101"],
    ]);
    expect(ranked(servers, "c lsp")[0]).toBe("ccls");
  });

  it("reads a language in a top-level name its description does not say as what it is made in: 'go debugger' is no yq-go", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["yq-go", "Portable command-line YAML processor"],
      ["go-task", "Task runner / simpler Make alternative written in Go"],
      ["delve", "Debugger for the Go programming language"],
      ["tree-sitter-go", "Go grammar for tree-sitter"],
    ]);
    expect(ranked(small, "go debugger")[0]).toBe("delve");
    expect(ranked(small, "go debugger")).not.toContain("yq-go");
    expect(ranked(small, "go grammar")[0]).toBe("tree-sitter-go");
    // The whole name still finds it.
    expect(ranked(small, "yq go")[0]).toBe("yq-go");
    expect(ranked(small, "go-task")[0]).toBe("go-task");
  });

  it("finds a tool for the language asked in another of its spellings: 'verilog language server' is SystemVerilog's", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["svls", "SystemVerilog language server"],
      ["iverilog", "Compiler for the IEEE-1364 Verilog hardware description language"],
      ["verilator", "Fast and robust (System)Verilog simulator/compiler and linter"],
      // Language servers are many: a tool for Verilog that is none matched the rarer word.
      ["nil", "Nix language server"],
      ["zls", "Zig language server"],
      ["gopls", "Go language server"],
      ["taplo", "TOML language server"],
    ]);
    expect(ranked(small, "verilog language server")[0]).toBe("svls");
  });

  it("finds a shell's tool for the shell asked: 'shell lsp' is the language server for Bash", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["bash-language-server", "Language server for Bash"],
      ["shelltool", "Shell tool for running jobs"],
      ["vale-ls", "LSP implementation for the Vale command-line tool"],
    ]);
    expect(ranked(small, "shell lsp")[0]).toBe("bash-language-server");
  });

  it("finds a compiler named so: 'rust compiler' is rustc, before another compiler for Rust", () => {
    const small = smallIndex([
      ["rustc", "Safe, concurrent, practical language"],
      ["mrustc", "Alternative compiler for Rust"],
    ]);
    expect(ranked(small, "rust compiler")[0]).toBe("rustc");
  });
});

describe("an ecosystem named", () => {
  it("asks for its packages before an everyday tool outside it: 'python json parser' is not jq", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["jq", "Lightweight command-line JSON parser and processor"],
      ["python313Packages.orjson", "Fast JSON library", "python3.13-orjson"],
    ]);
    expect(ranked(small, "python json parser")[0]).toBe("python313Packages.orjson");
  });

  it("is not said by other packages' words of a package: Python libraries mentioning curl make it no Python tool", () => {
    const small = smallIndex([
      ["curl", "Command line tool and client for transferring files with URL syntax"],
      ["python313Packages.pycurl", "Python interface to libcurl and its curl client", "python3.13-pycurl"],
      ["python313Packages.uncurl", "Python client that converts curl commands to requests code", "python3.13-uncurl"],
      ["python313Packages.asyncpg", "Asyncio PostgreSQL driver", "python3.13-asyncpg"],
    ]);
    expect(ranked(small, "python driver")[0]).toBe("python313Packages.asyncpg");
  });

  it("is said by a top-level package's own words too: 'haskell formatter' is ormolu, 'A formatter for Haskell source code', before a Haskell library", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["ormolu", "A formatter for Haskell source code"],
      ["haskellPackages.prettyprint", "Combinators for text", "prettyprint", "0.1"],
      ["haskellPackages.aeson", "Fast JSON parsing"],
      ["haskellPackages.text", "Text type"],
    ]);
    expect(ranked(small, "haskell formatter")[0]).toBe("ormolu");
  });

  it("is also named as nixpkgs names its set: 'elm formatter' asks among elmPackages, 'tmux plugin' among tmuxPlugins", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["prettier", "Code formatter", "prettier", "3.6.2"],
      ["elmPackages.elm-format", "Source code formatter for Elm", "elm-format", "0.8.7"],
      ["tmux-sessionizer", "Plugin manager for sessions"],
      ["tmuxPlugins.resurrect", "Restores sessions"],
    ]);
    expect(ranked(small, "elm formatter")[0]).toBe("elmPackages.elm-format");
    expect(ranked(small, "tmux plugin")[0]).toBe("tmuxPlugins.resurrect");
  });

  it("is not said of a set's build of a top-level package ('python package manager' is no rpm), but of the set's own that top level exposes", () => {
    const rpmAt = "pkgs/tools/package-management/rpm/default.nix:143";
    const hackage = "pkgs/development/haskell-modules/hackage-packages.nix:333171";
    const small = smallIndex([
      ...WIDGETS,
      // rpm with its Python bindings: rpm's own expression, description and version.
      ["rpm", "RPM package manager", "rpm", "4.20.1", rpmAt],
      ["python313Packages.rpm", "RPM package manager", "rpm", "4.20.1", rpmAt],
      ["poetry", "Python dependency management and packaging made easy", "poetry", "2.1.0", "pkgs/by-name/po/poetry/package.nix:10"],
      // hlint is Haskell's, whose description does not say so.
      ["hlint", "Source code suggestions", "hlint", "3.8", hackage],
      ["haskellPackages.hlint", "Source code suggestions", "hlint", "3.8", hackage],
      ["codehint", "Source code suggestions", "codehint", "3.8", "pkgs/development/haskell-modules/codehint.nix:5"],
    ]);
    expect(ranked(small, "python package manager")[0]).toBe("poetry");
    // Asked for as Python's bindings, it is Python's.
    expect(ranked(small, "python rpm bindings")[0]).toBe("python313Packages.rpm");
    // Matched as Haskell's, the set's member scores far above its top-level twin, and shows.
    expect(ranked(small, "haskell source code suggestions")[0]).toBe("haskellPackages.hlint");
  });
});

describe("a word packages are named after", () => {
  it("names what the answer must be about: 'compress a pdf' is a PDF tool, not an everyday compressor", () => {
    const small = smallIndex([
      ...WIDGETS,
      // Named after PDF, as pdftk, pdfcpu and pdfarranger are; not every description says it.
      ["pdfmerge", "Joins PDF documents"],
      ["pdfview", "Shows PDF documents"],
      ["pdfcrop", "Crops documents"],
      ["pdfsign", "Signs documents"],
      ["qpdf", "Inspects and manipulates the structure of PDF files"],
      ["gzip", "Compression program"],
      ["bzip2", "High-quality data compression program"],
    ]);
    expect(ranked(small, "compress a pdf")[0]).toBe("qpdf");
  });
});

describe("a tool the query does not want", () => {
  it("is neither a word to match nor an answer: 'without docker', 'instead of make', 'friendlier than curl'", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["docker", "Builds and runs container images"],
      ["buildah", "Builds OCI images"],
      ["make", "Runs the tasks of a makefile"],
      ["just", "Runs tasks"],
      ["curl", "Command line tool for sending HTTP requests with URL syntax"],
      ["httpie", "Command line HTTP client"],
    ]);
    expect(ranked(small, "build container images without docker")[0]).toBe("buildah");
    expect(ranked(small, "run tasks instead of make")[0]).toBe("just");
    expect(ranked(small, "send http requests with a friendlier syntax than curl")[0]).toBe("httpie");
  });

  it("is all a negation names, up to the next clause: 'without the docker daemon' wants no daemon either", () => {
    const small = smallIndex([...WIDGETS, ["dockerd", "Daemon that runs containers"], ["runc", "Runs containers"]]);
    expect(ranked(small, "run containers without the docker daemon")[0]).toBe("runc");
    expect(ranked(small, "run containers as a daemon without docker")[0]).toBe("dockerd");
  });
});

describe("open ports, and ports that are no portable", () => {
  it("take 'open' before a port, connection or socket as no word of its own, and a port as no adjective made of it", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["opendoc", "Open document viewer"],
      ["yamlproc", "Portable YAML processor"],
      ["portscan", "Scans the ports of a host"],
    ]);
    expect(ranked(small, "show open ports")[0]).toBe("portscan");
    expect(ranked(small, "ports")).toEqual(["portscan"]);
  });
});

describe("what a package does without", () => {
  it("is not what it is for: 'zero-configuration', 'non-containerized' and 'daemon-less' match neither word", () => {
    const small = smallIndex([
      ...WIDGETS,
      ["litedb", "Zero-configuration database engine"],
      ["procman", "Runs non-containerized processes"],
      ["imgbuild", "Daemon-less image builder"],
      ["confman", "Configuration manager"],
    ]);
    expect(ranked(small, "configuration")).toEqual(["confman"]);
    expect(ranked(small, "container")).toEqual([]);
    expect(ranked(small, "daemon")).toEqual([]);
  });
});

describe("a description's length", () => {
  it("makes a word said in passing among many count less than in a description about it", () => {
    const small = smallIndex([
      ...WIDGETS,
      // Named alike, so that only the descriptions decide (a tie would go to the first, xa).
      ["xb", "Dissects binary formats"],
      ["xa", "Graphical suite for editing photos, painting, printing, scanning, batch renaming, slideshows and binary formats"],
    ]);
    expect(ranked(small, "binary formats")).toEqual(["xb", "xa"]);
  });
});

describe("a word package sets use", () => {
  it("is rarer than their count says: hundreds of azure-mgmt libraries do not make 'azure' a common word of tools", () => {
    const small = smallIndex([
      ...WIDGETS,
      ...Array.from({ length: 20 }, (_, i): [string, string] => [
        `python313Packages.azure-mgmt-part${i}`,
        `Microsoft Azure part ${i} Client Library`,
      ]),
      // As common among top-level packages as the words of the task are.
      ...Array.from({ length: 12 }, (_, i): [string, string] => [`tool${i}`, `Manage the terminal's resources, ${i}`]),
      ["azure-cli", "Command line experience for Azure"],
      ["e1s", "Manage AWS ECS resources in terminal"],
    ]);
    expect(ranked(small, "manage azure resources from the terminal")[0]).toBe("azure-cli");
  });
});

describe("words agents use for what descriptions say otherwise", () => {
  // Each query's answer says related words, not the query's own; the other packages say some of the
  // query's own words.
  const documents: [string, string][] = [
    ["pandoc", "Conversion between documentation formats"],
    ["latexdiff", "Marks up differences between LaTeX files"],
    ["wordgrinder", "Word processor for the terminal"],
    ["tex2rtf", "Converts TeX to RTF"],
    ["unoconv", "Convert between any document format supported by LibreOffice"],
    ["img2pdf", "Convert images to PDF"],
  ];
  const metadataAndCertificates: [string, string][] = [
    ["exiftool", "Tool to read, write and edit EXIF meta information"],
    ["stripper", "Strips debug symbols from binaries"],
    ["mkcert", "Simple tool for making locally-trusted development certificates"],
    ["certlint", "Lints certificates"],
    ["certgen", "Creates TLS keys"],
  ];
  const rustAndGoTools: [string, string][] = [
    ["cargo", "Downloads your Rust project's dependencies and builds your project"],
    ["rustup", "Rust toolchain installer"],
    ["staticcheck", "Checks Go code for bugs"],
    ["gotask", "Task runner written in Go"],
    ["gopls", "Go language server"],
  ];
  const cases: { query: string; packages: [string, string][]; found: string; within?: number }[] = [
    { query: "convert latex to word", packages: documents, found: "pandoc" },
    { query: "convert a powerpoint to pdf", packages: documents, found: "unoconv", within: 2 },
    { query: "strip metadata from images", packages: metadataAndCertificates, found: "exiftool" },
    { query: "create local tls certificates", packages: metadataAndCertificates, found: "mkcert" },
    {
      query: "makefile replacement",
      packages: [
        ["gotask", "Task runner, a simpler Make alternative"],
        ["makedepend", "Makefile dependency generator"],
        ["bmake", "Portable version of NetBSD make"],
      ],
      found: "gotask",
    },
    {
      query: "browse json interactively",
      packages: [
        ["jsonview", "Terminal JSON viewer"],
        ["jsonfmt", "Formats JSON"],
        ["jsonlint", "Checks JSON"],
        ["storetree", "Interactively browse a store's dependencies"],
      ],
      found: "jsonview",
    },
    {
      query: "explore json",
      packages: [
        ["jsonview", "Terminal JSON viewer"],
        ["jsonfmt", "Formats JSON"],
        ["jsonlint", "Checks JSON"],
        ["jsontools", "Tools for JSON"],
      ],
      found: "jsonview",
    },
    {
      // Changing a document's structure is manipulating it, not viewing it.
      query: "decrypt a pdf",
      packages: [
        ["pdfview", "PDF viewer"],
        ["pdftools", "Programs that inspect and manipulate PDF files"],
      ],
      found: "pdftools",
    },
    {
      query: "manage azure from the shell",
      packages: [
        ["azc", "Manage Azure on the command line"],
        ["aza", "Manage Azure from Python"],
        ["shellfmt", "Formats shell scripts"],
      ],
      found: "azc",
    },
    {
      query: "javascript lsp",
      packages: [
        ["tsls", "Language server for TypeScript"],
        ["lsp-tools", "Tools for language servers"],
        ["jslib", "JavaScript library"],
      ],
      found: "tsls",
    },
    {
      query: "java linter",
      packages: [
        ["checkstyle", "Checks Java source against a coding standard"],
        ["javadoc", "Generates documentation from Java source"],
        ["csslint", "Linter for CSS"],
        ["avsenc", "Encoder for the AVS video coding standard, in Java"],
      ],
      found: "checkstyle",
    },
    {
      query: "cpp lsp",
      packages: [
        ["als", "Ada language server"],
        ["ccls", "C/C++ language server"],
        ["pylsp", "Python language server"],
      ],
      found: "ccls",
    },
    { query: "golang lsp", packages: rustAndGoTools, found: "gopls" },
    {
      query: "audio recorder",
      packages: [
        ["scr", "Screen recorder"],
        ["soundtool", "Sound recorder"],
      ],
      found: "soundtool",
    },
    {
      query: "pack a repo as a tarball",
      packages: [
        ["apack", "Packs files as a tarball"],
        ["gitball", "Packs a repository as a tarball"],
      ],
      found: "gitball",
    },
    {
      query: "fsharp formatter",
      packages: [
        ["fantomas", "F# source code formatter"],
        ["fsharpformatting", "Documentation tool for F# scripts"],
        ["csharpier", "Opinionated code formatter for C#"],
      ],
      found: "fantomas",
    },
    {
      query: "csharp lsp",
      packages: [
        ["csls", "Language server for C#"],
        ["csharprepl", "C# REPL"],
        ["fsls", "F# language server"],
      ],
      found: "csls",
    },
    {
      query: "graphql lsp",
      packages: [
        ["gqlservice", "Language Service for GraphQL"],
        ["gqlclient", "GraphQL client"],
        ["pylsp", "Python language server"],
      ],
      found: "gqlservice",
    },
    {
      query: "sass linter",
      packages: [
        ["stylelint", "CSS linter"],
        ["sassc", "Sass compiler"],
        ["yamllint", "YAML linter"],
      ],
      found: "stylelint",
    },
    {
      query: "digital ocean cli",
      packages: [
        ["doctl", "Command line tool for DigitalOcean services"],
        ["oceancli", "Ocean simulation command line"],
        ["digiclock", "Digital clock for the command line"],
      ],
      found: "doctl",
    },
    { query: "rust crate manager", packages: rustAndGoTools, found: "cargo" },
    { query: "go vet alternative", packages: rustAndGoTools, found: "staticcheck" },
    {
      query: "generate a strong password",
      packages: [
        ["apg", "Random password generator"],
        ["pwcalc", "Generates passwords from a master key"],
        ["passcheck", "Password checker"],
      ],
      found: "apg",
    },
    {
      query: "capture network traffic",
      packages: [
        ["tcpdump", "Network sniffer"],
        ["grabber", "Screen capture tool"],
        ["netmon", "Network bandwidth monitor"],
      ],
      found: "tcpdump",
    },
  ];

  it.each(cases)("$query: $found", ({ query, packages, found, within = 1 }) => {
    expect(ranked(smallIndex([...WIDGETS, ...packages]), query).slice(0, within)).toContain(found);
  });
});

describe("a misspelt word", () => {
  const small = () =>
    smallIndex([
      ...WIDGETS,
      ["jsonfilter", "Filter JSON on the command line"],
      ["jsonview", "Pretty JSON viewer for the desktop"],
      ["cmdrun", "Runs a command"],
      ["cmdwait", "Waits for a command"],
      ["metatool", "Edits image metadata"],
      ["metaview", "Shows image metadata"],
      ["metadump", "Dumps metadata"],
      ["imgview", "Image viewer"],
    ]);

  it("of a longer query is read as the word one typo away that descriptions use: 'comand', 'metdata'", () => {
    const index = small();
    expect(ranked(index, "filter json on the comand line")[0]).toBe("jsonfilter");
    expect(ranked(index, "remove image metdata")[0]).toBe("metatool");
  });

  it("is a whole word: the parts of a name ('AlgorithmC3') or a path are left as they are", () => {
    const index = smallIndex([
      ...WIDGETS,
      ["perl540Packages.AlgorithmC3", "Merges hierarchies", "perl5.40-Algorithm-C3"],
      ["sorter", "Sorting algorithm"],
      ["hasher", "Hashing algorithm"],
      ["differ", "Diff algorithm"],
    ]);
    expect(ranked(index, "algorithmc3 perl")[0]).toBe("perl540Packages.AlgorithmC3");
  });

  it("is mended twice in a query at most, and in words of sixteen letters at most, so that a query of nonsense costs little", () => {
    const index = smallIndex([
      ...WIDGETS,
      ["cmdrun", "Runs a command"],
      ["cmdwait", "Waits for a command"],
      ["cmdlog", "Logs a command"],
      ["metatool", "Edits image metadata"],
      ["metaview", "Shows image metadata"],
      ["metadump", "Dumps metadata"],
      ["langtool", "Language checker"],
      ["langfmt", "Language formatter"],
      ["langlint", "Language linter"],
      ["metalong", "Metadatametadatametadata"],
      ["metalonger", "Metadatametadatametadata again"],
      ["metalongest", "Metadatametadatametadata once more"],
    ]);
    expect(ranked(index, "metdata languge")).toEqual(expect.arrayContaining(["metatool", "langtool"]));
    expect(ranked(index, "comand metdata languge")).not.toContain("langtool");
    // Nor a word longer than sixteen letters: each letter costs dozens of lookups.
    expect(ranked(index, "comand metadatametadatamexadata")).not.toContain("metalong");
  });

  it("is left as it is when fewer descriptions use the word it is one typo from, or when it is the whole query", () => {
    const index = small();
    // One word is a name, for "did you mean" to answer, not a word to respell.
    expect(ranked(index, "metdata")).toEqual([]);
    // "viewr" is one typo from "viewer", which only one description uses: no reason to read it so.
    expect(ranked(index, "json viewr")).toEqual(ranked(index, "json"));
  });

  it("is no word whose stem keeps less than half its letters: 'bitrate' is not read as 'biteate', which stems to 'bit'", () => {
    const index = smallIndex([
      ...WIDGETS,
      ["bitflip", "Flips a bit"],
      ["bitcount", "Counts every bit"],
      ["bitshow", "Shows a bit"],
      ["mediainfo", "Shows the codec of a media file"],
    ]);
    expect(ranked(index, "media bitrate")).toEqual(["mediainfo"]);
    // A letter missing in the ending is still mended, though the misspelt word's stem is longer than the word meant.
    const monitors = smallIndex([
      ...WIDGETS,
      ["netstat", "Network statistics"],
      ["netwatch", "Network monitoring"],
      ["diskwatch", "Disk monitoring"],
      ["cpuwatch", "CPU monitoring"],
    ]);
    expect(ranked(monitors, "network monitorng")[0]).toBe("netwatch");
  });

  it("is never a stopword, which no index holds: 'would' is no 'world', 'until' no 'util'", () => {
    const index = smallIndex([
      ...WIDGETS,
      ["worldmap", "Draws a world map"],
      ["atlas", "Shows the world"],
      ["globe", "Spins the world"],
      ["imgview", "Image viewer"],
    ]);
    expect(ranked(index, "which image viewer would you pick")).toEqual(["imgview"]);
  });
});

describe("two words with 'or' between them", () => {
  it("are one thing asked, either of which a package may say: 'mobi or azw3' is no package that says both", () => {
    const index = smallIndex([
      ...WIDGETS,
      // Ebook converters are many: a package saying both formats covered two words of four, this one three.
      ...Array.from({ length: 30 }, (_, i): [string, string] => [`ebook${i}`, `Ebook converter ${i}`]),
      ["tomobi", "Ebook converter to mobi"],
      ["kindleread", "Reads mobi and azw3 files"],
    ]);
    expect(ranked(index, "ebook converter for mobi or azw3")[0]).toBe("tomobi");
  });

  it("are one thing asked however many there are: 'mobi or azw3 or pdf'", () => {
    const index = smallIndex([
      ...WIDGETS,
      ...Array.from({ length: 30 }, (_, i): [string, string] => [`ebook${i}`, `Converts ebooks ${i}`]),
      ["toazw", "Converts ebooks to azw3"],
      ["mobipdf", "Reads mobi and pdf files"],
    ]);
    expect(ranked(index, "convert ebooks to mobi or azw3 or pdf")[0]).toBe("toazw");
  });
});

describe("a word's stem as a name", () => {
  it("is not one that cuts a long ending: 'system information' is no inform7, whose name is the stem 'inform'", () => {
    const index = smallIndex([...WIDGETS, ["inform7", "Design system for interactive fiction"], ["sysinfo", "System information tool"]]);
    const found = ranked(index, "show system information");
    expect(found[0]).toBe("sysinfo");
    // A plural's stem still is a name: "linters" finds lint.
    expect(ranked(smallIndex([...WIDGETS, ["lint", "Checks code"]]), "code linters")).toContain("lint");
  });
});
