// Loads the configuration once: the layers (./layers.ts) validated against the schema
// (./schema.ts). Errors name the file (or variable, or flag), the key and what is allowed.
import { collectLayers, ConfigError, isTable, nixshedDir, sourceOf, type ConfigFile, type Layers, type LoadOptions } from "./layers.js";
import { configSchema, type Config } from "./schema.js";
import { allowedKeys } from "./shape.js";

export { ConfigError, findProjectRoot, type LoadOptions } from "./layers.js";

export interface LoadedConfig {
  config: Config;
  projectRoot: string;
  stateDir: string;
  cacheDir: string;
  files: ConfigFile[];
  /** Dotted key (leaf or table) → the last layer that set it; leaves absent here are defaults. */
  provenance: Map<string, string>;
}

export function loadConfig(options: LoadOptions = {}): LoadedConfig {
  return validateLayers(collectLayers(options));
}

/** Validates merged layers against the schema; errors name the layer, the key and what is allowed. */
export function validateLayers({ projectRoot, files, merged, provenance, env }: Layers): LoadedConfig {
  const result = configSchema.safeParse(merged);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const base = issue.path.join(".");
      if (issue.code === "unrecognized_keys") {
        const allowed = allowedKeys(configSchema, issue.path as (string | number)[]).join(", ");
        return issue.keys
          .map((key) => {
            const dotted = base ? `${base}.${key}` : key;
            return `${sourceOf(dotted, provenance)}: unknown key \`${dotted}\` (allowed ${base ? `in [${base}]` : "at the top level"}: ${allowed})`;
          })
          .join("\n");
      }
      return `${sourceOf(base, provenance)}: \`${base}\`: ${issue.message}`;
    });
    throw new ConfigError(`invalid configuration:\n${problems.join("\n")}\n(see config.example.toml for every key)`);
  }
  const config = result.data;
  const stateDir = nixshedDir("state", config.state_dir, projectRoot, env);
  const cacheDir = nixshedDir("cache", config.cache_dir, projectRoot, env);
  return { config, projectRoot, stateDir, cacheDir, files, provenance };
}

/** Every leaf of the effective configuration with the layer it came from, for `nixshed config`. */
export function describeConfig(loaded: LoadedConfig): { key: string; value: unknown; source: string }[] {
  const rows: { key: string; value: unknown; source: string }[] = [];
  const walk = (node: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      const dotted = prefix ? `${prefix}.${key}` : key;
      if (isTable(value) && Object.keys(value).length > 0) walk(value, dotted);
      else rows.push({ key: dotted, value, source: loaded.provenance.get(dotted) ?? "default" });
    }
  };
  walk(loaded.config as unknown as Record<string, unknown>, "");
  return rows;
}
