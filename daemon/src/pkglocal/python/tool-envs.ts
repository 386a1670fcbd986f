// Where poetry, pipenv and hatch keep a project's virtualenvs outside it: each computes a directory
// name from the project's path (hashes reproduced here exactly) under a directory of its own,
// which their configuration and environment variables can move.
import { createHash } from "node:crypto";
import { homedir } from "node:os";
import { basename, isAbsolute, join, resolve } from "node:path";
import { parse as parseToml } from "smol-toml";
import { dirInProject } from "../project-path.js";
import { readPlantedText } from "../../files/small-file.js";
import { listNames, readScannedText } from "../quiet-fs.js";

/** A directory that may be an environment: how it was found, and which tool made it. */
export interface Candidate {
  kind: string;
  path: string;
  manager?: string;
}

export interface PyprojectFacts {
  name?: string;
  poetry: boolean;
  hatch: boolean;
  /** Environments given an explicit `path` in [tool.hatch.envs.<name>]. */
  hatchPaths: string[];
}

interface HatchEnvs {
  envs?: Record<string, { path?: unknown } | undefined>;
}

/**
 * A TOML file, its values of unknown type (T declares them `unknown`); undefined when absent or not TOML. A project's
 * is read where it lies (readScannedText); the user's own config is theirs to link anywhere (`trusted`).
 */
function readToml<T>(file: string, trusted = false): T | undefined {
  const text = trusted ? readPlantedText(file) : readScannedText(file);
  if (text === undefined) return undefined;
  try {
    return parseToml(text) as T;
  } catch {
    return undefined; // A file its own tool could not read either: it tells us nothing about environments.
  }
}

export function readPyproject(projectRoot: string): PyprojectFacts {
  const data = readToml<{ project?: { name?: unknown }; tool?: { poetry?: { name?: unknown }; hatch?: HatchEnvs } }>(
    join(projectRoot, "pyproject.toml"),
  );
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
export function poetryEnvs(projectRoot: string, env: NodeJS.ProcessEnv, name = basename(projectRoot)): Candidate[] {
  const dir = poetryVirtualenvsPath(projectRoot, env);
  const sanitized = name
    .toLowerCase()
    .replace(/[ $`!*@"\\\r\n\t]/g, "_")
    .slice(0, 42);
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
  const configured = (file: string, trusted = false) => {
    const path = readToml<{ virtualenvs?: { path?: unknown } }>(file, trusted)?.virtualenvs?.path;
    return typeof path === "string"
      ? resolve(projectRoot, path.replace("{cache-dir}", cacheDir).replace(/^~(?=\/|$)/, homedir()))
      : undefined;
  };
  // The project's own poetry.toml may keep them in the project, not in a host directory of its choosing.
  const projects = configured(join(projectRoot, "poetry.toml"));
  return (
    (projects && dirInProject(projects, projectRoot)) ?? configured(join(configDir, "config.toml"), true) ?? join(cacheDir, "virtualenvs")
  );
}

/** Pipenv: $WORKON_HOME/<dir name>-<sha256(Pipfile path)[:6 bytes]>; its .project file names the project. */
export function pipenvEnvs(projectRoot: string, env: NodeJS.ProcessEnv): Candidate[] {
  if (env.PIPENV_CUSTOM_VENV_NAME) {
    return [{ kind: "pipenv", path: join(pipenvHome(env), env.PIPENV_CUSTOM_VENV_NAME), manager: "pipenv" }];
  }
  const home = pipenvHome(env);
  const sanitized = basename(projectRoot)
    .replace(/[ &$`!*@"()[\]\\\r\n\t]/g, "_")
    .slice(0, 42);
  const expected = `${sanitized}-${urlsafeHash(join(projectRoot, "Pipfile"), 6)}`;
  return listNames(home)
    .filter((entry) => entry === expected || (entry.startsWith(`${sanitized}-`) && projectFileNames(join(home, entry), projectRoot)))
    .map((entry) => ({ kind: "pipenv", path: join(home, entry), manager: "pipenv" }));
}

function pipenvHome(env: NodeJS.ProcessEnv): string {
  return env.WORKON_HOME ?? join(xdg(env, "XDG_DATA_HOME", ".local/share"), "virtualenvs");
}

function projectFileNames(venv: string, projectRoot: string): boolean {
  return (readScannedText(join(venv, ".project")) ?? "").trim() === projectRoot;
}

/**
 * Hatch: an environment's own `path` (relative to the project, and in it), else
 * <data dir>/env/virtual/<project>/<sha256(project dir)[:8]>/<env name>.
 */
export function hatchEnvs(projectRoot: string, env: NodeJS.ProcessEnv, pyproject: PyprojectFacts): Candidate[] {
  const explicit = pyproject.hatchPaths
    .map((path) => dirInProject(path, projectRoot))
    .filter((path) => path !== undefined)
    .map((path) => ({ kind: "hatch", path, manager: "hatch" }));
  const dataDir = env.HATCH_DATA_DIR ?? join(xdg(env, "XDG_DATA_HOME", ".local/share"), "hatch");
  const virtual = join(dataDir, "env", "virtual");
  const checksum = urlsafeHash(projectRoot);
  const name = pyproject.name ?? basename(projectRoot);
  // A name is one directory's: "../../x" from pyproject.toml names no directory elsewhere.
  const names = [...new Set([name, name.toLowerCase().replace(/[-_.]+/g, "-")])].filter(
    (each) => basename(each) === each && !/^\.\.?$/.test(each),
  );
  return [
    ...explicit,
    ...names.flatMap((project) => {
      const dir = join(virtual, project, checksum);
      return listNames(dir).map((entry) => ({ kind: "hatch", path: join(dir, entry), manager: "hatch" }));
    }),
  ];
}
