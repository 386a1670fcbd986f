// Finds the project's Python environments the way their tools place them: .venv/venv in the
// project, $VIRTUAL_ENV, uv's UV_PROJECT_ENVIRONMENT, poetry's, pipenv's and hatch's central
// virtualenv directories, Nix Python environments on PATH (python3.withPackages) and configured ones.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { parse as parseToml } from "smol-toml";
import { ancestorsOf } from "./project-path.js";
import { isDirectory, listNames, realpathOf } from "./quiet-fs.js";
import type { FoundEnvironment } from "./types.js";

export interface DiscoveryInput {
  projectRoot: string;
  env: NodeJS.ProcessEnv;
  /** Configured venvs, site-packages dirs or Nix Python environments (relative to the project). */
  configured: string[];
}

export interface PythonDiscovery {
  environments: FoundEnvironment[];
  /** What was looked for, for the error when nothing is found. */
  lookedFor: string[];
  /** Files whose change can change what is found (pyproject.toml, lockfiles). */
  inputs: string[];
}

interface Candidate {
  kind: string;
  path: string;
  manager?: string;
}

export function discoverPython({ projectRoot, env, configured }: DiscoveryInput): PythonDiscovery {
  const lookedFor: string[] = [];
  const candidates: Candidate[] = [];
  const look = (what: string, found: Candidate[]) => {
    lookedFor.push(what);
    candidates.push(...found);
  };
  const inProject = (path: string) => (isAbsolute(path) ? path : resolve(projectRoot, path));
  const localManager = projectManager(projectRoot);

  look("pkglocal.python_envs", configured.map((path) => ({ kind: "config", path: inProject(path) })));
  look("$VIRTUAL_ENV", env.VIRTUAL_ENV ? [{ kind: "virtual_env", path: env.VIRTUAL_ENV }] : []);
  const uvEnv = env.UV_PROJECT_ENVIRONMENT;
  if (uvEnv) look("$UV_PROJECT_ENVIRONMENT", [{ kind: "uv", path: inProject(uvEnv), manager: "uv" }]);
  look(".venv, venv", [".venv", "venv"].map((dir) => ({ kind: localManager ?? "venv", path: join(projectRoot, dir), manager: localManager })));
  // A uv or poetry workspace member shares the workspace root's .venv: the nearest one above.
  if (![".venv", "venv"].some((dir) => isDirectory(join(projectRoot, dir)))) {
    const above = ancestorsOf(projectRoot).find((dir) => isDirectory(join(dir, ".venv")));
    look(".venv above the project", above ? [{ kind: projectManager(above) ?? "venv", path: join(above, ".venv"), manager: projectManager(above) }] : []);
  }
  const pyproject = readPyproject(projectRoot);
  if (pyproject.poetry || existsSync(join(projectRoot, "poetry.lock"))) look("poetry's virtualenvs", poetryEnvs(projectRoot, env, pyproject.name));
  if (existsSync(join(projectRoot, "Pipfile"))) look("pipenv's virtualenvs", pipenvEnvs(projectRoot, env));
  if (pyproject.hatch) look("hatch's environments", hatchEnvs(projectRoot, env, pyproject));
  look("Nix Python environments on PATH", nixEnvsOnPath(env.PATH ?? ""));

  const environments: FoundEnvironment[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    for (const environment of resolveEnvironment(candidate)) {
      if (seen.has(environment.packagesDir)) continue;
      seen.add(environment.packagesDir);
      environments.push(environment);
    }
  }
  const inputs = ["pyproject.toml", "hatch.toml", "poetry.lock", "Pipfile", "Pipfile.lock", "uv.lock"].map((name) => join(projectRoot, name));
  return { environments, lookedFor, inputs };
}

/** Who made the project's .venv, going by the lockfile beside it. */
function projectManager(projectRoot: string): string | undefined {
  if (existsSync(join(projectRoot, "uv.lock"))) return "uv";
  if (existsSync(join(projectRoot, "poetry.lock"))) return "poetry";
  if (existsSync(join(projectRoot, "Pipfile.lock"))) return "pipenv";
  return undefined;
}

interface PyprojectFacts {
  name?: string;
  poetry: boolean;
  hatch: boolean;
  /** Environments given an explicit `path` in [tool.hatch.envs.<name>]. */
  hatchPaths: string[];
}

interface HatchEnvs {
  envs?: Record<string, { path?: unknown } | undefined>;
}

function readToml<T>(file: string): T | undefined {
  try {
    return parseToml(readFileSync(file, "utf8")) as T;
  } catch {
    return undefined;
  }
}

function readPyproject(projectRoot: string): PyprojectFacts {
  const data = readToml<{ project?: { name?: unknown }; tool?: { poetry?: { name?: unknown }; hatch?: HatchEnvs } }>(join(projectRoot, "pyproject.toml"));
  const hatchToml = readToml<HatchEnvs>(join(projectRoot, "hatch.toml"));
  const name = data?.tool?.poetry?.name ?? data?.project?.name;
  const hatchPaths = [data?.tool?.hatch, hatchToml]
    .flatMap((config) => Object.values(config?.envs ?? {}))
    .map((each) => each?.path)
    .filter((path): path is string => typeof path === "string");
  return {
    name: typeof name === "string" ? name : undefined,
    poetry: data?.tool?.poetry !== undefined,
    hatch: data?.tool?.hatch !== undefined || hatchToml !== undefined,
    hatchPaths,
  };
}

const urlsafeHash = (text: string, bytes?: number) => {
  const digest = createHash("sha256").update(text).digest();
  return (bytes ? digest.subarray(0, bytes) : digest).toString("base64url").slice(0, 8);
};

const xdg = (env: NodeJS.ProcessEnv, name: string, fallback: string) =>
  env[name] && isAbsolute(env[name]!) ? env[name]! : join(homedir(), fallback);

/** Poetry: <virtualenvs.path>/<name>-<sha256(project dir)[:8]>-py<X.Y>. */
function poetryEnvs(projectRoot: string, env: NodeJS.ProcessEnv, name = basename(projectRoot)): Candidate[] {
  const dir = poetryVirtualenvsPath(projectRoot, env);
  const sanitized = name.toLowerCase().replace(/[ $`!*@"\\\r\n\t]/g, "_").slice(0, 42);
  const prefix = `${sanitized}-${urlsafeHash(projectRoot)}-py`;
  return listNames(dir)
    .filter((entry) => entry.startsWith(prefix))
    .map((entry) => ({ kind: "poetry", path: join(dir, entry), manager: "poetry" }));
}

/** virtualenvs.path: from the environment, the project's poetry.toml, the user's config.toml, or the default. */
function poetryVirtualenvsPath(projectRoot: string, env: NodeJS.ProcessEnv): string {
  const cacheDir = env.POETRY_CACHE_DIR ?? join(xdg(env, "XDG_CACHE_HOME", ".cache"), "pypoetry");
  if (env.POETRY_VIRTUALENVS_PATH) return env.POETRY_VIRTUALENVS_PATH;
  const configDir = env.POETRY_CONFIG_DIR ?? join(xdg(env, "XDG_CONFIG_HOME", ".config"), "pypoetry");
  for (const file of [join(projectRoot, "poetry.toml"), join(configDir, "config.toml")]) {
    const path = readToml<{ virtualenvs?: { path?: unknown } }>(file)?.virtualenvs?.path;
    if (typeof path === "string") return resolve(projectRoot, path.replace("{cache-dir}", cacheDir).replace(/^~(?=\/|$)/, homedir()));
  }
  return join(cacheDir, "virtualenvs");
}

/** Pipenv: $WORKON_HOME/<dir name>-<sha256(Pipfile path)[:6 bytes]>; its .project file names the project. */
function pipenvEnvs(projectRoot: string, env: NodeJS.ProcessEnv): Candidate[] {
  if (env.PIPENV_CUSTOM_VENV_NAME) {
    return [{ kind: "pipenv", path: join(pipenvHome(env), env.PIPENV_CUSTOM_VENV_NAME), manager: "pipenv" }];
  }
  const home = pipenvHome(env);
  const sanitized = basename(projectRoot).replace(/[ &$`!*@"()[\]\\\r\n\t]/g, "_").slice(0, 42);
  const expected = `${sanitized}-${urlsafeHash(join(projectRoot, "Pipfile"), 6)}`;
  return listNames(home)
    .filter((entry) => entry === expected || (entry.startsWith(`${sanitized}-`) && projectFileNames(join(home, entry), projectRoot)))
    .map((entry) => ({ kind: "pipenv", path: join(home, entry), manager: "pipenv" }));
}

function pipenvHome(env: NodeJS.ProcessEnv): string {
  return env.WORKON_HOME ?? join(xdg(env, "XDG_DATA_HOME", ".local/share"), "virtualenvs");
}

function projectFileNames(venv: string, projectRoot: string): boolean {
  try {
    return readFileSync(join(venv, ".project"), "utf8").trim() === projectRoot;
  } catch {
    return false;
  }
}

/**
 * Hatch: an environment's own `path` (relative to the project), else
 * <data dir>/env/virtual/<project>/<sha256(project dir)[:8]>/<env name>.
 */
function hatchEnvs(projectRoot: string, env: NodeJS.ProcessEnv, pyproject: PyprojectFacts): Candidate[] {
  const explicit = pyproject.hatchPaths.map((path) => ({ kind: "hatch", path: resolve(projectRoot, path), manager: "hatch" }));
  const dataDir = env.HATCH_DATA_DIR ?? join(xdg(env, "XDG_DATA_HOME", ".local/share"), "hatch");
  const virtual = join(dataDir, "env", "virtual");
  const checksum = urlsafeHash(projectRoot);
  const name = pyproject.name ?? basename(projectRoot);
  const names = [...new Set([name, name.toLowerCase().replace(/[-_.]+/g, "-")])];
  return [
    ...explicit,
    ...names.flatMap((project) => {
      const dir = join(virtual, project, checksum);
      return listNames(dir).map((entry) => ({ kind: "hatch", path: join(dir, entry), manager: "hatch" }));
    }),
  ];
}

/** A Python on PATH that lives in the Nix store: its prefix has lib/pythonX.Y/site-packages. */
function nixEnvsOnPath(path: string): Candidate[] {
  const found: Candidate[] = [];
  for (const dir of path.split(":")) {
    for (const python of ["python3", "python"]) {
      const real = realpathOf(join(dir, python));
      if (!real) continue;
      // A withPackages env's bin/python3 is its own wrapper; resolving it would lose the env.
      const prefix = dir.startsWith("/nix/store/") ? dirname(dir) : real.startsWith("/nix/store/") ? dirname(dirname(real)) : undefined;
      if (prefix) found.push({ kind: "nix", path: prefix, manager: "nix" });
      break;
    }
  }
  return found;
}


/** A venv, a prefix (lib/pythonX.Y/site-packages) or a site-packages directory given directly. */
function resolveEnvironment(candidate: Candidate): FoundEnvironment[] {
  const { path } = candidate;
  if (!isDirectory(path)) return [];
  if (basename(path) === "site-packages" || basename(path) === "dist-packages") {
    return [{ language: "python", kind: candidate.kind, path, packagesDir: path, manager: candidate.manager ?? "pip" }];
  }
  const config = readPyvenvCfg(path);
  const manager = candidate.manager ?? (config.uv ? "uv" : candidate.kind === "nix" ? "nix" : "pip");
  return listNames(join(path, "lib"))
    .filter((entry) => /^python\d+\.\d+t?$/.test(entry))
    .map((entry) => join(path, "lib", entry, "site-packages"))
    .filter(isDirectory)
    .map((packagesDir) => ({
      language: "python" as const,
      kind: candidate.kind,
      path,
      packagesDir,
      manager,
      pythonVersion: config.version ?? /python(\d+\.\d+)/.exec(packagesDir)?.[1],
    }));
}

function readPyvenvCfg(venv: string): { version?: string; uv?: string } {
  let text: string;
  try {
    text = readFileSync(join(venv, "pyvenv.cfg"), "utf8");
  } catch {
    return {};
  }
  const value = (key: string) => new RegExp(`^${key}\\s*=\\s*(.+)$`, "m").exec(text)?.[1]?.trim();
  return { version: value("version_info") ?? value("version"), uv: value("uv") };
}
