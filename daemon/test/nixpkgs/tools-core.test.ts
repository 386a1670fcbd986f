import { mkdtempSync, readFileSync, writeFileSync, mkdirSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JailBudget } from "../../src/jail/budget.js";
import { configSchema } from "../../src/config/schema.js";
import { PackageRunner } from "../../src/nixpkgs/execute/execute.js";
import { buildIndex, writeIndex } from "../../src/nixpkgs/index/build.js";
import { parseCatalog } from "../../src/nixpkgs/index/catalog.js";
import { NixpkgsIndex } from "../../src/nixpkgs/index/index.js";
import { InstalledRegistry } from "../../src/nixpkgs/tools/installed.js";
import { chooseProgram } from "../../src/nixpkgs/execute/program.js";
import { attrPath } from "../../src/nixpkgs/execute/realise.js";
import { Realiser } from "../../src/nixpkgs/execute/realiser.js";
import { relatedStems, relationsByStem } from "../../src/nixpkgs/search/synonyms.js";
import { descriptionTerms, stem, textTerms, textWords } from "../../src/nixpkgs/search/text.js";
import { decodeAttr, encodeAttr, toolNameFor } from "../../src/nixpkgs/tools/tool-names.js";

describe("tool names", () => {
  it("are valid MCP names that decode back to the attribute", () => {
    for (const attr of [
      "ripgrep",
      "python313Packages.requests",
      "poppler_utils",
      "yq-go",
      "a.b_c.d__e",
      "haskellPackages.foo'",
      "nodePackages.@angular/cli",
      "ghostscript_headless",
      "a_.b",
      "a_@b",
      "a_x41_b",
      "trailing_",
      "a._b",
      "_lead",
    ]) {
      const name = toolNameFor(attr, new Set());
      expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(decodeAttr(name.slice("nixpkgs_".length))).toBe(attr);
    }
    expect(encodeAttr("python313Packages.requests")).toBe("python313Packages__requests");
    // A "_" stays itself where it reads back so: no "_u" in ghostscript_headless or hexdumper_1.
    expect(encodeAttr("ghostscript_headless")).toBe("ghostscript_headless");
    expect(encodeAttr("hexdumper_1")).toBe("hexdumper_1");
  });

  it("avoid names already taken, and stay within 64 characters", () => {
    expect(toolNameFor("search", new Set(["nixpkgs_search"]))).toBe("nixpkgs_search-2");
    expect(toolNameFor("jq", new Set(["nixpkgs_jq", "nixpkgs_jq-2"]))).toBe("nixpkgs_jq-3");
    const long = "a".repeat(80);
    const name = toolNameFor(long, new Set());
    expect(name.length).toBeLessThanOrEqual(64);
    expect(toolNameFor(long, new Set([name]))).not.toBe(name);
  });
});

describe("program choice", () => {
  const realised = (programs: string[], mainProgram: string | null = null, pname = "pkg") => ({
    artifact: "/x",
    programs,
    mainProgram,
    pname,
  });

  it("takes the one asked for, else mainProgram, else the package's name, else the only one", () => {
    const program = (...args: Parameters<typeof chooseProgram>) => chooseProgram(...args).program;
    expect(program("p", realised(["a", "b"], "a"), "b")).toBe("b");
    expect(program("p", realised(["rg"], "rg", "ripgrep"))).toBe("rg");
    expect(program("p", realised(["jq", "other"], null, "jq"))).toBe("jq");
    expect(program("p", realised(["xxd"], null, "hexdumper"))).toBe("xxd");
  });

  it("takes the program the arguments start with when the package has no main one, and only then", () => {
    expect(chooseProgram("coreutils", realised(["cat", "wc"]), undefined, ["wc", "-l", "f"])).toEqual({ program: "wc", args: ["-l", "f"] });
    expect(chooseProgram("coreutils", realised(["cat", "echo"]), "echo", ["echo"])).toEqual({ program: "echo", args: ["echo"] });
    expect(chooseProgram("p", realised(["jq", "other"], "jq"), undefined, ["other"])).toEqual({ program: "jq", args: ["other"] });
  });

  it("says which programs exist when it cannot choose", () => {
    expect(() => chooseProgram("coreutils", realised(["ls", "cat"]))).toThrow(/several programs/);
    expect(() => chooseProgram("coreutils", realised(["ls", "cat"]), "nope")).toThrow(/no program 'nope'/);
    expect(() => chooseProgram("lib", realised([]))).toThrow(/no programs/);
  });
});

const budget = new JailBudget(1, 0);

describe("the runner's per-call limits", () => {
  // Refused before anything is realised: this runner has no nixpkgs to realise from at all.
  const config = configSchema.parse({ sandbox: { max_stdin_bytes: 2048, max_timeout_seconds: 5 }, nixpkgs: { run_timeout_seconds: 5 } });
  const runner = new PackageRunner({ config, discovered: {}, projectRoot: tmpdir(), cacheDir: tmpdir(), budget, index: () => undefined });

  it("come from sandbox.max_stdin_bytes and sandbox.max_timeout_seconds, and name the key to raise", async () => {
    await expect(runner.execute({ attr: "jq", stdin: "x".repeat(2049) })).rejects.toMatchObject({
      message: "stdin is 2049 bytes, above the limit of 2048",
      hint: expect.stringMatching(/sandbox\.max_stdin_bytes/),
    });
    await expect(runner.execute({ attr: "jq", timeoutSeconds: 6 })).rejects.toMatchObject({
      message: "timeout_seconds 6 is above the limit of 5",
      hint: expect.stringMatching(/sandbox\.max_timeout_seconds/),
    });
    expect(() => runner.checkTimeout(6)).toThrow(/above the limit of 5/);
    expect(() => runner.checkTimeout(5)).not.toThrow();
  });

  it("let a call at the limits through to realising the package", async () => {
    await expect(runner.execute({ attr: "jq", stdin: "x".repeat(2048), timeoutSeconds: 5 })).rejects.toThrow(
      /no nixpkgs to realise packages from/,
    );
  });

  it("cap nixpkgs.run_timeout_seconds at sandbox.max_timeout_seconds rather than refuse a call that asked for no limit", async () => {
    const capped = configSchema.parse({ sandbox: { max_timeout_seconds: 5 }, nixpkgs: { run_timeout_seconds: 60 } });
    const capping = new PackageRunner({
      config: capped,
      discovered: {},
      projectRoot: tmpdir(),
      cacheDir: tmpdir(),
      budget,
      index: () => undefined,
    });
    await expect(capping.execute({ attr: "jq" })).rejects.toThrow(/no nixpkgs to realise packages from/);
    await expect(capping.execute({ attr: "jq", timeoutSeconds: 60 })).rejects.toThrow(/above the limit of 5/);
  });
});

describe("the package a call names, read against an index", () => {
  // Shaped like a nix-env listing, which has each derivation once under one name: python3 is there
  // only as python313Packages.python (and as the pname of a python3.withPackages environment), nodejs
  // as nodePackages.nodejs; ghc not at top level at all.
  const catalog = {
    ripgrep: { name: "ripgrep-14", pname: "ripgrep", version: "14", meta: { description: "Search", mainProgram: "rg" } },
    jupyter: { name: "python3-3.13-env", pname: "python3", version: "3.13", meta: { description: "Jupyter environment" } },
    "python313Packages.python": { name: "python3-3.13", pname: "python3", version: "3.13", meta: { description: "Python" } },
    "python313Packages.requests": { name: "python3.13-requests-2", pname: "requests", version: "2", meta: { description: "HTTP" } },
    "haskell.compiler.ghc98": { name: "ghc-9.8", pname: "ghc", version: "9.8", meta: { description: "Haskell compiler" } },
  };
  const path = join(mkdtempSync(join(tmpdir(), "nixshed-resolve-")), "index");
  writeIndex(path, buildIndex(parseCatalog(JSON.stringify(catalog), "fixture"), "fixture"));
  const index = NixpkgsIndex.load(path);
  const config = configSchema.parse({});
  const runner = new PackageRunner({ config, discovered: {}, projectRoot: tmpdir(), cacheDir: tmpdir(), budget, index: () => index });

  it("maps a program to its package and a set's alias to its member", () => {
    expect(runner.resolve("rg")).toEqual({ attr: "ripgrep", program: "rg" });
    expect(runner.resolve("python3Packages.requests")).toMatchObject({ attr: "python3Packages.requests" });
  });

  it("leaves a name the listing lacks to Nix, never to another package of that pname", () => {
    // python3 is the pname of jupyter's environment too: it must not run jupyter.
    expect(runner.resolve("python3")).toEqual({ attr: "python3", program: undefined });
    expect(runner.resolve("ghc")).toEqual({ attr: "ghc", program: undefined });
  });

  it("refuses what is no attribute path before anything keeps it, index or not", () => {
    expect(() => runner.resolve('a"b')).toThrow(/not a nixpkgs attribute path/);
    const unindexed = new PackageRunner({
      config,
      discovered: {},
      projectRoot: tmpdir(),
      cacheDir: tmpdir(),
      budget,
      index: () => undefined,
    });
    expect(() => unindexed.resolve("a..b")).toThrow(/not a nixpkgs attribute path/);
  });
});

describe("where packages are realised from", () => {
  const realiser = (source: string) =>
    new Realiser({ config: configSchema.parse({ nixpkgs: { source } }), discovered: {}, projectRoot: tmpdir(), cacheDir: tmpdir() });

  it("is no nixpkgs at all when nixpkgs.source is a path that does not exist", () => {
    expect(realiser("/nonexistent/nixpkgs").unavailable()).toMatchObject({
      message: "nixpkgs.source /nonexistent/nixpkgs does not exist",
      hint: expect.stringMatching(/nixpkgs\.source/),
    });
    expect(realiser("./no-nixpkgs-here").unavailable()?.message).toBe(`nixpkgs.source ${join(tmpdir(), "no-nixpkgs-here")} does not exist`);
  });

  it("takes a path that exists, and a flake ref or a channel as it is", () => {
    expect(realiser(tmpdir()).unavailable()).toBeUndefined();
    expect(realiser(tmpdir()).source()).toEqual({ path: tmpdir() });
    expect(realiser("github:NixOS/nixpkgs/nixos-unstable").source()).toEqual({ flake: "github:NixOS/nixpkgs/nixos-unstable" });
    expect(realiser("nixpkgs").unavailable()).toBeUndefined();
  });
});

describe("attribute paths", () => {
  it("split into components and refuse what is not an attribute path", () => {
    expect(attrPath("python3Packages.requests")).toEqual(["python3Packages", "requests"]);
    for (const bad of ["", "a..b", "a b", "\u0024{x}", 'a"b']) expect(() => attrPath(bad)).toThrow(/not a nixpkgs attribute path/);
    // Too long to be one, and for nix to be given (E2BIG); the message shows its start, not all of it.
    expect(() => attrPath("a".repeat(100_000))).toThrow(/^'a{60}… \(100000 characters\)' is not a nixpkgs attribute path$/);
  });
});

describe("the installed-tools registry", () => {
  it("persists across instances and sets an unreadable file aside", () => {
    const state = mkdtempSync(join(tmpdir(), "nixshed-registry-"));
    const first = new InstalledRegistry(state, () => {});
    first.add({ name: "nixpkgs_jq", attr: "jq", defaultArgs: ["-c"] });
    first.add({ name: "nixpkgs_rg", attr: "ripgrep" });
    first.remove("nixpkgs_rg");
    expect(new InstalledRegistry(state, () => {}).all()).toEqual([{ name: "nixpkgs_jq", attr: "jq", defaultArgs: ["-c"] }]);

    writeFileSync(first.path, "{ not json");
    const warnings: string[] = [];
    expect(new InstalledRegistry(state, (w) => warnings.push(w)).all()).toEqual([]);
    expect(warnings[0]).toMatch(/unreadable/);
    expect(readFileSync(`${first.path}.unreadable`, "utf8")).toBe("{ not json");
  });

  it("starts empty without a state file", () => {
    const state = join(mkdtempSync(join(tmpdir(), "nixshed-registry-")), "new");
    mkdirSync(state);
    expect(new InstalledRegistry(state, () => {}).all()).toEqual([]);
    expect(existsSync(join(state, "nixpkgs"))).toBe(false);
  });
});

describe("stemming", () => {
  it("makes the forms agents and descriptions use meet", () => {
    for (const [a, b] of [
      ["images", "image"],
      ["imaging", "image"],
      ["libraries", "library"],
      ["converter", "convert"],
      ["conversion", "convert"],
      ["documentation", "document"],
      ["encryption", "encrypt"],
      ["parallelize", "parallel"],
      ["optimization", "optimizer"],
      ["visualize", "visual"],
      ["runner", "run"],
      ["searchable", "searched"],
      ["executable", "execute"],
      ["compressible", "compress"],
      ["losslessly", "lossless"],
      ["locally", "local"],
      ["automatically", "automatic"],
      ["securely", "secure"],
      ["quickly", "quick"],
      ["interactively", "interactive"],
    ])
      expect(stem(a!), `${a} ~ ${b}`).toBe(stem(b!));
    // A short adjective keeps its ending: what is portable is no port, a table no t.
    expect(stem("portable")).not.toBe(stem("port"));
    // Nouns ending in -ly are no adverbs: they meet their plurals.
    for (const [noun, plural] of [
      ["assembly", "assemblies"],
      ["family", "families"],
      ["anomaly", "anomalies"],
    ])
      expect(stem(noun!), noun).toBe(stem(plural!));
    expect(textTerms("A tool for the C++ and Python")).toEqual(["tool", "c++", "python"]);
    // How much says nothing of what: "really" was the rarest word of "search file contents recursively, really fast".
    expect(textTerms("really fast, blazingly fast")).toEqual(["fast", "fast"]);
    // Reading the text of an image is OCR, however it is asked; the text of a PDF is not.
    expect(textWords("read text from a scanned image")).toContain("ocr");
    expect(textWords("extract text from a pdf")).not.toContain("ocr");
    // Every core and two ways, however said: "using all cpu cores" is what "for multi-core machines" says.
    expect(textWords("compress a file using all cpu cores")).toContain("multicore");
    expect(textWords("show the temperature of all cpu cores")).not.toContain("multicore");
    expect(textWords("Parallel implementation of gzip for multi-core machines")).toContain("multicore");
    expect(textWords("two way sync of folders")).toContain("bidirectional");
    // What a linter does, in other words: "perl linter" is Perl::Critic, "ansible linter" ansible-lint.
    expect(textWords("Critique Perl source code for best-practices")).toContain("linter");
    expect(textWords("Best practices checker for Ansible")).toContain("linter");
    expect(textWords("Bi-directional file synchronizer")).toContain("bidirectional");
    // A verb with "up" is one word, as descriptions write it; "up" alone says nothing ("taking up disk space", "speed up").
    expect(textTerms("look up dns records")).toEqual(textTerms("lookup DNS records"));
    expect(textTerms("back up files")).toEqual(textTerms("backup files"));
    expect(textTerms("backing up files")).toEqual(textTerms("backup files"));
    expect(textTerms("what is taking up disk space")).toEqual(textTerms("taking disk space"));
    // Light verbs an agent leads with say nothing of the package.
    expect(textTerms("show listening ports")).toEqual(textTerms("listening ports"));
    // A kind of tool is not the word it comes from: a formatter is not a format.
    expect(stem("formatters")).not.toBe(stem("formats"));
    expect(stem("formatting")).toBe(stem("format"));
    // ...but it is related to that word's relations, not to "format" itself: in a description that is a file format.
    expect(relatedStems(stem("formatter"))).toEqual(expect.arrayContaining([stem("reformat"), stem("indent")]));
    expect(relatedStems(stem("formatter"))).not.toContain(stem("format"));
    // "sync" is how agents write what descriptions call synchronization (syncthing), and "multithreaded" what they call parallel (pigz).
    expect(relatedStems(stem("sync"))).toContain(stem("synchronization"));
    expect(relatedStems(stem("multithreaded"))).toContain(stem("parallel"));
    // What is committed is in git; an API key is a secret ("find api keys committed to a repository": gitleaks, "Scan git repos for secrets").
    expect(relatedStems(stem("committed"))).toContain(stem("git"));
    expect(textWords("find leaked API keys")).toContain("apikey");
    expect(relatedStems(stem("apikey"))).toContain(stem("secrets"));
    // EC2 and Lambda are AWS's: "manage ec2 instances" is the AWS CLI.
    expect(relatedStems(stem("ec2"))).toContain(stem("aws"));
    expect(relatedStems(stem("lambda"))).toContain(stem("aws"));
    expect(relatedStems(stem("x11"))).toContain("x");
    // Two entries of one stem are refused, not one silently replacing the other.
    expect(() => relationsByStem({ sniff: ["packet"], sniffer: ["network"] })).toThrow(/"sniffer" has the stem of an earlier entry/);
    expect(relationsByStem({ sniffer: ["packets", "capture"] })).toEqual(new Map([[stem("sniffer"), [stem("packets"), stem("capture")]]]));
    // What a package is made of is not what it is for.
    expect(descriptionTerms("Markdown language server written in pure Rust")).not.toContain("rust");
    expect(descriptionTerms("Formatter for Rust code, made in Go")).toEqual(textTerms("Formatter for Rust code"));
    // Nor is which release it is.
    expect(descriptionTerms("GNU Compiler Collection, version 14.3.0 (wrapper script)")).not.toContain(stem("version"));
  });
});
