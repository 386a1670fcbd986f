// A small catalog in nix-env's format (what a fresh evaluation prints), for unit tests; and one parsed entry.
import type { CatalogEntry } from "../../src/nixpkgs/index/catalog.js";

/** A package as the catalog parser gives it: a plain tool, with `fields` instead. */
export const catalogEntry = (fields: Partial<CatalogEntry>): CatalogEntry => ({
  attr: "sometool",
  pname: "sometool",
  version: "0.4.2",
  description: "Does something",
  homepage: "https://github.com/someone/sometool",
  license: "",
  mainProgram: "",
  platforms: null,
  maintainers: 1,
  hasManPages: false,
  hasHeaders: false,
  position: "",
  broken: false,
  unfree: false,
  insecure: false,
  ...fields,
});

export const NIX_ENV_CATALOG = {
  ripgrep: {
    name: "ripgrep-14.1.1",
    pname: "ripgrep",
    version: "14.1.1",
    meta: {
      description: "Utility that combines the usability of The Silver Searcher with the raw speed of grep",
      homepage: "https://github.com/BurntSushi/ripgrep",
      license: [
        { spdxId: "Unlicense", free: true },
        { spdxId: "MIT", free: true },
      ],
      mainProgram: "rg",
      platforms: ["x86_64-linux", "aarch64-darwin"],
      maintainers: [{ github: "a" }, { github: "b" }],
    },
  },
  jq: {
    name: "jq-1.8.1",
    pname: "jq",
    version: "1.8.1",
    meta: {
      description: "Lightweight and flexible command-line JSON processor",
      license: { spdxId: "MIT", free: true },
      mainProgram: "jq",
    },
  },
  imagemagick: {
    name: "imagemagick-7.1.2-3",
    pname: "imagemagick",
    version: "7.1.2-3",
    meta: { description: "Software suite to create, edit, compose, or convert bitmap images" },
  },
  "python312Packages.requests": {
    name: "python3.12-requests-2.32.4",
    pname: "python3.12-requests",
    version: "2.32.4",
    meta: { description: "HTTP library for Python" },
  },
  "python313Packages.requests": {
    name: "python3.13-requests-2.32.4",
    pname: "python3.13-requests",
    version: "2.32.4",
    meta: { description: "HTTP library for Python" },
  },
  "haskellPackages.rg": { name: "rg-1.4", pname: "rg", version: "1.4", meta: { description: "A dynamic alternative to Bounded Enum" } },
  "old-grep": { name: "old-grep-1", pname: "old-grep", version: "1", meta: { description: "A grep that no longer builds", broken: true } },
  "proprietary-grep": {
    name: "proprietary-grep-2",
    pname: "proprietary-grep",
    version: "2",
    meta: { description: "A grep you may not share", license: { shortName: "unfree", free: false } },
  },
  // A formatter named like the word, and the Python one an agent asking for "python formatter" means.
  formatter: { name: "formatter-1", pname: "formatter", version: "1", meta: { description: "Simple formatter for your desktop" } },
  "python313Packages.black": {
    name: "python3.13-black-25.1.0",
    pname: "python3.13-black",
    version: "25.1.0",
    meta: { description: "Uncompromising code formatter" },
  },
  "ferris-ls": {
    name: "ferris-ls-1",
    pname: "ferris-ls",
    version: "1",
    meta: { description: "Language Server Protocol implementation for Rust" },
  },
  // Haskell's language server, and a Haskell library whose name spells "haskell lsp".
  "haskell-language-server": {
    name: "haskell-language-server-2.11",
    pname: "haskell-language-server",
    version: "2.11",
    meta: { description: "Language server for Haskell" },
  },
  "haskellPackages.haskell-lsp": {
    name: "haskell-lsp-0.24",
    pname: "haskell-lsp",
    version: "0.24",
    meta: { description: "Types of an old protocol" },
  },
  // A database whose name is also an ecosystem word (its extensions are a package set), and one of those extensions.
  postgresql: { name: "postgresql-17.6", pname: "postgresql", version: "17.6", meta: { description: "Object-relational database system" } },
  "postgresql17Packages.pg-http": {
    name: "pg-http-1.6",
    pname: "pg-http",
    version: "1.6",
    meta: { description: "HTTP client for PostgreSQL" },
  },
  // A program for a task, and a Python library whose name is the task's two words.
  "task-tool": { name: "task-tool-3.1", pname: "task-tool", version: "3.1", meta: { description: "Command runner for projects" } },
  "python313Packages.command-runner": {
    name: "python3.13-command-runner-0.1",
    pname: "python3.13-command-runner",
    version: "0.1",
    meta: { description: "Platform agnostic command execution" },
  },
  // A converter whose own description never says "slides"; the packages that name it do.
  docconv: { name: "docconv-3", pname: "docconv", version: "3", meta: { description: "Conversion between documentation formats" } },
  "docconv-beamer": {
    name: "docconv-beamer-1",
    pname: "docconv-beamer",
    version: "1",
    meta: { description: "Filter for presentation slides" },
  },
  "reveal-notes": {
    name: "reveal-notes-1",
    pname: "reveal-notes",
    version: "1",
    meta: { description: "Speaker notes for slides made with docconv" },
  },
  "slideshow-viewer": { name: "slideshow-viewer-1", pname: "slideshow-viewer", version: "1", meta: { description: "Shows slides" } },
  "mac-only-tool": {
    name: "mac-only-tool-1",
    pname: "mac-only-tool",
    version: "1",
    meta: { description: "Resize windows", platforms: ["aarch64-darwin"] },
  },
};

/** The same shape the channel's packages.json has: wrapped, without license or mainProgram. */
export const CHANNEL_CATALOG = {
  version: 2,
  packages: {
    ripgrep: {
      name: "ripgrep-14.1.1",
      pname: "ripgrep",
      version: "14.1.1",
      meta: { description: "Fast grep", platforms: ["x86_64-linux"] },
    },
    "perl540Packages.Foo": { name: "perl5.40-Foo-1", pname: "perl5.40-Foo", version: "1", meta: {} },
  },
};
