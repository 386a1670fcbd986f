// The host directories the harness' Debian-backed packages need in a jail (hostMounts of
// ./pkgs.nix), as the flag that gives them to executed nixpkgs packages the trusted way:
// `--set nixpkgs.extra_mounts=…`. The daemon never reads them from the package set; the harness'
// own environments declare them in ./metadata.nix.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { stringify } from "smol-toml";

const PKGS = fileURLToPath(new URL("./pkgs.nix", import.meta.url));
let value: string | undefined;

/** hostMounts of the harness as a TOML value, e.g. `["/usr", { source = "/lib", optional = true }]`. */
export function harnessExtraMounts(): string {
  if (value === undefined) {
    const json = execFileSync("nix", ["--extra-experimental-features", "nix-command", "eval", "--json", "--file", PKGS, "hostMounts"], {
      encoding: "utf8",
    });
    value = stringify({ v: JSON.parse(json) })
      .replace(/^v = /, "")
      .trim();
  }
  return value;
}

/** The flag pair that gives executed packages the harness' mounts. */
export const harnessMountsFlag = (): string[] => ["--set", `nixpkgs.extra_mounts=${harnessExtraMounts()}`];
