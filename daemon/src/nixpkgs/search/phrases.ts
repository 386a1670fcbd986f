// Technical phrases and their usual short form, so that "language server" in a description and
// "lsp" in a query (or the other way round) become one search term. General vocabulary only:
// each entry is how people write the same thing, never a package.

const PHRASES: readonly (readonly [short: string, ...spellings: string[]])[] = [
  ["lsp", "language server protocol", "language servers?", "language-servers?", "languageservers?", "language services?"],
  ["cli", "command[ -]?lines?"],
  // What fixes code to a standard or style rewrites it, as a formatter does, and checks it as a linter does:
  // "Tool to automatically fix PHP coding standards issues" (php-cs-fixer). Before the linter's own spellings.
  ["formatter linter", "fix(?:es|ing)? (?:\\S+ )?(?:coding standards?|code style)"],
  [
    "linter",
    "static (?:code )?analy[sz](?:is|er|ers)",
    "(?:code|script|source code) analy[sz](?:is|er|ers)",
    "static checkers?",
    "lint(?:ing)? tool",
    "(?:style|code) check(?:ers?|ing)",
    "style guide check(?:ers?|ing)",
    "best[ -]practices? checkers?",
    // "Critique Perl source code for best-practices".
    "critiques?",
    // "Check for errors in LaTeX documents" (chktex), "Find bugs in Javascript programs" (quick-lint-js).
    "(?:check(?:s|ing)?|find(?:s|ing)?) (?:for )?(?:errors|bugs|problems|mistakes) in (?:\\S+ ){0,2}(?:documents|programs|code|sources?)",
    // What linters check code against; a video coding standard is a codec's.
    "(?<!video )coding standards?",
  ],
  [
    "formatter",
    "auto[ -]?formatters?",
    "pretty[ -]?print(?:ers?|s|ing|ed)?",
    "prettifiers?",
    "beautifiers?",
    "code style fixer",
    "beautify",
    "prettify",
  ],
  ["tts", "text[ -]to[ -]speech", "speech synthe[sz](?:is|izer|iser)", "read (?:\\S+ ){0,3}aloud"],
  [
    "stt",
    "speech[ -]to[ -]text",
    "speech recognition",
    "transcri(?:be|bing|ption) (?:of )?(?:an? |the |my )?(?:audio|speech|recordings?|voice|podcasts?)",
  ],
  [
    "ocr",
    "optical character recognition",
    "text recognition",
    "(?:read|extract|recogni[sz]e|get) (?:the )?text (?:from|in|out of) (?:an? |the )?(?:scanned )?(?:images?|pictures?|photos?|scans?|screenshots?)",
  ],
  ["tui", "(?:terminal|text|console)[ -]based (?:user )?interface", "(?:terminal|text|console) user interface", "terminal ui"],
  ["gui", "graphical user interface"],
  ["realtime", "real[ -]time"],
  // Symbolic mathematics is what a computer algebra system does (maxima, sage, giac). Not "CAS" alone: lowercased, it
  // is also certificate authorities ("bootstrap CAs": certstrap) and compare-and-swap.
  ["computeralgebra", "computer algebra(?: systems?)?", "symbolic (?:math(?:ematics)?|algebra|computation|calculus)"],
  ["otp", "one[ -]time passwords?"],
  // Sending only what changed is what an incremental transfer or backup does ("Fast incremental file transfer": rsync).
  ["incremental", "only (?:the )?(?:changed|modified|new|changes|differences)(?: files| parts| data| blocks)?"],
  ["llm", "large language models?", "llms"],
  ["iac", "infrastructure[ -]as[ -]code"],
  ["sbom", "software bills? of materials?"],
  ["vcs", "version control(?: system)?"],
  ["ci", "continuous integration"],
  ["vm", "virtual machines?"],
  ["kubernetes", "k8s"],
  ["google cloud", "gcp"],
  ["javascript", "js"],
  ["go", "golang"],
  ["c#", "csharp"],
  // A standard of the language is the language: "Command line parser for C++11".
  ["c++", "c\\+\\+(?:0x|98|03|11|14|17|20|23)"],
  ["regex", "regular expressions?", "regexps?", "regexes"],
  ["orm", "object[ -]relational mapp(?:ers?|ing)"],
  ["f#", "fsharp"],
  ["database", "db"],
  ["pdf", "portable document format"],
  ["aws", "amazon web services"],
  ["rst", "restructured ?text"],
  ["csv", "comma[ -]separated[ -]values?"],
  ["barcode", "bar codes?"],
  ["email", "e-mail"],
  ["ebook", "e-books?"],
  ["crossplatform", "cross[ -]platform"],
  // How an agent asks for a program that uses every core ("compress a big file using all cpu cores"), not of cores
  // otherwise ("temperature of all cpu cores").
  ["multicore", "multi[ -]core", "(?<=\\b(?:using|uses?|on|across|utili[sz]ing) )(?:all (?:the |my )?|multiple )(?:cpu |processor )?cores"],
  // A verb with "up" is one word ("back up", "look up"); "up" alone is a stopword ("taking up space", "spin up").
  ["backup", "back(?:s|ed|ing)?[ -]up"],
  ["lookup", "look(?:s|ed|ing)?[ -]up"],
  ["cleanup", "clean(?:s|ed|ing)?[ -]up"],
  ["setup", "set(?:s|ting)?[ -]up"],
  ["apikey", "api[ -]keys?"],
  ["bidirectional", "bi-directional", "two[ -]way", "2[ -]way"],
  ["opensource", "open[ -]source"],
  ["mitm", "man[ -]in[ -]the[ -]middle"],
  // A leak of memory is found by debuggers and profilers; a leak alone is a secret's (synonyms.ts).
  ["memleak", "memory leaks?"],
  ["coredump", "core[ -]dump(?:s|ed)?"],
  ["syscall", "system[ -]calls?"],
  ["letsencrypt", "let'?s[ -]?encrypt"],
  // Open is what a port, connection or socket is to be listed at all, no word of its own (not OpenSSL's).
  ["port", "open ports?", "ports? (?:that )?(?:are|is) open"],
  ["connection", "open connections?"],
  // How long a command takes is what a benchmark measures ("Command-line benchmarking tool": hyperfine).
  ["benchmark", "how long (?:\\S+ ){1,4}(?:takes?|runs?)"],
  // A question of how many asks for a count: "how many lines of code per language".
  ["count", "how many"],
  ["socket", "open sockets?"],
];

const PATTERNS = PHRASES.map(([short, ...spellings]) => [new RegExp(`\\b(?:${spellings.join("|")})\\b`, "g"), short] as const);

/** Lower-cased text with every known phrase replaced by its short form, however its words are spaced ("command  line", "command_line"). */
export function joinPhrases(text: string): string {
  let joined = text.toLowerCase().replace(/[\s_]+/g, " ");
  for (const [pattern, short] of PATTERNS) joined = joined.replace(pattern, short);
  return joined;
}
