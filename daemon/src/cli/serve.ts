import { discover } from "../discovery/discover.js";
import { buildServer, serveStdio } from "../server.js";
import { commonHelp, EXIT, loadFromFlags, type Command } from "./command.js";

export const serveCommand: Command = {
  name: "serve",
  summary: "serve MCP over stdio (the default)",
  help: `Usage: nixshed serve [flags]

Serves the MCP protocol on stdin/stdout; logs go to stderr.

  --nixpkgs-index PATH  prebuilt nixpkgs search index

${commonHelp}`,
  options: { "nixpkgs-index": { type: "string" } },
  async run(values) {
    const { loaded, log } = loadFromFlags(values, { "nixpkgs-index": "nixpkgs.index" });
    const discovery = await discover(loaded, log);
    const server = await buildServer(loaded, discovery, log);
    await serveStdio(server, log);
    return EXIT.ok;
  },
};
