// What a subcommand uses to load the configuration: the common flags (./base.ts) validated.
import { createLogger, type Logger, type LogLevel } from "../log.js";
import { validateLayers, type LoadedConfig } from "../config/load.js";
import { layersFromFlags, type Values } from "./base.js";

export * from "./base.js";

export function loadFromFlags(values: Values, extraFlagKeys: Record<string, string> = {}): { loaded: LoadedConfig; log: Logger } {
  const loaded = validateLayers(layersFromFlags(values, extraFlagKeys));
  return { loaded, log: createLogger(loaded.config.log_level as LogLevel) };
}
