// Evaluates and builds expressions against the flake's own Nix library with the host-backed
// stand-in for nixpkgs (tests/harness/pkgs.nix): `nixshed`, `pkgs` and `mounts` (the stand-in's
// host mounts) are in scope of every expression.
import { execFileSync } from "node:child_process";

const repo = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const nixFlags = ["--extra-experimental-features", "nix-command flakes", "--option", "substituters", ""];
const prelude = `let nixshed = builtins.getFlake "${repo}"; pkgs = import ${repo}/tests/harness/pkgs.nix { }; mounts = pkgs.hostMounts; in`;

function nix(args: string[], expr: string): string {
  try {
    return execFileSync("nix", [...nixFlags, ...args, "--impure", "--expr", `${prelude} ${expr}`], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    throw new Error(String((error as { stderr?: unknown }).stderr ?? error));
  }
}

/** The expression's value, through JSON (untyped: tests read it field by field). */
export const evaluate = (expr: string) => JSON.parse(nix(["eval", "--json"], expr));

/** Builds the expression and links the result at `link`. */
export const build = (expr: string, link: string): string => nix(["build", "-o", link], expr);
