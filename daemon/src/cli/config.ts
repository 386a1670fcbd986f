import { describeConfig } from "../config/load.js";
import { commonHelp, EXIT, loadFromFlags, type Command } from "./command.js";

export const configCommand: Command = {
  name: "config",
  summary: "print the effective configuration and where each value came from",
  help: `Usage: nixshed config [--json] [flags]

  --json   print JSON: {files, values: [{key, value, source}]}

${commonHelp}`,
  options: { json: { type: "boolean" } },
  async run(values) {
    const { loaded } = loadFromFlags(values);
    const rows = describeConfig(loaded);
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ projectRoot: loaded.projectRoot, files: loaded.files, values: rows }, null, 2)}\n`);
      return EXIT.ok;
    }
    process.stdout.write(`# project root: ${loaded.projectRoot}\n`);
    for (const file of loaded.files) process.stdout.write(`# ${file.found ? "read" : "absent"}: ${file.path}\n`);
    for (const row of rows) process.stdout.write(`${row.key} = ${JSON.stringify(row.value)}  # ${row.source}\n`);
    return EXIT.ok;
  },
};
