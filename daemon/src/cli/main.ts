#!/usr/bin/env node
// The nixshed command line: parses flags, dispatches to a subcommand, maps failures to exit codes
// (0 ok, 1 failure, 2 usage). Nothing imports this file.
import { parseArgs } from "node:util";
import { ConfigError } from "../config/load.js";
import { VERSION } from "../version.js";
import { commonOptions, EXIT, UsageError, type Command } from "./command.js";
import { configCommand } from "./config.js";
import { doctorCommand } from "./doctor.js";
import { serveCommand } from "./serve.js";

const commands: Command[] = [serveCommand, doctorCommand, configCommand];

function usage(): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return `nixshed ${VERSION}: MCP server for nixpkgs, jailed sandboxes and project-aware tools

Usage: nixshed [COMMAND] [flags]

Commands:
${commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`).join("\n")}

Run \`nixshed COMMAND --help\` for a command's flags. Without a command, nixshed serves.
`;
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === "--version" || argv[0] === "-V") {
    process.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  if (argv[0] === "--help" || argv[0] === "-h" || argv[0] === "help") {
    process.stdout.write(usage());
    return EXIT.ok;
  }
  const named = argv[0] && !argv[0].startsWith("-") ? commands.find((command) => command.name === argv[0]) : serveCommand;
  if (!named) {
    process.stderr.write(`nixshed: unknown command '${argv[0]}'\n\n${usage()}`);
    return EXIT.usage;
  }
  const rest = named === serveCommand && argv[0] !== "serve" ? argv : argv.slice(1);
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: { ...commonOptions, ...named.options }, allowPositionals: true, strict: true });
  } catch (error) {
    process.stderr.write(`nixshed ${named.name}: ${(error as Error).message}\n\n${named.help}\n`);
    return EXIT.usage;
  }
  if (parsed.values.help) {
    process.stdout.write(`${named.help}\n`);
    return EXIT.ok;
  }
  if (parsed.positionals.length > 0 && !named.positionals) {
    process.stderr.write(`nixshed ${named.name}: unexpected argument '${parsed.positionals[0]}'\n\n${named.help}\n`);
    return EXIT.usage;
  }
  return named.run(parsed.values as Record<string, string | boolean | string[] | undefined>, parsed.positionals);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`nixshed: ${error.message}\n`);
      process.exitCode = EXIT.usage;
    } else if (error instanceof ConfigError) {
      process.stderr.write(`nixshed: ${error.message}\n`);
      process.exitCode = EXIT.failure;
    } else {
      process.stderr.write(`nixshed: ${(error as Error).stack ?? error}\n`);
      process.exitCode = EXIT.failure;
    }
  },
);
