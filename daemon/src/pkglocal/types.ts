// What the pkglocal core finds: the environments of a project and the packages installed in them.
// Schemas, not only types: a scan is kept in the cache dir and read back through them.
import { z } from "zod";

const language = z.enum(["python", "node"]);
export type Language = z.infer<typeof language>;

/** An environment the scan read: a site-packages directory or a node_modules directory. */
export const foundEnvironmentSchema = z.object({
  language,
  /** How it was found: venv, virtual_env, uv, poetry, pipenv, hatch, nix, pythonpath, config, node_modules, workspace, ancestor. */
  kind: z.string(),
  /** The venv or project directory for people to recognise (absolute). */
  path: z.string(),
  /** The directory whose entries are packages: site-packages or node_modules (absolute). */
  packagesDir: z.string(),
  /** npm, pnpm, yarn, bun for node; pip, uv, poetry, pipenv, hatch, nix for python. */
  manager: z.string(),
  /** Python's version from pyvenv.cfg or the lib/pythonX.Y directory. */
  pythonVersion: z.string().optional(),
});
export type FoundEnvironment = z.infer<typeof foundEnvironmentSchema>;

export const packageRecordSchema = z.object({
  name: z.string(),
  /** Exactly as the package's own metadata says. */
  version: z.string(),
  language,
  manager: z.string(),
  /** Absolute directory every `path` of read_package is relative to. */
  root: z.string(),
  /**
   * Entries of `root` that belong to the package (python: its import dirs, modules and
   * dist-info); undefined when the whole root is the package (node, editable installs).
   */
  members: z.array(z.string()).optional(),
  /** Python: the names to import. */
  importNames: z.array(z.string()).optional(),
  /** Node: main, exports and types entry points as package.json names them. */
  entry: z
    .object({
      main: z.string().optional(),
      module: z.string().optional(),
      types: z.string().optional(),
      exports: z.array(z.string()).optional(),
    })
    .optional(),
  summary: z.string().optional(),
  /** Python: set when installed in editable mode, to the source directory. */
  editable: z.string().optional(),
});
export type PackageRecord = z.infer<typeof packageRecordSchema> & {
  /**
   * The real directories any file of the package must lie in: the project, the environment's own
   * packages directory and the Nix store. Set by PackageIndex.scan on every call, never taken from
   * its cache file (the schema above drops it) or from what the environment says (a .pth, a
   * symlink); absent, nothing is read.
   */
  within?: string[];
};
