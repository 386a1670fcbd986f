// `nixshed trust`: lets a project's .nixshed.toml widen what nixshed does, the way `direnv allow`
// works: the record names the file and the sha256 of its content now, so any edit untrusts it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { validateLayers } from "../config/load.js";
import { isTrusted, listTrust, revokeTrust, sha256, writeTrust } from "../config/trust-store.js";
import { commonHelp, EXIT, layersFromFlags, UsageError, type Command } from "./command.js";

export const trustCommand: Command = {
  name: "trust",
  summary: "trust a project's .nixshed.toml as it is now (trust [DIR] [--revoke | --list])",
  help: `Usage: nixshed trust [DIR] [--revoke | --list] [flags]

An untrusted project's .nixshed.toml may only narrow what nixshed does (see SECURITY.md). Read the
file, then trust it: its content hash is recorded in the state directory, and any change to the
file untrusts it again.

  DIR        the project (default: --project, else the nearest ancestor with .git, else the cwd)
  --revoke   forget the trust of DIR's .nixshed.toml
  --list     list the trusted files, each with whether it still matches

${commonHelp}`,
  options: { revoke: { type: "boolean" }, list: { type: "boolean" } },
  positionals: true,
  async run(values, positionals) {
    if (positionals.length > 1) throw new UsageError(`trust: expected at most one DIR, got ${positionals.length}`);
    if (values.revoke && values.list) throw new UsageError("trust: give --revoke or --list, not both");
    const layers = layersFromFlags({ ...values, project: positionals[0] ?? values.project });
    const write = (line: string) => process.stdout.write(`${line}\n`);
    if (values.list) {
      const records = listTrust(layers.trustStore);
      if (records.length === 0) write("nothing trusted yet: `nixshed trust [DIR]` trusts a project's .nixshed.toml");
      for (const record of records) {
        const now = readContent(record.path);
        const state = now === undefined ? "missing" : sha256(now) === record.sha256 ? "trusted" : "changed since (untrusted)";
        write(`${state}: ${record.path} (${record.trusted_at})`);
      }
      return EXIT.ok;
    }
    const project = layers.project;
    const file = join(layers.projectRoot, ".nixshed.toml");
    if (values.revoke) {
      write(revokeTrust(layers.trustStore, file) ? `revoked: ${file}` : `${file} was not trusted`);
      return EXIT.ok;
    }
    if (!project) {
      process.stderr.write(`nixshed trust: ${file} does not exist; nothing to trust\n`);
      return EXIT.failure;
    }
    if (project.problem) {
      process.stderr.write(`nixshed trust: ${project.problem}; choose a state directory outside the project (--state-dir)\n`);
      return EXIT.failure;
    }
    if (isTrusted(layers.trustStore, project.path, project.sha256)) {
      write(`${project.path} is already trusted as it is`);
      return EXIT.ok;
    }
    // What trusting changes: the settings an untrusted file may not make, validated as they will apply.
    const { trust } = validateLayers({ ...layers, project: { ...project, trusted: false } });
    validateLayers({ ...layers, project: { ...project, trusted: true } });
    writeTrust(layers.trustStore, project.path, project.sha256);
    write(`trusted: ${project.path} (sha256 ${project.sha256.slice(0, 16)}…)`);
    for (const { key, value } of trust?.ignored ?? []) write(`  now applies: ${key} = ${JSON.stringify(value)}`);
    return EXIT.ok;
  },
};

function readContent(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
