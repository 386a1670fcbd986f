#!/usr/bin/env node
// The nixshed command line: parses flags, dispatches to a subcommand, maps failures to exit codes
// (0 ok, 1 failure, 2 usage). Nothing imports this file.
import module from "node:module";
import { parseArgs } from "node:util";
import { ConfigError } from "../config/layers.js";
import { closest } from "../config/suggest.js";
import { absoluteDirs } from "../files/on-path.js";
import { VERSION } from "../version.js";
import { commonOptions, EXIT, UsageError, type Command, type Options } from "./base.js";

// Node >= 22.1 keeps the compiled code of the modules loaded below between starts (faster first
// initialize); older Node has no such cache and goes on without.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

/**
 * Every subcommand, loaded only when it runs: `serve` must reach its initialize reply without
 * loading what the other commands need. Add a command as one line here.
 */
const commands: Record<string, () => Promise<Command>> = {
  serve: async () => (await import("./serve.js")).serveCommand,
  doctor: async () => (await import("./doctor.js")).doctorCommand,
  config: async () => (await import("./config.js")).configCommand,
  index: async () => (await import("./index.js")).indexCommand,
  search: async () => (await import("./search.js")).searchCommand,
  trust: async () => (await import("./trust.js")).trustCommand,
};

async function usage(): Promise<string> {
  const loaded = await Promise.all(Object.values(commands).map((load) => load()));
  const width = Math.max(...loaded.map((command) => command.name.length));
  return `nixshed ${VERSION}: MCP server for nixpkgs, jailed sandboxes and project-aware tools

Usage: nixshed [COMMAND] [flags]

Commands:
${loaded.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`).join("\n")}

Flags:
  -V, --version  print the version
  -h, --help     this help

Run \`nixshed COMMAND --help\` for a command's flags. Without a command, nixshed serves.
\`nixshed config --example\` prints every configuration key, documented.
`;
}

/** parseArgs' error in one line; an unknown flag names the closest known one (-v: the short flag of the other case, -V). */
function flagError(error: NodeJS.ErrnoException, options: Options): string {
  // "Option '--project <value>' argument missing" is parseArgs' word for a flag given last, without its value.
  const valueless =
    error.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE"
      ? /Option '(-{1,2}[^' ]+)[^']*' argument missing/.exec(error.message)?.[1]
      : undefined;
  if (valueless) return `${valueless} needs a value (see the usage below)`;
  const unknown = error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" ? /'(-{1,2}[^'=]+)/.exec(error.message)?.[1] : undefined;
  if (!unknown) return error.message;
  const letter = /^-([A-Za-z])$/.exec(unknown)?.[1];
  const short = letter && Object.values(options).find((option) => option.short?.toLowerCase() === letter.toLowerCase())?.short;
  const long = closest(unknown.replace(/^-+/, ""), Object.keys(options));
  const near = short ? `-${short}` : long && `--${long}`;
  return `unknown flag ${unknown}${near ? `; did you mean ${near}?` : ""}`;
}

/**
 * The command moved to the front when the common flags come before it (`nixshed --config x doctor`),
 * as many tools take them; argv as it is otherwise.
 */
function commandFirst(argv: string[]): string[] {
  if (argv[0] === undefined || !argv[0].startsWith("-")) return argv;
  const { tokens } = parseArgs({ args: argv, options: commonOptions, allowPositionals: true, strict: false, tokens: true });
  const command = tokens.find((token) => token.kind === "positional");
  if (!command || !Object.hasOwn(commands, command.value)) return argv;
  return [command.value, ...argv.slice(0, command.index), ...argv.slice(command.index + 1)];
}

async function main(given: string[]): Promise<number> {
  // An empty or relative PATH entry is the working directory, often the project: no program the host starts, nor any
  // it starts in turn (nix's git, bwrap's true, bin/run's systemd-run), is looked up there (SECURITY.md, boundary 2).
  if (process.env.PATH !== undefined) process.env.PATH = absoluteDirs(process.env.PATH);
  const argv = commandFirst(given);
  if (argv[0] === "--version" || argv[0] === "-V") {
    process.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  if (argv[0] === "--help" || argv[0] === "-h" || argv[0] === "help") {
    // `nixshed help search` is `nixshed search --help`.
    const about = argv[0] === "help" && argv[1] !== undefined && Object.hasOwn(commands, argv[1]) ? commands[argv[1]] : undefined;
    process.stdout.write(about ? `${(await about()).help}\n` : await usage());
    return EXIT.ok;
  }
  const explicit = argv[0] !== undefined && !argv[0].startsWith("-");
  const name = explicit ? argv[0]! : "serve";
  const load = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!load) {
    // `nixshed version` means the flag.
    // A flag's name without its dashes (`nixshed projet x`) is that flag meant.
    const flag = closest(name, Object.keys(commonOptions));
    const near = name === "version" ? "--version" : (closest(name, Object.keys(commands)) ?? (flag && `--${flag}`));
    process.stderr.write(`nixshed: unknown command '${argv[0]}'${near ? `; did you mean '${near}'?` : ""}\n\n${await usage()}`);
    return EXIT.usage;
  }
  const named = await load();
  if (named.name !== "serve") {
    // A reader that went away (`nixshed config | head`) ends us quietly. (serve shuts down its own way.)
    process.stdout.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
      process.exit(process.exitCode ?? EXIT.ok);
    });
  }
  const rest = explicit ? argv.slice(1) : argv;
  const options = { ...commonOptions, ...named.options };
  // biome-ignore lint/suspicious/noImplicitAnyLet: TypeScript types it from the parseArgs assignment below (control-flow typing)
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options, allowPositionals: true, strict: true });
  } catch (error) {
    const help = explicit ? `${named.help}\n` : await usage();
    process.stderr.write(`nixshed${explicit ? ` ${named.name}` : ""}: ${flagError(error as NodeJS.ErrnoException, options)}\n\n${help}`);
    return EXIT.usage;
  }
  if (parsed.values.help) {
    process.stdout.write(`${named.help}\n`);
    return EXIT.ok;
  }
  if (parsed.values.version) {
    process.stdout.write(`${VERSION}\n`);
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
