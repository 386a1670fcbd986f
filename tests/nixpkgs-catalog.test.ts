// The real nixos-unstable catalog (129,815 packages) through `nixshed index build` and
// `nixshed search`: the index builds, and agent-style queries find the right package in the top 5.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { NixpkgsIndex } from "../daemon/src/nixpkgs/index/index.js";
import { answerSearch } from "../daemon/src/nixpkgs/search/nothing-found.js";
import { searchIndex } from "../daemon/src/nixpkgs/search/search.js";
import { CLI } from "../daemon/test/support/mcp-client.js";

const CATALOG = fileURLToPath(new URL("../../shared/data/nixpkgs-unstable-2025-09-27.packages.json.br", import.meta.url));
type QuerySet = { queries: { query: string; expect: string[] }[] };
const readQueries = (file: string) => JSON.parse(readFileSync(new URL(`./fixtures/${file}`, import.meta.url), "utf8")) as QuerySet;
const QUERIES = readQueries("nixpkgs-queries.json");
/** The agent-style set the ranking is tuned on (`npm run bench -- search` reports it per kind, beside its held-out half). */
const DEV = readQueries("nixpkgs-queries-dev.json");

let indexPath: string;
let index: NixpkgsIndex;
/** The attributes of a query's first `limit` results on Linux. */
const attrsOf = (query: string, limit: number) =>
  searchIndex(index, query, { limit, platform: "x86_64-linux" }).map((result) => result.attr);
/** Each query's first result is the package named beside it. */
const expectFirsts = (cases: [query: string, first: string][]) => {
  for (const [query, first] of cases) expect(attrsOf(query, 1)[0], query).toBe(first);
};

beforeAll(() => {
  indexPath = join(mkdtempSync(join(tmpdir(), "nixshed-catalog-")), "nixpkgs.idx");
  execFileSync(process.execPath, [CLI, "index", "build", "--from", CATALOG, "--out", indexPath], { stdio: "pipe" });
  index = NixpkgsIndex.load(indexPath);
});

describe("the real catalog", () => {
  it("indexes every package into a compact file", () => {
    expect(index.size).toBe(129_815);
    expect(statSync(indexPath).size).toBeLessThan(60e6);
  });

  const topFiveRate = ({ queries }: QuerySet) => {
    const misses = queries.filter(({ query, expect: wanted }) => {
      const top = searchIndex(index, query, { limit: 5, platform: "x86_64-linux" });
      return !top.some((result) => wanted.includes(result.attr) || result.alsoIn.some((attr) => wanted.includes(attr)));
    });
    return { rate: 1 - misses.length / queries.length, misses: `misses: ${misses.map((m) => m.query).join(" | ")}` };
  };

  it(`finds the right package in the top 5 for at least 94% of ${QUERIES.queries.length} agent queries`, () => {
    expect(QUERIES.queries.length).toBeGreaterThanOrEqual(60);
    const { rate, misses } = topFiveRate(QUERIES);
    expect(rate, misses).toBeGreaterThanOrEqual(0.94);
  });

  it(`finds the right package in the top 5 for at least 81% of ${DEV.queries.length} task, name, language-tool and library queries`, () => {
    expect(DEV.queries.length).toBeGreaterThanOrEqual(280);
    const { rate, misses } = topFiveRate(DEV);
    expect(rate, misses).toBeGreaterThanOrEqual(0.81);
  });

  it("ranks a short page as the start of a long one: what a search leaves unranked could not have reached the page", () => {
    const queries = [...QUERIES.queries, ...DEV.queries].map(({ query }) => query);
    const pageOf = (query: string, limit: number) =>
      searchIndex(index, query, { limit, platform: "x86_64-linux" }).map(({ attr, score }) => `${attr} ${score}`);
    for (const query of queries) expect(pageOf(query, 3), query).toEqual(pageOf(query, 50).slice(0, 3));
  });

  it("reads 'a pdf file' as a pdf: a tool for the kind named need not say 'file' ('pull the text out of a pdf file')", () => {
    expectFirsts([
      ["pull the text out of a pdf file", "poppler-utils"],
      ["explore a big json file interactively", "fx"],
      ["render a markdown file in the terminal", "glow"],
      ["inspect the schema of a parquet file", "pqrs"],
    ]);
  });

  it("finds a package by what the one other package naming it says of it ('Linux lsof replacement to list open file descriptors for processes')", () => {
    expectFirsts([
      ["list open files of a process", "lsof"],
      ["packet analyzer", "tcpdump"],
    ]);
    expect(attrsOf("which process has this file open", 3)).toContain("lsof");
  });

  it("answers a language's library with the one its users reach for, whose expression carries the most ('python html parsing')", () => {
    expectFirsts([
      ["python html parsing", "python313Packages.beautifulsoup4"],
      ["python postgres driver", "python313Packages.psycopg"],
    ]);
  });

  it("reads 'headless' as what a tool does, not as the name of a build: no PostScript interpreter for a headless browser", () => {
    const builds = (query: string) => attrsOf(query, 5).filter((attr) => /[-_]headless$/.test(attr));
    expect(builds("headless browser")).toEqual([]);
    expect(builds("screenshot a web page headless")).toEqual([]);
    expect(attrsOf("headless chrome", 1)).toEqual(["python313Packages.pyppeteer"]);
    expectFirsts([
      ["ghostscript headless", "ghostscript_headless"],
      ["ffmpeg headless", "ffmpeg-headless"],
    ]);
  });

  it("weighs a noun of doing by what it acts on: 'image processing' is the imaging library that never says processing", () => {
    expectFirsts([
      ["python image processing library", "python313Packages.pillow"],
      ["kubernetes secret management", "sops"],
    ]);
  });

  it("answers a converter's name with it, then the other converters for what it does, each page the start of a longer one", () => {
    expect(attrsOf("json2yaml", 1)).toEqual(["json2yaml"]);
    expect(attrsOf("json2yaml", 10)).toContain("remarshal");
    expect(attrsOf("html2pdf", 5)).toContain("pandoc");
    for (const query of ["json2yaml", "html2pdf", "pdf2svg", "md2pdf"])
      expect(attrsOf(query, 3), query).toEqual(attrsOf(query, 50).slice(0, 3));
  });

  it("answers a name asked in a release with that release, whether it has a name of its own or is its group's member", () => {
    expectFirsts([
      ["gcc 13", "gcc13"],
      ["java 17", "jdk17"],
      ["openjdk 17", "jdk17"],
      ["postgres 15", "postgresql_15"],
      ["node 20", "nodejs_20"],
      ["node v20", "nodejs_20"],
      ["python v3.11", "python311"],
      ["aws cli v2", "awscli2"],
      ["nodejs 20", "nodejs_20"],
      ["ffmpeg 6", "ffmpeg_6"],
      // No attribute names these releases: the channel lists python313 as python313Packages.python, nodejs_22 as
      // nodePackages.nodejs.
      ["python 3.13", "python313Packages.python"],
      ["nodejs 22", "nodePackages.nodejs"],
    ]);
  });

  it("answers a task with a program, not a library for a language's programmers, unless the language is named", () => {
    expectFirsts([
      ["redis client", "redis"],
      ["decode a jwt token", "jwt-cli"],
      ["python redis client", "python313Packages.redis"],
    ]);
  });

  it("answers a task on a LaTeX or Typst document with tools, not the styles that go inside one, unless those are asked for", () => {
    const compile = attrsOf("compile a latex document to pdf", 10);
    expect(compile).toContain("texliveFull");
    expect(compile.slice(0, 5).filter((attr) => attr.startsWith("texlivePackages."))).toEqual([]);
    expectFirsts([
      ["compile a typst document", "typst"],
      ["latex package for tables", "texlivePackages.ltablex"],
      ["latex beamer", "texlivePackages.beamer"],
    ]);
  });

  it("answers a task with a program an agent can run without a display, unless the query asks for one", () => {
    expectFirsts([
      ["produce a pdf from a markdown file", "pandoc"],
      ["mirror an entire website for offline viewing", "httrack"],
      ["gui to produce pdfs from scanned documents", "gscan2pdf"],
      // bulky is a "Bulk rename app", and says of itself no command, tool or program.
      ["bulk rename files", "rename"],
      ["bulk rename app", "bulky"],
    ]);
  });

  it("answers a tool about an everyday package before the package ('git large file storage': git-lfs), not another build of it", () => {
    expectFirsts([
      ["git large file storage", "git-lfs"],
      ["cmake formatter", "cmake-format"],
      ["clean up git branches", "git-gone"],
      // rust-parallel matches more of it, but is named after its language, not after GNU parallel's subject.
      ["run commands in parallel", "parallel"],
    ]);
  });

  it("answers a language's tool with the tool, not an editor's extension for it, unless the editor is named", () => {
    expectFirsts([
      ["r language server", "rPackages.languageserver"],
      ["r lsp", "rPackages.languageserver"],
      ["coc r language server", "nodePackages.coc-r-lsp"],
    ]);
  });

  it("finds a language's tool however an agent shortens or wraps the ask, not its libraries or a package named for the kind", () => {
    const cases: [query: string, wanted: string][] = [
      ["py formatter", "ruff"],
      ["md linter", "markdownlint-cli2"],
      ["markdown lint", "markdownlint-cli2"],
      ["toml fmt", "taplo"],
      ["ocaml autoformatter", "ocamlformat"],
      ["which linter should I use for haskell", "haskellPackages.hlint"],
      ["typescript linter", "eslint"],
      ["js/ts formatter", "prettier"],
    ];
    for (const [query, wanted] of cases) {
      const top = searchIndex(index, query, { limit: 3, platform: "x86_64-linux" });
      // Or one of its versions' attributes (ocamlformat_0_26_2).
      const isWanted = (attr: string) => attr === wanted || attr.startsWith(`${wanted}_`);
      expect(
        top.some((result) => [result.attr, ...result.alsoIn].some(isWanted)),
        `${query}: ${top.map((result) => result.attr).join(" ")}`,
      ).toBe(true);
    }
    // A tool asked for in so many words is no library of the language's set (haskellPackages.build, "Build Systems à la Carte").
    expect(searchIndex(index, "haskell build tool", { limit: 3, platform: "x86_64-linux" }).map((result) => result.attr)).toContain(
      "stack",
    );
    // Not a package named for the kind alone (formatter, an elementary OS app; ocamlPackages.lsp, a library).
    expectFirsts([
      ["haskell formatter", "ormolu"],
      ["ocaml lsp", "ocamlPackages.ocaml-lsp"],
    ]);
  });

  it("answers a task asked with where it is to run ('… nix package', '… on nixos', '… in a script') as the task, unless packages are its subject", () => {
    const top = (query: string) => searchIndex(index, query, { limit: 3, platform: "x86_64-linux" }).map((result) => result.attr);
    const places = [
      "nix package",
      "on nixos",
      "using nix",
      "in nixpkgs",
      "in a script",
      "with a shell command",
      "from a bash script",
      "on ubuntu",
      "on my mac",
      "in ci",
      "in a ci job",
      "from a ci pipeline",
      "on a headless server",
    ];
    for (const task of ["convert markdown to pdf", "pretty print json", "resize images"]) {
      for (const asked of [...places.map((place) => `${task} ${place}`), `command to ${task}`])
        expect(top(asked), asked).toEqual(top(task));
    }
    expect(top("list packages on nixos")).not.toEqual(top("list packages"));
  });

  it("answers '<tool> for <use>' with the tool's kind made for that use, and with the tool itself when it says that use", () => {
    const first = (query: string) => searchIndex(index, query, { limit: 1, platform: "x86_64-linux" })[0]?.attr;
    const cases: [query: string, wanted: string[]][] = [
      ["jq for yaml", ["yq", "yq-go"]],
      ["grep for pdf", ["pdfgrep"]],
      ["git for large files", ["git-lfs"]],
      ["rsync for cloud storage", ["rclone"]],
      ["curl for grpc", ["grpcurl"]],
      // The use named is no answer either: a top for docker is not docker.
      ["top for docker", ["ctop", "lazydocker"]],
      // Their own descriptions say the use ("Tool for managing secrets", "… convert and stream audio and video"), or
      // other packages' words of it do (tmux's session managers).
      ["vault for secrets", ["vault", "vault-bin"]],
      ["ffmpeg for video conversion", ["ffmpeg"]],
      ["tmux for remote sessions", ["tmux"]],
      // Or a word related to it: pandoc's "documentation formats" for docx.
      ["pandoc for docx", ["pandoc"]],
      // Or most of its words: "… operations on container images", though not "copying".
      ["skopeo for copying container images", ["skopeo"]],
    ];
    for (const [query, wanted] of cases) expect(wanted, query).toContain(first(query));
  });

  it("answers an interface asked for a tool ('git tui', 'gui for git') with interfaces, not the tool itself unless it is one", () => {
    const top = (query: string) => searchIndex(index, query, { limit: 3, platform: "x86_64-linux" }).map((result) => result.attr);
    expect(top("git tui")).toContain("lazygit");
    const named: [query: string, tool: string][] = [
      ["git tui", "git"],
      ["gui for git", "git"],
      ["terminal ui for kubernetes", "kubernetes"],
      ["tui for systemd", "systemd"],
    ];
    for (const [query, tool] of named) expect(top(query)[0], query).not.toBe(tool);
    // It says it is one: "Simple terminal UI for git commands".
    expect(top("lazygit tui")[0]).toBe("lazygit");
  });

  it("reads a converter's name only a broken package has as the conversion, and a name a shown package has as that name", () => {
    const top = (query: string) => searchIndex(index, query, { limit: 5, platform: "x86_64-linux" }).map((result) => result.attr);
    // Haskell's xml2json is broken: the name alone answered nothing shown.
    expect(top("xml2json").some((attr) => ["jq", "xidel", "yq-go", "dasel", "libxo"].includes(attr))).toBe(true);
    // A kernel's driver, not a conversion from "rtl881" to "au".
    expect(top("rtl8812au")[0]).toMatch(/\.rtl8812au$/);
  });

  it("reads an ordinary word amid a query as the word, not as another package's program ('scan a host': no dig, for bind's host)", () => {
    const top = (query: string) => searchIndex(index, query, { limit: 5, platform: "x86_64-linux" }).map((result) => result.attr);
    expect(top("scan a host for open ports")[0]).toBe("nmap");
    expect(top("reduce pdf file size")).not.toContain("binutils");
    // First, as a command line has it, it is the program still; a technical token ("base64") anywhere.
    expect(top("host command")[0]).toBe("dig");
    expect(top("size of an elf binary")[0]).toBe("binutils");
    expect(top("decode base64 text")[0]).toBe("coreutils");
    // ...but not the first word of a sentence too long for a command line: a verb.
    expect(top("strip gps location and camera metadata from photos before publishing them")).not.toContain("binutils");
  });

  it("answers a language's linter without another language's ('Fast linters runner for Go' is Go's, everyday tools included)", () => {
    const top = (query: string) => searchIndex(index, query, { limit: 3, platform: "x86_64-linux" }).map((result) => result.attr);
    for (const language of ["perl", "ocaml", "elm", "haxe"]) expect(top(`${language} linter`)).not.toContain("golangci-lint");
    expect(top("go linter")).toContain("golangci-lint");
    // An everyday tool for another language is no everyday answer here: "SQL linter and auto-formatter", "Extremely fast
    // Python linter and code formatter".
    expect(top("protobuf linter and formatter")).not.toContain("sqlfluff");
    expect(top("protobuf linter and formatter")).not.toContain("ruff");
  });

  it("reads GNU's name before a tool's as its name, whichever way nixpkgs spells it ('gnu sed': gnused, 'gnu parallel': parallel)", () => {
    const first = (query: string) => searchIndex(index, query, { limit: 1, platform: "x86_64-linux" })[0]?.attr;
    expect(first("gnu sed")).toBe("gnused");
    // gzip is "GNU zip", and others say "parallel" of it (pigz is a "Parallel implementation of gzip"): it led.
    expect(first("gnu parallel")).toBe("parallel");
  });

  it("answers a variant asked of a tool ('modern ls', 'parallel gzip') with variants, not the tool itself unless it says so", () => {
    const top = (query: string) => searchIndex(index, query, { limit: 3, platform: "x86_64-linux" }).map((result) => result.attr);
    expect(top("modern ls")).toContain("eza");
    expect(top("parallel gzip")).toContain("pigz");
    const place = (query: string, attr: string) => (top(query).includes(attr) ? top(query).indexOf(attr) : Number.POSITIVE_INFINITY);
    expect(place("parallel gzip", "pigz")).toBeLessThan(place("parallel gzip", "gzip"));
    expect(top("colorful ls")).toContain("lsd");
    // In the words that say the same: pixz is a "Parallel compressor/decompressor for xz format".
    expect(top("multithreaded xz")[0]).toBe("pixz");
    const named: [query: string, tool: string][] = [
      ["modern ls", "coreutils"],
      // Nor the tool the variant's word names: a parallel gzip is no GNU parallel.
      ["parallel gzip", "parallel"],
      ["colorful ls", "coreutils"],
    ];
    for (const [query, tool] of named) expect(top(query), query).not.toContain(tool);
    // A word that only follows the name asks nothing of it: "run make targets in parallel" may be make.
    expect(top("gzip compression")[0]).toBe("gzip");
  });

  it("answers an alternative to a tool nixpkgs lacks by that tool's name, not with every package that calls itself an alternative", () => {
    // fd ("Simple, fast and user-friendly alternative to find"), sd and go-task led "photoshop alternative".
    for (const query of ["photoshop alternative", "excel alternative", "visio alternative"]) {
      const top = searchIndex(index, query, { limit: 5, platform: "x86_64-linux" }).map((result) => result.attr);
      expect(
        top.filter((attr) => ["fd", "sd", "go-task"].includes(attr)),
        query,
      ).toEqual([]);
    }
  });

  it("reads two words that make a program's name as that name: 'hex dump' in a sentence is util-linux's hexdump", () => {
    const top = (query: string) => searchIndex(index, query, { limit: 5, platform: "x86_64-linux" }).map((result) => result.attr);
    expect(top("hex dump a binary file")).toContain("util-linux");
    expect(top("openstack client")[0]).toBe("openstackclient-full");
  });

  it("reads a program's own file as that program ('run a makefile' is make), unless another tool for it is asked", () => {
    const top = (query: string) => searchIndex(index, query, { limit: 3, platform: "x86_64-linux" }).map((result) => result.attr);
    expect(top("run a makefile")).toContain("gnumake");
    expect(top("taskfile.yml runner")[0]).toBe("go-task");
    expect(top("run recipes defined in a justfile")[0]).toBe("just");
    expect(top("makefile alternative")[0]).not.toBe("gnumake");
    expect(top("dockerfile linter")[0]).toBe("hadolint");
    expect(top("manage dotfile symlinks")).not.toContain("graphviz");
  });

  it("reads a kind of drive as a disk, multiple as multi, shrink as optimize and a client as a cli ('check ssd health', 'download with multiple connections')", () => {
    const top = (query: string) => searchIndex(index, query, { limit: 5, platform: "x86_64-linux" }).map((result) => result.attr);
    expect(top("check ssd health")[0]).toBe("smartmontools");
    expect(top("download file with multiple connections")).toContain("aria2");
    expect(top("benchmark nvme drive")[0]).not.toBe("rclone");
    expect(top("shrink png files losslessly")[0]).toBe("optipng");
    expect(top("mysql client with autocompletion")).toContain("mycli");
  });

  it("still matches the words a phrase's short form stands for: 'infrastructure as code' (iac) is infrastructure", () => {
    const top = searchIndex(index, "infrastructure as code", { limit: 10, platform: "x86_64-linux" }).map((result) => result.attr);
    expect(top).toContain("terraform");
  });

  it("does not count an everyday tool of another kind as the kind asked: 'nix linter' is statix, not nixfmt", () => {
    const first = (query: string) => searchIndex(index, query, { limit: 1, platform: "x86_64-linux" })[0]?.attr;
    expect(first("nix linter")).toBe("statix");
    expect(first("dockerfile formatter")).toBe("dockerfmt");
  });

  it("matches a word's stem as a name only where it is the same word: 'stripe' is not binutils' strip", () => {
    const first = (query: string) => searchIndex(index, query, { limit: 1, platform: "x86_64-linux" })[0]?.attr;
    expect(first("stripe cli")).toBe("stripe-cli");
    expect(first("pipe viewer")).toBe("pipe-viewer");
  });

  it("answers a task that names no language and no library without a niche set's libraries ('generate uuid')", () => {
    const top = searchIndex(index, "generate uuid", { limit: 3, platform: "x86_64-linux" }).map((result) => result.attr);
    expect(top.filter((attr) => /^(akkuPackages|haskellPackages|chickenPackages_5|sbclPackages)\./.test(attr))).toEqual([]);
  });

  it("answers 'watch a directory for changes' with a watcher, not with a tool whose description says files (rclone)", () => {
    const top = searchIndex(index, "watch a directory for changes", { limit: 3, platform: "x86_64-linux" }).map((result) => result.attr);
    expect(top).not.toContain("rclone");
    expect(top).toContain("watchman");
    // To rerun is to run again, on a change: entr "Run arbitrary commands when files change".
    expect(attrsOf("rerun the test suite whenever a source file changes", 5)).toContain("entr");
  });

  it("answers which process uses the bandwidth with a per-process tool, not with every network monitor", () => {
    // A monitor watches processes no more than it watches networks: nethogs groups "bandwidth by process".
    const top = searchIndex(index, "see which process is using my bandwidth", { limit: 3, platform: "x86_64-linux" }).map(
      (result) => result.attr,
    );
    expect(top).toContain("nethogs");
  });

  it("relates a word only to words that mean it: a disk is no filesystem, a video nothing to convert, a password no secret", () => {
    const top = (query: string) => searchIndex(index, query, { limit: 3, platform: "x86_64-linux" }).map((result) => result.attr);
    expect(top("benchmark disk speed")[0]).toBe("fio");
    expect(top("make a gif from a video")).toContain("ffmpeg");
    expect(top("password manager for the terminal")[0]).toBe("pass");
    expect(top("fuzzy finder")[0]).toBe("fzf");
  });

  it("reads '<name> command' as the program so named ('watch command' is procps), but '<name> cli' as the command-line one of it", () => {
    const first = (query: string) => searchIndex(index, query, { limit: 1, platform: "x86_64-linux" })[0]?.attr;
    expect(first("watch command")).toBe("procps");
    expect(first("ss command")).toBe("iproute2");
    expect(first("1password cli")).toBe("_1password-cli");
    expect(first("wireshark command line")).toBe("tshark");
  });

  it("reads a critique of source code as linting: 'perl linter' is Perl::Critic", () => {
    expect(searchIndex(index, "perl linter", { limit: 1, platform: "x86_64-linux" })[0]?.attr).toBe("perl540Packages.PerlCritic");
  });

  it("reads updating, editing, filtering or reshaping a data file's values as its processor's work: yq-go is the 'command-line YAML processor'", () => {
    expectFirsts([
      ["read and update values in yaml files from a shell script", "yq-go"],
      ["edit a value in a yaml file from a shell script", "yq-go"],
      ["filter and reshape json returned by an api in a pipeline", "jq"],
    ]);
  });

  it("reads an ecosystem's word for its packages as said by each member of it: a 'perl json module' need not say 'module'", () => {
    expectFirsts([["perl json module", "perl540Packages.JSON"]]);
    expect(attrsOf("python cli framework", 6)).toContain("python313Packages.click");
    expect(attrsOf("python async web framework", 5)).toContain("python313Packages.aiohttp");
  });

  it("reads a top-level package that installs headers as a library when a library is asked, whatever it says of its programs: curl is a 'c http client library'", () => {
    // One of curl's builds stands for them all (curlHTTP3 here).
    expect(attrsOf("c http client library", 5).filter((attr) => attr.startsWith("curl"))).toHaveLength(1);
    expectFirsts([["c library for json", "json_c"]]);
  });

  it("reads numerical computing as scientific: numpy is 'Scientific tools for Python'", () => {
    expectFirsts([["python numerical array library", "python313Packages.numpy_2"]]);
  });

  it("reads words as the descriptions say them: wayland's wlroots, reading aloud as speech, only changed files as incremental, real time, symbolic math as computer algebra, concurrency as threads, PGP as OpenPGP", () => {
    expectFirsts([["record the screen on wayland", "wf-recorder"]]);
    expect(attrsOf("make the computer read text aloud", 3)).toContain("espeak");
    expect(attrsOf("mirror a directory to a remote host transferring only changed files", 2)).toContain("rsync");
    expect(attrsOf("realtime dashboard for nginx access logs", 5)).toContain("goaccess");
    expect(attrsOf("do symbolic algebra and calculus", 5)).toContain("maxima");
    expectFirsts([
      ["ocaml promises and concurrency library", "ocamlPackages.lwt"],
      ["sign and encrypt files with pgp", "gnupg"],
    ]);
    // Intercepting is a proxy's, a man in the middle's; inspecting, asked beside it, counts once.
    expect(attrsOf("intercept and inspect http traffic with a proxy", 8)).toContain("python313Packages.mitmproxy");
  });

  it("reads how long a command takes as benchmarking it: hyperfine is the 'Command-line benchmarking tool'", () => {
    expect(attrsOf("measure how long a command takes", 3)).toContain("hyperfine");
  });

  it("reads checking a language's documents or programs for errors as linting: 'latex linter' finds chktex ('Check for errors in LaTeX documents')", () => {
    expect(attrsOf("latex linter", 3)).toContain("texlivePackages.chktex");
  });

  it("reads fixing code to a standard as formatting it, and as linting: 'php formatter' is php-cs-fixer ('fix PHP coding standards')", () => {
    expectFirsts([
      ["php formatter", "php84Packages.php-cs-fixer"],
      ["php code style fixer", "php84Packages.php-cs-fixer"],
    ]);
  });

  it("reads transcribing audio as speech to text, with an article between ('transcribe an audio recording')", () => {
    expect(attrsOf("transcribe an audio recording to text locally", 5)).toContain("whisperx");
  });

  it("reads a syscall as a system call: 'see every syscall of a process' is strace, 'System call tracer for Linux'", () => {
    expectFirsts([["see every syscall of a process", "strace"]]);
  });

  it("ranks a tool whose dated version is years behind the catalog after the current one ('email', last 2016-01-31)", () => {
    expectFirsts([
      ["send an email over smtp from a shell script", "msmtp"],
      ["youtube-dl", "yt-dlp"],
    ]);
  });

  it("counts a query word matched through a related word that is itself asked for as a quarter covered, not half", () => {
    // "word document": a description saying document covers "document" fully, and "word" (related to it) only a quarter.
    const top = (query: string) => searchIndex(index, query, { limit: 3, platform: "x86_64-linux" }).map((result) => result.attr);
    expect(top("extract text from a word document")[0]).toBe("antiword");
    expect(top("network latency monitor")).toContain("smokeping");
  });

  it("answers a library asked for with libraries, not the everyday programs that are also written in its language", () => {
    // qrencode ("C library and command line tool…") and qpdf ("C++ library and set of programs…") are everyday tools.
    for (const query of ["c json library", "c++ json library"]) {
      const [first] = searchIndex(index, query, { limit: 5, platform: "x86_64-linux" });
      expect(first?.description, `${query}: ${first?.attr}`).toMatch(/json/i);
    }
  });

  it("answers a language's library asked for with the established one even where its terse description misses a word", () => {
    // cjson, "A fast JSON encoding/parsing module", says no "library"; lua-yajl, which does, is a binding of a C one.
    expectFirsts([
      ["lua json library", "lua54Packages.cjson"],
      ["python library for retrying failed calls with exponential backoff", "python313Packages.backoff"],
    ]);
  });

  it("answers debugging, cloud and secret tasks with the everyday debuggers, cloud CLIs and sops first", () => {
    expectFirsts([
      ["c debugger", "gdb"],
      // A memory leak is a debugger's, not a secret's (sops).
      ["find memory leaks in a c program", "valgrind"],
      // A debugger in the words of its use: a backtrace, a crash, a core dump.
      ["get a backtrace from a crashing native binary", "gdb"],
      ["analyze a core dump", "gdb"],
      ["manage azure resources from the command line", "azure-cli"],
      ["manage google cloud resources", "google-cloud-sdk"],
      ["encrypt yaml secrets", "sops"],
      ["python profiler", "py-spy"],
      ["capture traffic on an interface to a file", "tcpdump"],
    ]);
  });

  it("answers `nixshed search` from the CLI, as text and as JSON", () => {
    const text = execFileSync(process.execPath, [CLI, "search", "--nixpkgs-index", indexPath, "--limit", "3", "rg"], { encoding: "utf8" });
    expect(text.split("\n")[0]).toMatch(/^ripgrep 14\.1\.1: /);
    const json = JSON.parse(
      execFileSync(process.execPath, [CLI, "search", "--nixpkgs-index", indexPath, "--json", "python", "requests"], { encoding: "utf8" }),
    );
    expect(json[0]).toMatchObject({ attr: "python313Packages.requests", alsoIn: ["python312Packages.requests"] });
    // The limit the help states is enforced, not quietly lowered.
    const over = spawnSync(process.execPath, [CLI, "search", "--nixpkgs-index", indexPath, "--limit", "51", "rg"], { encoding: "utf8" });
    expect(over.status).toBe(2);
    expect(over.stderr).toContain("search: --limit takes a whole number from 1 to 50");
    // Pages: the second goes on from the first, which names it.
    const search = (...flags: string[]) =>
      execFileSync(process.execPath, [CLI, "search", "--nixpkgs-index", indexPath, "--limit", "2", ...flags, "pdf", "viewer"], {
        encoding: "utf8",
      });
    const [first, second] = [search(), search("--offset", "2")];
    expect(first).toMatch(/\nMore: pass offset 2\.\n$/);
    expect(second.split("\n").slice(0, 2)).not.toEqual(first.split("\n").slice(0, 2));
    const deep = spawnSync(process.execPath, [CLI, "search", "--nixpkgs-index", indexPath, "--offset", "200", "rg"], { encoding: "utf8" });
    expect(deep.stderr).toContain("search: --offset takes a whole number from 0 to 199");
  });

  it("reads a question's function words as asking, not as words of a name", () => {
    // "has" starts hashcat's name: rar2hashcat and zip2hashcat came first.
    expect(attrsOf("which process has this file open", 10).filter((attr) => attr.includes("hashcat"))).toEqual([]);
    expect(attrsOf("has", 1)).toEqual(["has"]);
  });

  it("finds alternatives by what the named tool's description says, not by packages its words name", () => {
    // pip's description ("PyPA recommended tool for installing Python packages") named pypaInstallHook and pipes first.
    expect(attrsOf("pip alternative", 3)).toContain("uv");
    expect(attrsOf("replacement for diff", 1)).toEqual(["difftastic"]);
  });

  it("pages through alternatives in one order, whatever the page size, and shows no package twice", () => {
    /** Every page of a query, `limit` at a time, as far as next offsets lead. */
    const allPages = (query: string, limit: number) => {
      const attrs: string[] = [];
      for (let offset: number | undefined = 0; offset !== undefined; ) {
        const answer = answerSearch(index, query, { limit, offset, platform: "x86_64-linux" });
        attrs.push(...answer.results.map((result) => result.attr));
        offset = answer.nextOffset;
      }
      return attrs;
    };
    for (const query of ["sed alternative", "alternative to find", "jq alternative"]) {
      const bySmallPages = allPages(query, 10);
      expect(bySmallPages.length, query).toBeGreaterThan(20);
      expect(new Set(bySmallPages).size, query).toBe(bySmallPages.length);
      expect(allPages(query, 50), query).toEqual(bySmallPages);
    }
  });
});
