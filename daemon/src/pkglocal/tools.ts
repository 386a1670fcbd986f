// Registers scan_packages and read_package: the exact installed source of the project's Python and
// Node dependencies, read where the installers put it.
import type { Capability } from "../capability.js";
import { textRoom } from "../mcp/response-budget.js";
import { registerTool } from "../mcp/tool.js";
import { PackageIndex } from "./package-index.js";
import { readPackageTool } from "./read-tool.js";
import { scanPackagesTool } from "./scan-tool.js";

export const pkglocalCapability: Capability = {
  name: "pkglocal",
  tools: ["scan_packages", "read_package"],
  instructions:
    "Before using a dependency's API, read the installed version: scan_packages lists the project's Python and Node packages, read_package shows one's files and source.",
  async register(ctx) {
    const settings = ctx.config.pkglocal;
    const index = new PackageIndex({
      projectRoot: ctx.projectRoot,
      cacheDir: ctx.cacheDir,
      env: process.env,
      pythonEnvs: settings.python_envs,
      nodeModules: settings.node_modules,
    });
    registerTool(ctx.mcp, scanPackagesTool(index, ctx.projectRoot), ctx.log);
    registerTool(ctx.mcp, readPackageTool(index, ctx.projectRoot, settings, textRoom(ctx.config.responses.max_bytes)), ctx.log);
  },
};
