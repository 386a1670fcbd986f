// The curated everyday packages: pre-registered as tools (config nixpkgs.common_tools), ranked a
// little higher in searches, and (with a few others) the source of the main program names that the
// channel's metadata lacks ("rg" is ripgrep's program). `program` is given only where it differs from the attribute.

export interface CommonTool {
  attr: string;
  program?: string;
}

export const COMMON_TOOLS: readonly CommonTool[] = [
  // search
  { attr: "ripgrep", program: "rg" },
  { attr: "fd" },
  { attr: "fzf" },
  { attr: "silver-searcher", program: "ag" },
  { attr: "ugrep" },
  { attr: "ast-grep" },
  { attr: "gnugrep", program: "grep" },
  { attr: "findutils", program: "find" },
  // data
  { attr: "jq" },
  { attr: "yq-go", program: "yq" },
  { attr: "miller", program: "mlr" },
  { attr: "gojq" },
  { attr: "jless" },
  { attr: "dasel" },
  { attr: "qsv" },
  { attr: "csvkit", program: "csvlook" },
  { attr: "sqlite", program: "sqlite3" },
  { attr: "duckdb" },
  { attr: "xmlstarlet" },
  { attr: "htmlq" },
  { attr: "gron" },
  { attr: "visidata", program: "vd" },
  // files and text
  { attr: "bat" },
  { attr: "eza" },
  { attr: "tree" },
  { attr: "hexyl" },
  { attr: "file" },
  { attr: "coreutils", program: "ls" },
  { attr: "gnused", program: "sed" },
  { attr: "gawk", program: "awk" },
  { attr: "diffutils", program: "diff" },
  { attr: "gnupatch", program: "patch" },
  { attr: "dos2unix" },
  { attr: "sd" },
  { attr: "dust" },
  { attr: "duf" },
  { attr: "ncdu" },
  { attr: "rsync" },
  { attr: "entr" },
  { attr: "watchexec" },
  { attr: "tokei" },
  { attr: "scc" },
  { attr: "hyperfine" },
  { attr: "pandoc" },
  { attr: "glow" },
  { attr: "poppler-utils", program: "pdftotext" },
  { attr: "qpdf" },
  { attr: "imagemagick", program: "magick" },
  { attr: "ffmpeg" },
  { attr: "exiftool" },
  { attr: "graphviz", program: "dot" },
  // archives
  { attr: "gnutar", program: "tar" },
  { attr: "gzip" },
  { attr: "xz" },
  { attr: "zstd" },
  { attr: "unzip" },
  { attr: "zip" },
  { attr: "p7zip", program: "7z" },
  { attr: "ouch" },
  // network
  { attr: "curl" },
  { attr: "wget" },
  { attr: "httpie", program: "http" },
  { attr: "xh" },
  { attr: "dig" },
  { attr: "nmap" },
  { attr: "netcat-openbsd", program: "nc" },
  { attr: "socat" },
  { attr: "openssh", program: "ssh" },
  { attr: "openssl" },
  { attr: "iperf", program: "iperf3" },
  // dev
  { attr: "git" },
  { attr: "gh" },
  { attr: "delta" },
  { attr: "lazygit" },
  { attr: "difftastic", program: "difft" },
  { attr: "shellcheck" },
  { attr: "shfmt" },
  { attr: "gnumake", program: "make" },
  { attr: "cmake" },
  { attr: "just" },
  { attr: "direnv" },
  { attr: "universal-ctags", program: "ctags" },
  { attr: "go" },
  { attr: "gdb" },
  { attr: "strace" },
  { attr: "valgrind" },
  { attr: "kubectl" },
  { attr: "k9s" },
  { attr: "terraform" },
  { attr: "awscli2", program: "aws" },
  { attr: "docker-compose" },
  { attr: "prettier" },
  { attr: "ruff" },
  { attr: "yamllint" },
  // system
  { attr: "htop" },
  { attr: "btop" },
  { attr: "bottom", program: "btm" },
  { attr: "procs" },
  { attr: "lsof" },
  { attr: "psmisc", program: "killall" },
  { attr: "pv" },
  { attr: "tmux" },
  { attr: "tldr" },
  { attr: "bc" },
  { attr: "age" },
  { attr: "gnupg", program: "gpg" },
];

/** Well-known packages outside the everyday list whose program is not named like them. */
const OTHER_PROGRAMS: Record<string, string> = {
  nodejs: "node",
  neovim: "nvim",
  openjdk: "java",
  postgresql: "psql",
  kubernetes: "kubectl",
  transmission: "transmission-cli",
};

/** The main program by attribute or pname, for catalogs that lack meta.mainProgram. */
export const KNOWN_PROGRAMS: ReadonlyMap<string, string> = new Map([
  ...COMMON_TOOLS.flatMap((tool) => (tool.program ? [[tool.attr, tool.program] as const] : [])),
  ...Object.entries(OTHER_PROGRAMS),
]);

export const COMMON_ATTRS: ReadonlySet<string> = new Set(COMMON_TOOLS.map((tool) => tool.attr));
