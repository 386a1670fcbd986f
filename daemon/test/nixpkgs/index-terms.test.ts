// An index stores terms as search/text.ts and phrases.ts spell them, and a query is spelt the same
// way only by the same code: a change to either, or to what an index holds (groups, factors, flags),
// must bump INDEX_FORMAT_VERSION, so that indexes cached by an older nixshed are built again. These
// fingerprints, of how a sample is spelt and of the index a small catalog builds, fail on such a
// change; bump the version and record the new fingerprints together.
import { createHash } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { buildIndex } from "../../src/nixpkgs/index/build.js";
import { parseCatalog } from "../../src/nixpkgs/index/catalog.js";
import { INDEX_FORMAT_VERSION } from "../../src/nixpkgs/index/file.js";
import { descriptionTerms, nameWords, textWords } from "../../src/nixpkgs/search/text.js";
import { implementationLanguages, withoutImplementation } from "../../src/nixpkgs/search/tool-languages.js";

const fingerprintOf = (data: string | Buffer) => createHash("sha256").update(data).digest("hex").slice(0, 16);

const SAMPLE = [
  "Lightweight and flexible command-line JSON processor",
  "Converts images, imaging libraries and conversions between documentation formats",
  "Auto-formatter and debugger for OCaml code, written in pure Rust",
  "Document viewer written in portable C, an editor built in ANSI C",
  "Native SSHv2 protocol library with GTK4 widgets for Python3, not mp3, x264 or ipv6",
  "Static code analysis and style checking; a language server (LSP) for C++ and C#",
  "Take a screenshot, show listening ports, get the e-book: open source, cross-platform",
  "Pretty-printer for text-to-speech and speech recognition over e-mail; text recognition",
  "Encryption, compression, translators and validators of versions; comma-separated values",
  "Parallelizes jobs; an optimizer and visualization of memory; a task runner, version 14.3.0",
  "Golang, csharp and fsharp as they are also written; C++17, regular expressions and an object-relational mapper",
  "How do I do it the best way; what it does; I would like one; see which ports are open for Let's Encrypt",
  "Which one should I use, could you recommend or suggest one that helps one looking for lets; how many lines, which system calls",
  "Text\nto speech over a command  line, static_analysis; friendlier and easier than an identifier",
  "Interactively checks Docker containers, self-contained, against a coding standard or a style guide checker; a language service; open ports; zero-configuration, daemon-less",
  "Losslessly and locally, really blazing fast; two-way sync using all cpu cores on multi-core machines; critiques code, a best practices checker",
  "Look up, back up, clean up and set up what is taking up space, to speed up builds, backing up and looking it up; API keys and api-key",
  "Fixes PHP coding standards and checks for errors in LaTeX documents; real-time one-time passwords; reads text aloud; how long it takes; only changed files; symbolic math, a CAS",
];
const NAMES = ["python313Packages.pyOpenSSL", "typescript-language-server", "ocamlformat_0_26_0", "yq-go", "x86_64"];

/** Packages of each kind an index treats apart: versions in sets and at top level, builds, programs, flags. */
const CATALOG = {
  jq: {
    pname: "jq",
    version: "1.8.1",
    meta: { description: "Lightweight and flexible command-line JSON processor", mainProgram: "jq", maintainers: [{}, {}] },
  },
  neovim: { pname: "neovim", version: "0.11.4", meta: { description: "Vim text editor fork", homepage: "https://neovim.io" } },
  "neovim-unwrapped": { pname: "neovim-unwrapped", version: "0.11.4", meta: { description: "Vim text editor fork" } },
  mpv: { pname: "mpv-with-scripts", version: "0.40.0", meta: { description: "General-purpose media player" } },
  "mpv-unwrapped": { pname: "mpv", version: "0.40.0", meta: { description: "General-purpose media player" } },
  gcc: { pname: "gcc", version: "14.3.0", meta: { description: "GNU Compiler Collection" } },
  gfortran: { pname: "gfortran", version: "14.3.0", meta: { description: "GNU Compiler Collection" } },
  crystal: { pname: "crystal", version: "1.17.1", meta: { description: "Compiled language with Ruby like syntax" } },
  crystal_1_14: { pname: "crystal", version: "1.14.1", meta: { description: "Compiled language with Ruby like syntax" } },
  ruff: { pname: "ruff", version: "0.13.1", meta: { description: "Extremely fast Python linter and code formatter" } },
  pdm: { pname: "pdm", version: "2.25.9", meta: { description: "Package manager for Python" } },
  libpcap: { pname: "libpcap", version: "1.10.5", meta: { description: "Packet Capture Library", platforms: ["x86_64-linux"] } },
  "python313Packages.requests": { pname: "requests", version: "2.32.5", meta: { description: "HTTP library for Python" } },
  "python312Packages.requests": { pname: "requests", version: "2.32.5", meta: { description: "HTTP library for Python" } },
  "haskellPackages.hlint": { pname: "hlint", version: "3.10", meta: { description: "Source code suggestions", broken: true } },
  curl: {
    pname: "curl",
    version: "8.15.0",
    outputs: { bin: null, dev: null, out: null },
    meta: { description: "Command line tool for transferring files" },
  },
  golint: { pname: "golint", version: "2020-12-08", meta: { description: "Linter for Go source code" } },
  "rust-analyzer": { pname: "rust-analyzer", version: "2025-08-25", meta: { description: "Modular compiler frontend for Rust" } },
  unfreething: { pname: "unfreething", version: "1", meta: { description: "A pretty-printer", unfree: true, license: { free: false } } },
};

describe("the spelling of index terms", () => {
  it("is the one this index format version was built with", () => {
    const spelt = JSON.stringify([SAMPLE.map(descriptionTerms), SAMPLE.map(textWords), NAMES.map(nameWords)]);
    expect({ version: INDEX_FORMAT_VERSION, fingerprint: fingerprintOf(spelt) }).toEqual({ version: 73, fingerprint: "0fbc8446aa69da11" });
  });
});

describe("a name with its version in a description", () => {
  it("says the name too when its letters before the version, or a v, are a word of three", () => {
    expect(descriptionTerms("SSHv2 GTK4 ipv6 mp3 x264")).toEqual(["sshv2", "ssh", "gtk4", "gtk", "ipv6", "mp3", "x264"]);
  });
});

describe("what a description says a package is made in", () => {
  it("is a language's family, said as 'written in' or '-based', and nothing else so said", () => {
    expect(implementationLanguages("Modern shell written in pure Rust")).toEqual(["rust"]);
    expect(implementationLanguages("Go-based static site generator")).toEqual(["go"]);
    expect(implementationLanguages("Linter implemented in TypeScript")).toEqual(["javascript"]);
    expect(implementationLanguages("Web-based editor, built in a day")).toEqual([]);
  });

  it("is taken out of a query only where it names a language: 'built in a day' stays", () => {
    expect(withoutImplementation("task runner written in pure rust")).toBe("task runner");
    expect(withoutImplementation("editor built in a day, Go-based")).toBe("editor built in a day,");
  });
});

describe("the index a catalog builds", () => {
  it("is the one this index format version was built with", () => {
    vi.useFakeTimers({ now: new Date("2025-09-27T00:00:00Z") });
    try {
      const index = buildIndex(parseCatalog(JSON.stringify(CATALOG), "fixture"), "fixture");
      expect({ version: INDEX_FORMAT_VERSION, fingerprint: fingerprintOf(index) }).toEqual({
        version: 73,
        fingerprint: "6a559bd662c130ba",
      });
    } finally {
      vi.useRealTimers();
    }
  });
});
