// `nixshed doctor`: what this machine can do for nixshed, each problem with a one-line fix.
import { discover } from "../discovery/discover.js";
import { commonHelp, EXIT, loadFromFlags, type Command } from "./command.js";

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** One line that fixes it, when not ok. */
  fix?: string;
}

export const doctorCommand: Command = {
  name: "doctor",
  summary: "check node, nix, bubblewrap, limits, config files and discovery",
  help: `Usage: nixshed doctor [--json] [flags]

  --json   print the checks as JSON

${commonHelp}`,
  options: { json: { type: "boolean" } },
  async run(values) {
    const { loaded, log } = loadFromFlags(values);
    const checks: Check[] = [];
    const major = Number(process.versions.node.split(".")[0]);
    checks.push({
      name: "node",
      ok: major >= 20,
      detail: process.version,
      fix: "install Node.js 20 or newer",
    });
    for (const file of loaded.files) {
      checks.push({ name: "config file", ok: true, detail: `${file.found ? "read" : "absent"}: ${file.path}` });
    }
    const discovery = await discover(loaded, log);
    checks.push({
      name: "environments",
      ok: discovery.environments.size > 0,
      detail: [...discovery.environments.values()].map((env) => `${env.name} (${env.origin})`).join(", ") || "none discovered",
      fix: "run through `nix run github:OWNER/nixshed`, pass --metadata PATH, or link sandboxes into ~/.config/nixshed/sandboxes",
    });
    for (const note of discovery.notes) checks.push({ name: "discovery", ok: false, detail: note });
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ checks }, null, 2)}\n`);
    } else {
      for (const check of checks) {
        process.stdout.write(`${check.ok ? "ok  " : "FAIL"} ${check.name}: ${check.detail}\n`);
        if (!check.ok && check.fix) process.stdout.write(`     fix: ${check.fix}\n`);
      }
    }
    return checks.some((check) => !check.ok) ? EXIT.failure : EXIT.ok;
  },
};
