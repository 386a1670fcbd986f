// The programs of well-known packages, for catalogs that cannot tell them. The channel's catalog has
// no meta.mainProgram and no package lists its programs (nixpkgs' own table of them, programs.sqlite
// for command-not-found, ships only inside channel tarballs), so "gcloud", "pdfunite" or "ffprobe"
// would find nothing. These are facts about packages as nixpkgs builds them: the main program is
// meta.mainProgram where nixpkgs sets one, the others are what the package installs in bin/ and an
// agent types. Only programs named otherwise than their package are listed. Matched by attribute, or
// by pname at top level (python313Packages.redis, a library, installs no redis-cli).
import { COMMON_TOOLS } from "../tools/common-tools.js";

/** Main programs of packages outside the everyday list (whose own are in common-tools.ts). */
const MAIN_PROGRAMS: Record<string, string> = {
  "silver-searcher": "ag",
  "universal-ctags": "ctags",
  visidata: "vd",
  openssh: "ssh",
  iperf: "iperf3",
  bottom: "btm",
  psmisc: "killall",
  nodejs: "node",
  neovim: "nvim",
  openjdk: "java",
  postgresql: "psql",
  kubernetes: "kubectl",
  transmission: "transmission-cli",
  "google-cloud-sdk": "gcloud",
  "azure-cli": "az",
  "wireguard-tools": "wg",
  iproute2: "ip",
  typescript: "tsc",
  "kubernetes-helm": "helm",
  opentofu: "tofu",
  "1password-cli": "op",
  "bitwarden-cli": "bw",
  "minio-client": "mc",
  aria2: "aria2c",
  "wireshark-cli": "tshark",
  tealdeer: "tldr",
  "ripgrep-all": "rga",
  protobuf: "protoc",
  "step-cli": "step",
  delve: "dlv",
  "jdt-language-server": "jdtls",
  "dotnet-sdk": "dotnet",
  mercurial: "hg",
  subversion: "svn",
  jujutsu: "jj",
  "asdf-vm": "asdf",
  "du-dust": "dust",
  ugrep: "ug",
  "lm-sensors": "sensors",
  smartmontools: "smartctl",
  nftables: "nft",
  borgbackup: "borg",
  "cabal-install": "cabal",
};

/** Other programs a package installs, found by name: "pdfunite" is poppler-utils'. */
const OTHER_PROGRAMS: Record<string, string> = {
  // everyday packages
  "poppler-utils": "pdfinfo pdfunite pdfseparate pdftoppm pdfimages pdftohtml pdftocairo pdffonts pdftops pdfattach pdfdetach pdfsig",
  coreutils:
    "cat cp mv rm mkdir sort uniq cut tr wc head tail tee base64 base32 basenc sha256sum sha1sum sha512sum md5sum b2sum cksum date seq shuf split csplit join paste comm nl fold fmt od stat du df touch chmod ln readlink realpath basename dirname printf timeout nproc numfmt tac expand truncate mktemp dd factor expr tsort pr",
  findutils: "xargs locate",
  diffutils: "cmp sdiff diff3",
  moreutils: "ts vidir vipe chronic ifne pee combine mispipe isutf8 errno",
  binutils: "objdump nm strings ld ar strip addr2line objcopy size c++filt as ranlib",
  csvkit: "csvcut csvgrep csvjson csvsql csvstat csvsort csvjoin csvformat csvclean csvstack in2csv sql2csv",
  gnugrep: "egrep fgrep",
  unzip: "zipinfo funzip",
  gzip: "gunzip zcat zgrep",
  bzip2: "bunzip2 bzcat",
  xz: "unxz xzcat lzma",
  zstd: "unzstd zstdcat",
  p7zip: "7za 7zr",
  imagemagick: "convert identify mogrify montage composite",
  ffmpeg: "ffprobe ffplay",
  sox: "soxi",
  graphviz: "neato circo fdp twopi sfdp",
  ghostscript: "ps2pdf pdf2ps ps2ps",
  libxml2: "xmllint xmlcatalog",
  zbar: "zbarcam",
  age: "age-keygen",
  gnupg: "gpgv gpg-agent",
  gcc: "g++ cc c++ cpp gcov",
  "clang-tools": "clang-tidy clangd",
  httpie: "https",
  nmap: "ncat nping",
  // others
  "google-cloud-sdk": "gsutil bq",
  "wireguard-tools": "wg-quick",
  iproute2: "ss tc bridge",
  openssh: "scp sftp ssh-keygen ssh-agent ssh-copy-id ssh-keyscan sshd",
  bind: "nslookup host nsupdate delv",
  postgresql: "pg_dump pg_restore pg_dumpall createdb dropdb pg_ctl initdb postgres",
  mariadb: "mysql mysqldump mariadb-dump",
  mysql: "mysqldump mysqladmin",
  redis: "redis-cli redis-server redis-benchmark",
  nodejs: "npm npx corepack",
  "util-linux": "uuidgen lsblk hexdump column script rename whereis findmnt lscpu setsid flock more",
  "net-tools": "netstat ifconfig route arp",
  iputils: "ping tracepath arping",
  procps: "ps free pgrep pkill top watch uptime vmstat sysctl pidof pmap",
  psmisc: "pstree fuser",
  inetutils: "telnet ftp tftp logger",
  openjdk: "javac jar jshell keytool",
  go: "gofmt",
  ruby: "irb gem erb",
  ghc: "ghci runghc",
  erlang: "erl erlc escript",
  elixir: "iex mix",
  ocaml: "ocamlc ocamlopt",
  maven: "mvn",
  kotlin: "kotlinc",
  R: "Rscript",
  clippy: "cargo-clippy clippy-driver",
  apacheHttpd: "ab htpasswd",
  bc: "dc",
  kubectx: "kubens",
  vim: "xxd vimdiff",
  "wireshark-cli": "dumpcap editcap mergecap capinfos",
  sysstat: "iostat mpstat sar pidstat",
  pciutils: "lspci",
  usbutils: "lsusb",
  "mongodb-tools": "mongodump mongorestore mongoexport mongoimport",
  "vscode-langservers-extracted":
    "vscode-json-language-server vscode-css-language-server vscode-html-language-server vscode-eslint-language-server",
  "haskell-language-server": "haskell-language-server-wrapper",
  pyright: "pyright-langserver",
  gotools: "goimports godoc",
  texlive: "pdflatex xelatex lualatex latexmk bibtex",
};

/** The main program by attribute or pname. */
export const KNOWN_MAIN_PROGRAMS: ReadonlyMap<string, string> = new Map([
  ...COMMON_TOOLS.flatMap((tool) => (tool.program ? [[tool.attr, tool.program] as const] : [])),
  ...Object.entries(MAIN_PROGRAMS),
]);

/** The other programs by attribute or pname. */
export const KNOWN_OTHER_PROGRAMS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries(OTHER_PROGRAMS).map(([key, programs]) => [key, programs.split(" ")]),
);
