// The curated everyday packages, grouped by purpose: named in nixpkgs_execute's description so that
// the usual programs need no search (config nixpkgs.common_tools), ranked higher in
// searches, and the first source of the main program names the channel's metadata lacks ("rg" is
// ripgrep's program; index/programs.ts has the rest). Curated for a jail: batch programs that read and write files,
// no TUIs, pagers or watchers; the network group is named only where packages get the network.
// `program` is given only where it differs from the attribute; `several` marks a package whose
// programs are all useful, so that a call names one (coreutils: program "sort").

export interface CommonTool {
  attr: string;
  program?: string;
  several?: true;
}

export interface CommonGroup {
  purpose: string;
  /** Of use only with the network. */
  network?: true;
  tools: readonly CommonTool[];
}

const t = (attr: string, program?: string): CommonTool => (program ? { attr, program } : { attr });
/** A package of many programs; `program` is the one search knows it by. */
const many = (attr: string, program: string): CommonTool => ({ attr, program, several: true });

export const COMMON_GROUPS: readonly CommonGroup[] = [
  { purpose: "search", tools: [t("ripgrep", "rg"), t("fd"), t("ast-grep")] },
  {
    purpose: "data",
    tools: [
      t("jq"),
      t("yq-go", "yq"),
      t("miller", "mlr"),
      many("csvkit", "csvlook"),
      t("qsv"),
      t("sqlite", "sqlite3"),
      t("duckdb"),
      t("xmlstarlet"),
      t("htmlq"),
      t("jc"),
      t("gron"),
    ],
  },
  {
    purpose: "docs",
    tools: [
      t("pandoc"),
      many("poppler-utils", "pdftotext"),
      t("qpdf"),
      t("ghostscript_headless", "gs"),
      t("typst"),
      t("tesseract"),
      t("mupdf", "mutool"),
      t("html-tidy", "tidy"),
      t("libreoffice-fresh", "soffice"),
    ],
  },
  {
    purpose: "media",
    tools: [
      t("imagemagick", "magick"),
      t("ffmpeg"),
      t("sox"),
      t("exiftool"),
      t("graphviz", "dot"),
      t("librsvg", "rsvg-convert"),
      t("optipng"),
      t("pngquant"),
      t("gifsicle"),
      t("mediainfo"),
      t("qrencode"),
      t("zbar", "zbarimg"),
    ],
  },
  {
    purpose: "files",
    tools: [
      many("coreutils", "ls"),
      many("findutils", "find"),
      t("gnugrep", "grep"),
      t("gnused", "sed"),
      t("gawk", "awk"),
      many("diffutils", "diff"),
      t("file"),
      t("tree"),
      t("dos2unix"),
      t("sd"),
      t("rsync"),
      t("tokei"),
      t("parallel"),
      many("moreutils", "sponge"),
      t("hexyl"),
      many("binutils", "readelf"),
    ],
  },
  {
    purpose: "archives",
    tools: [t("gnutar", "tar"), t("gzip"), t("xz"), t("zstd"), t("bzip2"), t("unzip"), t("zip"), t("p7zip", "7z"), t("brotli"), t("unar")],
  },
  {
    purpose: "dev",
    tools: [
      t("git"),
      t("difftastic", "difft"),
      t("gnumake", "make"),
      t("cmake"),
      t("just"),
      t("go-task", "task"),
      t("hyperfine"),
      t("gcc"),
    ],
  },
  { purpose: "debug", tools: [t("gdb"), t("valgrind"), t("strace"), t("py-spy"), t("tcpdump")] },
  {
    purpose: "lint/fmt",
    tools: [
      t("shellcheck"),
      t("shfmt"),
      t("ruff"),
      t("prettier"),
      t("biome"),
      t("nixfmt"),
      t("taplo"),
      t("yamllint"),
      t("hadolint"),
      t("actionlint"),
      t("clang-tools", "clang-format"),
      t("typos"),
      t("sqlfluff"),
    ],
  },
  { purpose: "crypto/math", tools: [t("openssl"), t("age"), t("sops"), t("gnupg", "gpg"), t("bc"), t("gnuplot")] },
  {
    purpose: "network",
    network: true,
    tools: [
      t("curl"),
      t("wget"),
      t("httpie", "http"),
      t("dig"),
      t("nmap"),
      t("netcat-openbsd", "nc"),
      t("gh"),
      t("awscli2", "aws"),
      t("google-cloud-sdk", "gcloud"),
      t("azure-cli", "az"),
      t("opentofu", "tofu"),
      t("rclone"),
      t("yt-dlp"),
    ],
  },
];

export const COMMON_TOOLS: readonly CommonTool[] = COMMON_GROUPS.flatMap((group) => group.tools);

export const COMMON_ATTRS: ReadonlySet<string> = new Set(COMMON_TOOLS.map((tool) => tool.attr));
