// The one description of every configuration key: its type, its default and what it means.
// Layers (files, environment, flags) are merged by ./load.ts and validated against this schema
// once at startup; config.example.toml is kept in sync with it by a test.
import { availableParallelism } from "node:os";
import { z } from "zod";
import { networkSchema } from "./network.js";
import { DEFAULT_PROTECTED_PATHS } from "./protected-paths.js";

/**
 * The default byte budget of one tool call's whole answer (MCP clients cut results near 25k tokens):
 * 32 KB read strictly, so that an answer is under it whichever way a kilobyte is counted.
 */
export const DEFAULT_RESPONSE_BYTES = 32_000;

const seconds = (max: number) => z.number().int().min(1).max(max);
const bytes = z.number().int().min(1024);
const access = z.enum(["none", "ro", "rw"]);

const fsSchema = z
  .strictObject({
    enabled: z.boolean().default(true).describe("Serve the filesystem tools"),
    read_only: z.boolean().default(false).describe("Refuse every tool that writes"),
    allow_move: z.boolean().default(false).describe("Enable move_items"),
    allow_delete: z.boolean().default(false).describe("Enable delete_items"),
    extra_roots: z.array(z.string()).default([]).describe("Directories served besides the project root"),
    use_client_roots: z.boolean().default(true).describe("Also serve the MCP client's roots when it offers them"),
    max_read_bytes: bytes
      .default(1048576)
      .describe(
        "Byte budget of one read_content call (the answer is then cut to responses.max_bytes); a larger file is read one answer at a time",
      ),
    max_write_bytes: bytes
      .default(10485760)
      .describe("Largest content one write_content item may carry, and the largest file edit_file edits"),
    max_list_entries: z.number().int().min(1).default(1000).describe("Entries one list_files call returns"),
    max_search_results: z.number().int().min(1).default(200).describe("Matches one search_files call returns"),
    timeout_seconds: seconds(3600).default(30).describe("Wall-clock limit of one filesystem call"),
  })
  .prefault({});

const sessionsSchema = z
  .strictObject({
    max_sessions: z.number().int().min(1).max(1024).default(16).describe("Live sessions at once"),
    idle_timeout_seconds: seconds(86400).default(600).describe("A session idle this long is closed"),
    max_lifetime_seconds: seconds(604800).default(3600).describe("A session older than this is closed"),
  })
  .prefault({});

const sandboxSchema = z
  .strictObject({
    enabled: z.boolean().default(true).describe("Serve the run tool and sessions"),
    dirs: z.array(z.string()).default([]).describe("Extra directories of sandbox symlinks (besides the XDG and /etc ones)"),
    project_access: access.default("rw").describe("Most project access any environment gets; an environment's own setting is capped by it"),
    max_timeout_seconds: seconds(86400).default(600).describe("Largest timeout_seconds a call may ask for"),
    max_output_bytes: bytes
      .default(4194304)
      .describe("Cap per output stream of one call (head and tail kept; the answer is then cut to responses.max_bytes)"),
    max_stdin_bytes: bytes.default(1048576).describe("Largest stdin one call may pass"),
    max_jails: z
      .number()
      .int()
      .min(0)
      .max(4096)
      .default(0)
      .describe("Jails running at once across run, session calls and nixpkgs_execute (0: twice the CPUs, at least 4)"),
    max_queued_jails: z.number().int().min(0).max(65536).default(64).describe("Calls that may wait for a free jail; more are refused"),
    sessions: sessionsSchema,
  })
  .prefault({});

const responsesSchema = z
  .strictObject({
    max_bytes: z
      .number()
      .int()
      .min(4096)
      .default(DEFAULT_RESPONSE_BYTES)
      .describe("Budget of one tool call's whole answer (text plus structured content); a longer one keeps its head and tail"),
    keep_files: z.number().int().min(1).max(10000).default(100).describe("Whole texts of cut answers kept for read_content (newest first)"),
    keep_seconds: seconds(604800).default(86400).describe("How long the whole text of a cut answer is kept"),
    keep_bytes: bytes
      .min(4 * 1024 * 1024)
      .default(268435456)
      .describe("What the whole texts and output streams kept may take on disk in all; one stream at most a quarter"),
  })
  .prefault({});

const permissionSchema = z.strictObject({
  network: networkSchema.optional().describe("The package's network: false, true, or destinations it may reach"),
  project_access: access.optional().describe("Project access for this package"),
});

/** A host path mounted into a jail: "/host" or "/host:/jail" (read-only), or a table as lib.mkEnvironment's mounts take it. */
const mountSchema = z.union([
  z.string().regex(/^\/[^:]*(:\/[^:]*)?$/, 'a mount is "/host/path" or "/host/path:/jail/path"'),
  z.strictObject({
    source: z.string().startsWith("/"),
    target: z.string().startsWith("/").optional(),
    writable: z.boolean().optional(),
    optional: z.boolean().optional(),
  }),
]);
export type Mount = z.infer<typeof mountSchema>;

const nixpkgsSchema = z
  .strictObject({
    enabled: z.boolean().default(true).describe("Serve the nixpkgs tools"),
    index: z.string().default("").describe("Prebuilt search index (empty: from the metadata, else built on first need)"),
    source: z
      .string()
      .default("")
      .describe(
        "nixpkgs to realise packages from: a flake ref or a path (empty: the pinned one from the metadata); a path not there yet is looked for every 2 s",
      ),
    build_timeout_seconds: seconds(86400).default(900).describe("Limit for realising one package"),
    run_timeout_seconds: seconds(86400).default(60).describe("Default limit for one execution"),
    project_access: access.default("ro").describe("Project access of executed packages unless permissions say otherwise"),
    network: networkSchema
      .default(false)
      .describe(
        'Network for executed packages unless permissions say otherwise: false, true, or destinations, e.g. ["example.org", "*.example.net", "127.0.0.1:5432"]',
      ),
    permissions: z.record(z.string(), permissionSchema).default({}).describe("Per-attribute overrides"),
    common_tools: z
      .enum(["execute", "tools", "off"])
      .default("execute")
      .describe(
        "The everyday packages (curated list plus `tools`). execute: named in nixpkgs_execute's description; tools: also one tool each; off: neither",
      ),
    tools: z.array(z.string()).default([]).describe("Attributes added to the everyday packages (see common_tools)"),
    extra_mounts: z
      .array(mountSchema)
      .default([])
      .describe(
        'Host paths mounted into every executed package\'s jail: "/host" or "/host:/jail" (read-only) or { source, target, writable, optional }',
      ),
    nix_options: z
      .array(z.string())
      .default([])
      .describe('Extra arguments for the nix commands that realise packages, e.g. ["--option", "substituters", ""]'),
  })
  .prefault({});

const pkglocalSchema = z
  .strictObject({
    enabled: z.boolean().default(true).describe("Serve scan_packages and read_package"),
    python_envs: z
      .array(z.string())
      .default([])
      .describe("Extra Python environments: venvs, site-packages dirs or Nix Python env prefixes (relative to the project)"),
    node_modules: z.array(z.string()).default([]).describe("Extra node_modules directories (relative to the project)"),
    max_tree_entries: z.number().int().min(10).default(400).describe("Files listed in one package tree"),
    max_read_bytes: bytes.default(1048576).describe("Byte budget of one page of a package file (read_package with a path)"),
  })
  .prefault({});

// [environments.<name>] tables: what lib.fromToml builds. The daemon validates them too so that a
// typo fails loudly here, and `doctor` reports declared environments that were not discovered.
const environmentSchema = z.strictObject({
  preset: z.enum(["shell", "python", "node"]).describe("Preset to start from"),
  description: z.string().optional(),
  packages: z.array(z.string()).default([]).describe("Extra nixpkgs attribute paths"),
  timeout_seconds: seconds(86400).optional(),
  memory_mb: z.number().int().min(16).optional(),
  max_processes: z.number().int().min(1).optional(),
  workspace_mb: z.number().int().min(1).optional(),
  network: networkSchema.optional(),
  project_access: access.optional(),
});

export const configSchema = z.strictObject({
  log_level: z.enum(["error", "warn", "info", "debug"]).default("info").describe("Log level (stderr only)"),
  metadata: z.string().default("").describe("Metadata store path made by lib.mkMetadata"),
  state_dir: z.string().default("").describe("Persistent state (empty: $XDG_STATE_HOME/nixshed)"),
  cache_dir: z.string().default("").describe("Caches (empty: $XDG_CACHE_HOME/nixshed)"),
  protected_paths: z
    .array(z.string().min(1))
    .default([...DEFAULT_PROTECTED_PATHS])
    .describe("Project paths the host runs or obeys: the fs tools never change them and read-write jails see them read-only"),
  responses: responsesSchema,
  fs: fsSchema,
  sandbox: sandboxSchema,
  nixpkgs: nixpkgsSchema,
  pkglocal: pkglocalSchema,
  environments: z.record(z.string().regex(/^[a-z][a-z0-9_-]*$/), environmentSchema).default({}),
});

export type Config = z.infer<typeof configSchema>;

/** What sandbox.max_jails means: its value, or for 0 twice the CPUs, at least 4. */
export const maxJails = (maxJailsSetting: number): number => maxJailsSetting || Math.max(4, 2 * availableParallelism());
export type ProjectAccess = z.infer<typeof access>;
