import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describeConfig } from "../config/load.js";
import { trustStatus } from "../config/trust.js";
import { commonHelp, EXIT, loadFromFlags, type Command } from "./command.js";

export const configCommand: Command = {
  name: "config",
  summary: "print the effective configuration and where each value came from",
  help: `Usage: nixshed config [--json] [flags]

  --json      print JSON: {projectRoot, files, trust, values: [{key, value, source}]}
  --example   print config.example.toml: every key with its default and what it means

${commonHelp}`,
  options: { json: { type: "boolean" }, example: { type: "boolean" } },
  async run(values) {
    if (values.example) return printExample();
    const { loaded } = loadFromFlags(values);
    const rows = describeConfig(loaded);
    const { trust } = loaded;
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ projectRoot: loaded.projectRoot, files: loaded.files, trust, values: rows }, null, 2)}\n`);
      return EXIT.ok;
    }
    process.stdout.write(`# project root: ${loaded.projectRoot}\n`);
    for (const file of loaded.files) process.stdout.write(`# ${file.found ? "read" : "absent"}: ${file.path}\n`);
    if (trust) {
      const status = trustStatus(trust);
      process.stdout.write(`${[status.detail, status.fix].filter(Boolean).join("\n").replace(/^/gm, "# ")}\n`);
    }
    const narrowing = trust && !trust.trusted ? trust.file : undefined;
    for (const row of rows) {
      const mark = row.source === narrowing ? " (untrusted: narrowing only)" : "";
      process.stdout.write(`${row.key} = ${JSON.stringify(row.value)}  # ${row.source}${mark}\n`);
    }
    return EXIT.ok;
  },
};

/** The example ships beside the daemon: the repository root in a checkout, lib/nixshed in the Nix package. */
const EXAMPLE = fileURLToPath(new URL("../../../config.example.toml", import.meta.url));

function printExample(): number {
  let text: string;
  try {
    text = readFileSync(EXAMPLE, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    process.stderr.write(`nixshed config: this installation carries no config.example.toml (looked for ${EXAMPLE}); see the README\n`);
    return EXIT.failure;
  }
  process.stdout.write(text);
  return EXIT.ok;
}
