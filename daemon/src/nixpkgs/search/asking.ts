// How agents wrap what they ask for, taken off before a query is read: "nix package to …", "shell
// command to …", "… on nixos", "… in a script", "… on my mac", "install …"; and a converter's name
// no package has ("docx2pdf"), which asks for what it would do. What is left is what is asked.
import { conversionOfName } from "./conversions.js";

/** Asking for a package or a command by what it does: "nix package to merge pdfs", "a nixpkgs package for vpn", "shell command to merge pdfs". */
const ASKING_FOR =
  /^(?:an? |the )?(?:(?:nix|nixpkgs) (?:packages?|pkgs?)|(?:(?:shell|unix|linux|terminal) )?commands?) (?:to|for|that|which)\s+(?=\S)/i;

/** ...or naming nixpkgs after it: "pretty print json nix package", "… on nixos", "… using nix". "… in nix" may ask for Nix's own tools ("lint code in nix"). */
const FROM_NIXPKGS =
  /(?<=\S)\s+(?:(?:an? |the )?(?:nix|nixos|nixpkgs) (?:packages?|pkgs?)|(?:on|for|in|under) nixos|(?:using|with|via) (?:nix|nixpkgs)|(?:in|from) nixpkgs)[\s?.!]*$/i;

/**
 * Where the task is to run, which every batch program can: "… in a script", "… with a shell command", "… on ubuntu",
 * "… on my mac", "… in a ci job", "… on a server". "Lint a shell script" is no such place, nor is "linter for ci" (its use).
 */
const WHERE_IT_RUNS =
  /(?<=\S)\s+(?:(?:in|from|with|inside|within|using) (?:an? |the |my )?(?:(?:shell|bash|sh|posix) )?(?:scripts?|commands?|one-liners?)|(?:on|in|for|under) (?:an? |the |my )?(?:ubuntu|debian|fedora|linux|macos|mac|osx|windows|wsl|unix)(?: (?:machines?|box|servers?|systems?|laptop|hosts?))?|(?:in|from|during|inside|within|on) (?:an? |the |my |our )?(?:ci|ci\/cd)(?: (?:jobs?|pipelines?|runs?|workflows?|runners?))?|on (?:an? |the |my )?(?:headless |remote )?servers?)[\s?.!]*$/i;

/** Verbs of getting a package, before its name: "install ripgrep", "add jq". */
const GETTING = /^(?:install|add|get|use|run|try|download)\s+(?:the\s+)?(?=\S)/i;

/** The name a query asks to install ("install ripgrep"), when what follows the verb is one; "install fonts" is no name. */
function nameToInstall(query: string, isName: (name: string) => boolean): string | undefined {
  const name = query.replace(GETTING, "").trim();
  return name !== query.trim() && isName(name) ? name : undefined;
}

/**
 * What a query asks for, without the words that only wrap it; not when packages are its subject, Nix's own ("list
 * packages on nixos", "search packages in nixpkgs"). `isName` says whether text is a package's or a program's name,
 * `isWorkingName` whether one a package that is not broken has.
 */
export function whatIsAsked(query: string, isName: (name: string) => boolean, isWorkingName: (name: string) => boolean): string {
  const request = query.replace(ASKING_FOR, "");
  const rest = request.replace(FROM_NIXPKGS, "").replace(WHERE_IT_RUNS, "");
  const said = /\b(?:packages?|pkgs)\b/i.test(rest) ? request : rest;
  // A converter's name no working package has is the conversion: "xml2json" is only Haskell's broken xml2json, which
  // would leave it answered by nothing. One that works is the name ("pdf2svg", or "rtl8812au", a driver).
  const conversion = isWorkingName(said) ? undefined : conversionOfName(said);
  return conversion ?? (isName(said) ? said : (nameToInstall(said, isName) ?? said));
}
