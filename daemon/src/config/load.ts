// Loads the configuration once: the layers (./layers.ts), an untrusted project file narrowed to
// what it may set (./trust.ts), validated against the schema (./schema.ts). Errors name the file
// (or variable, or flag), the key and what is allowed.
import { dirname } from "node:path";
import {
  ConfigError,
  collectLayers,
  isTable,
  mergeLayers,
  nixshedDir,
  sourceOf,
  type ConfigFile,
  type Layer,
  type Layers,
  type LoadOptions,
} from "./layers.js";
import type { z } from "zod";
import { configSchema, type Config } from "./schema.js";
import { lineOfKey } from "./key-line.js";
import { allowedKeys, keyPaths, schemaAt } from "./shape.js";
import { closest } from "./suggest.js";
import { valueWords } from "./value-words.js";
import { narrowProjectValues, trustCommand, type ProjectTrust } from "./trust.js";

export { ConfigError, findProjectRoot, type LoadOptions } from "./layers.js";
export type { ProjectTrust } from "./trust.js";

export interface LoadedConfig {
  config: Config;
  projectRoot: string;
  stateDir: string;
  cacheDir: string;
  files: ConfigFile[];
  /** Dotted key (leaf or table) → the last layer that set it; leaves absent here are defaults. */
  provenance: Map<string, string>;
  /** The project's .nixshed.toml: trusted or not, and what was ignored. Absent without one. */
  trust?: ProjectTrust;
}

export function loadConfig(options: LoadOptions = {}): LoadedConfig {
  return validateLayers(collectLayers(options));
}

/** The merged layers validated; errors name the layer (with the line, for a file), the key and what is allowed. */
function validate(layers: Layer[]): { config: Config; provenance: Map<string, string> } {
  const { merged, provenance } = mergeLayers(layers);
  const result = configSchema.safeParse(merged);
  if (result.success) return { config: result.data, provenance };
  const texts = new Map(layers.flatMap((layer) => (layer.text === undefined ? [] : [[layer.source, layer.text] as const])));
  const where = (dotted: string) => {
    const source = sourceOf(dotted, provenance);
    const text = texts.get(source);
    const line = text === undefined ? undefined : lineOfKey(text, dotted);
    return line === undefined ? source : `${source}:${line}`;
  };
  const problems = result.error.issues.map((issue) => {
    const base = issue.path.join(".");
    if (issue.code === "unrecognized_keys") {
      const allowedHere = allowedKeys(configSchema, issue.path as (string | number)[]);
      const allowed = `allowed ${base ? `in [${base}]` : "at the top level"}: ${allowedHere.join(", ")}`;
      return issue.keys
        .map((key) => {
          const dotted = base ? `${base}.${key}` : key;
          const near = closest(key, allowedHere);
          const meant = near ? (base ? `${base}.${near}` : near) : elsewhere(key);
          const hint = meant ? `did you mean \`${meant}\`? ` : "";
          return `${where(dotted)}: unknown key \`${dotted}\` (${hint}${allowed})`;
        })
        .join("\n");
    }
    return `${where(base)}: \`${base}\`: ${issueMessage(issue, merged)}`;
  });
  throw new ConfigError(`invalid configuration:\n${problems.join("\n")}\n(\`nixshed config --example\` prints every key, documented)`);
}

/**
 * The key of another table a misplaced key means, when one alone is named so or nearly so: `read_only`
 * at the top level is `fs.read_only`, `max_session` in [sandbox] is `sandbox.sessions.max_sessions`.
 */
function elsewhere(key: string): string | undefined {
  const byName = new Map<string, string[]>();
  for (const path of keyPaths(configSchema)) {
    const name = path.slice(path.lastIndexOf(".") + 1);
    byName.set(name, [...(byName.get(name) ?? []), path]);
  }
  const near = closest(key, byName.keys());
  const paths = near === undefined ? [] : byName.get(near)!;
  return paths.length === 1 ? paths[0] : undefined;
}

/** The layers validated, or what is wrong with them. */
function tryValidate(layers: Layer[]): ReturnType<typeof validate> | { error: string } {
  try {
    return validate(layers);
  } catch (error) {
    if (error instanceof ConfigError) return { error: error.message };
    throw error;
  }
}

/** zod's message; for a value of none of a key's forms ("Invalid input"), the forms and what the key is. */
function issueMessage(issue: z.core.$ZodIssue, merged: unknown): string {
  if (issue.code !== "invalid_union") return valueWords(issue, merged);
  const forms = [...new Set(issue.errors.flatMap((branch) => (branch[0]?.code === "invalid_type" ? [branch[0].expected] : [])))];
  const description = schemaAt(configSchema, issue.path as (string | number)[])?.description;
  return `${issue.message}${forms.length > 0 ? `: expected ${forms.join(" or ")}` : ""}${description ? ` (${description})` : ""}`;
}

/**
 * Validates the layers. An untrusted project file keeps only the values that narrow what the
 * trusted layers (alone, defaults included) allow; the rest is dropped and listed in `trust`.
 */
export function validateLayers(layers: Layers): LoadedConfig {
  const { projectRoot, files, project, env } = layers;
  let trust: ProjectTrust | undefined;
  let effective = layers.layers;
  // Set where the untrusted project's layers were already validated.
  let validated: ReturnType<typeof validate> | undefined;
  if (project) {
    const stateDir = dirname(layers.trustStore);
    const command = trustCommand(projectRoot, stateDir, nixshedDir("state", "", env));
    const problem = project.problem ? { problem: project.problem } : {};
    trust = { file: project.path, trusted: project.trusted, ignored: [], command, ...problem };
    const unreadable = layers.layers.find((layer) => layer.project)?.unreadable;
    if (project.trusted && unreadable) throw new ConfigError(unreadable);
    if (!project.trusted) {
      const withoutProject = layers.layers.filter((layer) => !layer.project);
      const trusted = validate(withoutProject);
      effective = layers.layers.map((layer) => {
        if (!layer.project) return layer;
        const { kept, ignored } = narrowProjectValues(layer.values, trusted.config, projectRoot);
        trust!.ignored = ignored;
        return { ...layer, values: kept };
      });
      // An untrusted file in error counts for nothing, as a whole: a repository cannot stop the server starting.
      const checked = unreadable ? { error: unreadable } : tryValidate(effective);
      if ("error" in checked) {
        trust.invalid = checked.error;
        trust.ignored = [];
        validated = trusted;
      } else validated = checked;
    }
  }
  const { config, provenance } = validated ?? validate(effective);
  const stateDir = nixshedDir("state", config.state_dir, env);
  const cacheDir = nixshedDir("cache", config.cache_dir, env);
  return { config, projectRoot, stateDir, cacheDir, files, provenance, ...(trust ? { trust } : {}) };
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
