// What the pkglocal core finds: the environments of a project and the packages installed in them.
export type Language = "python" | "node";

/** An environment the scan read: a site-packages directory or a node_modules directory. */
export interface FoundEnvironment {
  language: Language;
  /** How it was found: venv, virtual_env, uv, poetry, pipenv, hatch, nix, pythonpath, config, node_modules, workspace, ancestor. */
  kind: string;
  /** The venv or project directory for people to recognise (absolute). */
  path: string;
  /** The directory whose entries are packages: site-packages or node_modules (absolute). */
  packagesDir: string;
  /** npm, pnpm, yarn, bun for node; pip, uv, poetry, pipenv, hatch, nix for python. */
  manager: string;
  /** Python's version from pyvenv.cfg or the lib/pythonX.Y directory. */
  pythonVersion?: string;
}

export interface PackageRecord {
  name: string;
  /** Exactly as the package's own metadata says. */
  version: string;
  language: Language;
  manager: string;
  /** Absolute directory every `path` of read_package is relative to. */
  root: string;
  /**
   * Entries of `root` that belong to the package (python: its import dirs, modules and
   * dist-info); undefined when the whole root is the package (node, editable installs).
   */
  members?: string[];
  /** Python: the names to import. */
  importNames?: string[];
  /** Node: main, exports and types entry points as package.json names them. */
  entry?: { main?: string; module?: string; types?: string; exports?: string[] };
  summary?: string;
  /** Python: set when installed in editable mode, to the source directory. */
  editable?: string;
}
