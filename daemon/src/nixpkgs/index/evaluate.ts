// Evaluates a nixpkgs source tree with nix-env, the way the channel's packages.json is made
// (nixpkgs' pkgs/top-level/make-tarball.nix): every package's metadata as JSON, aliases left out,
// nothing written to the store. nix/lib/mkNixpkgsIndex.nix runs the same command inside a build.
// The output (≈160 MB) goes to a file, never into memory at once.
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { NixpkgsError } from "../errors.js";

const NIX_ENV_CONFIG = "{ allowAliases = false; allowVariants = false; }";

export const NIX_FLAGS = ["--extra-experimental-features", "nix-command flakes"];

/**
 * Every evaluation of a package set runs with these last: the set is code nobody reviewed, and
 * builtins.exec / importNative would run it on the host whatever the machine's nix.conf says.
 */
export const SAFE_EVALUATION = ["--option", "allow-unsafe-native-code-during-evaluation", "false"];

export interface EvaluateOptions {
  signal?: AbortSignal;
  progress?: (message: string) => void;
}

export async function evaluateNixpkgs(nixpkgs: string, outFile: string, options: EvaluateOptions = {}): Promise<void> {
  const args = [
    "-f",
    nixpkgs,
    "-qaP",
    "--json",
    "--meta",
    "--readonly-mode",
    "--arg",
    "config",
    NIX_ENV_CONFIG,
    ...NIX_FLAGS,
    ...SAFE_EVALUATION,
  ];
  const child = spawn("nix-env", args, {
    stdio: ["ignore", "pipe", "pipe"],
    signal: options.signal,
    env: { ...process.env, NIX_PATH: "" },
  });
  const out = createWriteStream(outFile);
  child.stdout.pipe(out);
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const started = Date.now();
  const ticker = setInterval(
    () => options.progress?.(`evaluating ${nixpkgs} with nix-env (${Math.round((Date.now() - started) / 1000)} s)`),
    5000,
  );
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once("error", (error) => reject(error));
      child.once("close", (exitCode) => resolve(exitCode));
    });
    await new Promise<void>((resolve) => (out.writableFinished ? resolve() : out.once("finish", () => resolve())));
    if (code !== 0)
      throw new NixpkgsError(`nix-env could not evaluate ${nixpkgs} (exit ${code})`, stderr.trim().split("\n").slice(-5).join("\n"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      throw new NixpkgsError("nix-env not found", "Install Nix, or pass a prebuilt index.");
    if (options.signal?.aborted) throw new NixpkgsError(`evaluating ${nixpkgs} stopped`);
    throw error;
  } finally {
    clearInterval(ticker);
  }
}
