import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildIndexFrom } from "../nixpkgs/index/source.js";
import { NixpkgsError } from "../nixpkgs/errors.js";
import { commonHelp, EXIT, UsageError, type Command } from "./command.js";

export const indexCommand: Command = {
  name: "index",
  summary: "build the nixpkgs search index (index build --from FILE | --nixpkgs PATH --out PATH)",
  help: `Usage: nixshed index build (--from FILE | --nixpkgs PATH) --out PATH

Builds the compact search index that nixpkgs_search and \`nixshed search\` read.

  --from FILE      nixpkgs metadata: the channel's packages.json[.br] or \`nix-env -qaP --json --meta\` output
  --nixpkgs PATH   a nixpkgs source tree to evaluate with nix-env (takes minutes)
  --out PATH       where to write the index

${commonHelp}`,
  options: { from: { type: "string" }, nixpkgs: { type: "string" }, out: { type: "string" } },
  positionals: true,
  async run(values, positionals) {
    if (positionals[0] !== "build" || positionals.length > 1) throw new UsageError("expected `nixshed index build …`");
    const from = values.from as string | undefined;
    const nixpkgs = values.nixpkgs as string | undefined;
    const out = values.out as string | undefined;
    if (Boolean(from) === Boolean(nixpkgs))
      throw new UsageError("index build: give exactly one of --from FILE and --nixpkgs PATH, and --out PATH");
    if (!out) throw new UsageError("index build: --out PATH is required");
    if (statSync(out, { throwIfNoEntry: false })?.isDirectory())
      throw new UsageError(`index build: --out ${out} is a directory; give the index file's path, e.g. ${join(out, "nixpkgs.idx")}`);
    const started = Date.now();
    // The daemon stops a background build with SIGTERM (at shutdown): nix-env must stop with us,
    // or it evaluates on for minutes with nobody waiting.
    const stop = new AbortController();
    process.once("SIGTERM", () => stop.abort());
    try {
      const summary = await buildIndexFrom(
        from ? { file: resolve(from) } : { nixpkgs: resolve(nixpkgs!) },
        resolve(out),
        (message) => process.stderr.write(`${message}\n`),
        stop.signal,
      );
      process.stdout.write(`${summary.packages} packages, ${(summary.bytes / 1e6).toFixed(1)} MB → ${out} in ${Date.now() - started} ms\n`);
      return EXIT.ok;
    } catch (error) {
      if (!(error instanceof NixpkgsError)) throw error;
      process.stderr.write(`nixshed index: ${error.message}\n${error.hint ? `${error.hint}\n` : ""}`);
      return EXIT.failure;
    }
  },
};
