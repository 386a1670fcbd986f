// `nixshed serve`: MCP over stdio. The initialize reply goes out as early as possible: at once
// when this build has started with the same configuration before (mcp/initialize-cache.ts), else
// as soon as the configuration is validated and the instructions are known. Discovery, the MCP SDK
// and the capabilities load after it (see mcp/early-stdio.ts).
import type { Logger } from "../log.js";
import type { Config } from "../config/schema.js";
import { answerInitializeEarly, DEFAULT_MAX_MESSAGE_BYTES } from "../mcp/early-stdio.js";
import { openInitializeCache } from "../mcp/initialize-cache.js";
import { commonHelp, EXIT, layersFromFlags, type Command } from "./base.js";

/** The largest request read: room for a write of fs.max_write_bytes even when JSON escaping multiplies it. */
const maxMessageBytes = (config: Config) => Math.max(DEFAULT_MAX_MESSAGE_BYTES, 6 * config.fs.max_write_bytes + 1024 * 1024);

export const serveCommand: Command = {
  name: "serve",
  summary: "serve MCP over stdio (the default)",
  help: `Usage: nixshed serve [flags]

Serves the MCP protocol on stdin/stdout; logs go to stderr.

  --nixpkgs-index PATH  prebuilt nixpkgs search index

${commonHelp}`,
  options: { "nixpkgs-index": { type: "string" } },
  async run(values) {
    const layers = layersFromFlags(values, { "nixpkgs-index": "nixpkgs.index" });
    const cache = openInitializeCache(layers);
    let log: Logger | undefined;
    const differs = (early: string, sdk: string) => log?.error(`early initialize reply differs from the SDK's: early ${early}, SDK ${sdk}`);
    let early = cache.instructions === undefined ? undefined : answerInitializeEarly(cache.instructions, differs);

    const { validateLayers } = await import("../config/load.js");
    const { createLogger } = await import("../log.js");
    const loaded = validateLayers(layers);
    log = createLogger(loaded.config.log_level);
    const { trustWarning } = await import("../config/trust.js");
    const untrusted = trustWarning(loaded.trust);
    if (untrusted) log.warn(untrusted);
    // A stray rejection in one tool's code must not take the whole server (and its sessions) down.
    process.on("unhandledRejection", (reason) => log?.error(`unhandled rejection (a nixshed bug): ${(reason as Error)?.stack ?? reason}`));
    // After an exception nothing is known to be in order: say why, and fail.
    process.on("uncaughtException", (error) => {
      log?.error(`fatal (a nixshed bug): ${error.stack ?? error}`);
      process.exit(EXIT.failure);
    });
    const { buildServer, instructionsFor, serveStdio } = await import("../server.js");
    const instructions = instructionsFor(loaded.config);
    early ??= answerInitializeEarly(instructions, differs);
    early.maxMessageBytes = maxMessageBytes(loaded.config);
    early.onOversized = (bytes) => log?.warn(`refused a ${bytes}-byte message: over the ${early?.maxMessageBytes}-byte limit`);
    cache.remember(instructions);

    const { discover } = await import("../discovery/discover.js");
    const server = await buildServer(loaded, await discover(loaded, log), log);
    return (await serveStdio(server, log, early)) ? EXIT.ok : EXIT.failure;
  },
};
