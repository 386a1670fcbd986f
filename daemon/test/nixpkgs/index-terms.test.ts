// An index stores terms as search/text.ts and phrases.ts spell them, and a query is spelt the same
// way only by the same code: a change to either must bump INDEX_FORMAT_VERSION, so that indexes
// cached by an older nixshed are built again. This fingerprint of how a sample is spelt fails on
// such a change; bump the version and record the new fingerprint together.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { INDEX_FORMAT_VERSION } from "../../src/nixpkgs/index/file.js";
import { descriptionTerms, nameWords, textWords } from "../../src/nixpkgs/search/text.js";

const SAMPLE = [
  "Lightweight and flexible command-line JSON processor",
  "Converts images, imaging libraries and conversions between documentation formats",
  "Auto-formatter and debugger for OCaml code, written in pure Rust",
  "Static code analysis and style checking; a language server (LSP) for C++ and C#",
  "Take a screenshot, show listening ports, get the e-book: open source, cross-platform",
  "Pretty-printer for text-to-speech and speech recognition over e-mail; text recognition",
  "Encryption, compression, translators and validators of versions",
  "Parallelizes jobs; an optimizer and visualization of memory; a task runner, version 14.3.0",
  "Golang, csharp and fsharp as they are also written",
  "Interactively checks Docker containers, self-contained, against a coding standard or a style guide checker; a language service; open ports; zero-configuration, daemon-less",
];
const NAMES = ["python313Packages.pyOpenSSL", "typescript-language-server", "ocamlformat_0_26_0", "yq-go", "x86_64"];

describe("the spelling of index terms", () => {
  it("is the one this index format version was built with", () => {
    const spelt = JSON.stringify([SAMPLE.map(descriptionTerms), SAMPLE.map(textWords), NAMES.map(nameWords)]);
    const fingerprint = createHash("sha256").update(spelt).digest("hex").slice(0, 16);
    expect({ version: INDEX_FORMAT_VERSION, fingerprint }).toEqual({ version: 15, fingerprint: "d4aa81143b74951e" });
  });
});
