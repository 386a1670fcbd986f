import { describe, expect, it } from "vitest";
import { findMentions } from "../../src/nixpkgs/index/mentions.js";
import { catalogEntry } from "./catalog-fixture.js";

const entry = (attr: string, description: string) =>
  catalogEntry({ attr, pname: attr.split(".").pop()!, version: "1.0", description, homepage: "" });

/** Many descriptions saying `phrase`, each a package of its own. */
const saying = (prefix: string, count: number, phrase: (i: number) => string) =>
  Array.from({ length: count }, (_, i) => entry(`${prefix}${i}`, phrase(i)));

describe("what other packages say of a package", () => {
  it("counts a name other descriptions use for it, and keeps their words as its context", () => {
    const entries = [
      entry("pandoc", "Conversion between documentation formats"),
      ...saying("filter", 60, () => "Pandoc filter for markdown"),
    ];
    const mentions = findMentions(entries);
    expect(mentions.count[0]).toBe(60);
    expect(mentions.context[0]).toContain("markdown");
  });

  it("takes no mention from a name descriptions use as an ordinary word: 'CPU usage' names no package usage", () => {
    const entries = [entry("usage", "Specification for CLIs"), ...saying("monitor", 60, (i) => `Tool ${i} to monitor cpu usage`)];
    const mentions = findMentions(entries);
    expect(mentions.count[0]).toBe(0);
    expect(mentions.context[0]).toEqual([]);
  });

  it("still counts a name fewer descriptions write, all in lowercase ('tmux plugin')", () => {
    const entries = [entry("tmux", "Terminal multiplexer"), ...saying("plugin", 20, () => "Session saver, a tmux plugin")];
    expect(findMentions(entries).count[0]).toBe(20);
  });
});

describe("a name of two letters", () => {
  it("is mentioned by the parts of other packages' attributes ('gh-dash'), not by prose, where it is too often another word", () => {
    const entries = [
      entry("gh", "GitHub CLI tool"),
      entry("gh-dash", "Dashboard of pull requests"),
      entry("gh-notify", "Notifications"),
      entry("sd", "Intuitive find and replace"),
      ...saying("card", 5, (i) => `Writes images ${i} to an SD card`),
    ];
    const mentions = findMentions(entries);
    expect(mentions.count[0]).toBe(2);
    expect(mentions.count[3]).toBe(0);
  });

  it("is mentioned once by a set's members that start with it, and never by a part after another", () => {
    const entries = [
      entry("cl", "Common Lisp implementation"),
      ...Array.from({ length: 30 }, (_, i) => entry(`sbclPackages.cl-lib${i}`, "Lisp library")),
      entry("fd", "Simple alternative to find"),
      entry("haskellPackages.monads-fd", "Monad classes"),
      entry("haskellPackages.ref-fd", "References"),
    ];
    const mentions = findMentions(entries);
    expect(mentions.count[0]).toBe(1);
    expect(mentions.count[31]).toBe(0);
  });
});

describe("a name two top-level packages answer to", () => {
  const program = (attr: string, mainProgram: string, description: string) =>
    catalogEntry({ attr, pname: attr, version: "1.0", description, homepage: "", mainProgram });

  it("is the one's whose description says what its mentioners say: Helm charts are kubernetes-helm's (program helm), not the synthesizer helm's", () => {
    const entries = [
      entry("helm", "Free, cross-platform, polyphonic synthesizer"),
      program("kubernetes-helm", "helm", "Package manager for kubernetes"),
      ...saying("chart", 5, (i) => `Deploys Helm charts ${i} to kubernetes`),
    ];
    const mentions = findMentions(entries);
    expect(mentions.count[0]).toBe(0);
    expect(mentions.count[1]).toBe(5);
    expect(mentions.context[1]).toContain("chart");
  });

  it("is the package's named so itself when neither says what its mentioners say", () => {
    const entries = [
      entry("helm", "Free, cross-platform, polyphonic synthesizer"),
      program("kubernetes-helm", "helm", "Package manager for kubernetes"),
      ...saying("tool", 5, (i) => `Works with helm ${i} quickly`),
    ];
    const mentions = findMentions(entries);
    expect([mentions.count[0], mentions.count[1]]).toEqual([5, 0]);
  });

  it("counts a mentioner once however many of the package's names it says ('kubernetes-helm' is helm too)", () => {
    const entries = [
      entry("helm", "Free, cross-platform, polyphonic synthesizer"),
      program("kubernetes-helm", "helm", "Package manager for kubernetes"),
      ...saying("plugin", 3, (i) => `Plugin ${i} for kubernetes-helm`),
    ];
    const mentions = findMentions(entries);
    expect([mentions.count[0], mentions.count[1]]).toEqual([0, 3]);
  });

  it("is no name of a program that no other top-level package is named ('Uses jq' names no jq-fork whose program is jq)", () => {
    const entries = [program("jq-fork", "jq", "Command-line JSON processor"), ...saying("script", 5, (i) => `Script ${i} that uses jq`)];
    expect(findMentions(entries).count[0]).toBe(0);
  });
});
