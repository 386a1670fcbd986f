// Finds the project's Python environments the way their tools place them: .venv/venv in the
// project, $VIRTUAL_ENV, uv's UV_PROJECT_ENVIRONMENT, poetry's, pipenv's and hatch's central
// virtualenv directories, Nix Python environments on PATH (python3.withPackages) and configured ones.
import { existsSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { ancestorsOf } from "../project-path.js";
import { hatchEnvs, pipenvEnvs, poetryEnvs, readPyproject, type Candidate } from "./tool-envs.js";
import { isDirectory, listNames, readScannedText, realpathOf } from "../quiet-fs.js";
import type { FoundEnvironment } from "../types.js";

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

export function discoverPython({ projectRoot, env, configured }: DiscoveryInput): PythonDiscovery {
  const lookedFor: string[] = [];
  const candidates: Candidate[] = [];
  const look = (what: string, found: Candidate[]) => {
    lookedFor.push(what);
    candidates.push(...found);
  };
  const inProject = (path: string) => (isAbsolute(path) ? path : resolve(projectRoot, path));
  const localManager = projectManager(projectRoot);

  look(
    "pkglocal.python_envs",
    configured.map((path) => ({ kind: "config", path: inProject(path) })),
  );
  look("$VIRTUAL_ENV", env.VIRTUAL_ENV ? [{ kind: "virtual_env", path: env.VIRTUAL_ENV }] : []);
  const uvEnv = env.UV_PROJECT_ENVIRONMENT;
  if (uvEnv) look("$UV_PROJECT_ENVIRONMENT", [{ kind: "uv", path: inProject(uvEnv), manager: "uv" }]);
  look(
    ".venv, venv",
    [".venv", "venv"].map((dir) => ({ kind: localManager ?? "venv", path: join(projectRoot, dir), manager: localManager })),
  );
  // A uv or poetry workspace member shares the workspace root's .venv: the nearest one above.
  if (![".venv", "venv"].some((dir) => isDirectory(join(projectRoot, dir)))) {
    const above = ancestorsOf(projectRoot).find((dir) => isDirectory(join(dir, ".venv")));
    look(
      ".venv above the project",
      above ? [{ kind: projectManager(above) ?? "venv", path: join(above, ".venv"), manager: projectManager(above) }] : [],
    );
  }
  const pyproject = readPyproject(projectRoot);
  if (pyproject.poetry || existsSync(join(projectRoot, "poetry.lock")))
    look("poetry's virtualenvs", poetryEnvs(projectRoot, env, pyproject.name));
  if (existsSync(join(projectRoot, "Pipfile"))) look("pipenv's virtualenvs", pipenvEnvs(projectRoot, env));
  if (pyproject.hatch) look("hatch's environments", hatchEnvs(projectRoot, env, pyproject));
  look("Nix Python environments on PATH", nixEnvsOnPath(env.PATH ?? ""));
  // A Nix dev shell (mkShell with python3Packages.*) puts each package's site-packages here.
  look("site-packages on $PYTHONPATH and $NIX_PYTHONPATH", sitePackagesOnPath(env));

  const environments: FoundEnvironment[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    for (const environment of resolveEnvironment(candidate)) {
      if (seen.has(environment.packagesDir)) continue;
      seen.add(environment.packagesDir);
      environments.push(environment);
    }
  }
  const inputs = ["pyproject.toml", "hatch.toml", "poetry.lock", "Pipfile", "Pipfile.lock", "uv.lock"].map((name) =>
    join(projectRoot, name),
  );
  return { environments, lookedFor, inputs };
}

/** Who made the project's .venv, going by the lockfile beside it. */
function projectManager(projectRoot: string): string | undefined {
  if (existsSync(join(projectRoot, "uv.lock"))) return "uv";
  if (existsSync(join(projectRoot, "poetry.lock"))) return "poetry";
  if (existsSync(join(projectRoot, "Pipfile.lock"))) return "pipenv";
  return undefined;
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

function sitePackagesOnPath(env: NodeJS.ProcessEnv): Candidate[] {
  return [env.PYTHONPATH, env.NIX_PYTHONPATH]
    .flatMap((value) => (value ?? "").split(":"))
    .filter((dir) => /\/(site|dist)-packages\/?$/.test(dir))
    .map((dir) => ({ kind: "pythonpath", path: dir.replace(/\/$/, ""), manager: dir.startsWith("/nix/store/") ? "nix" : undefined }));
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
  const text = readScannedText(join(venv, "pyvenv.cfg"));
  if (text === undefined) return {};
  const value = (key: string) => new RegExp(`^${key}\\s*=\\s*(.+)$`, "m").exec(text)?.[1]?.trim();
  return { version: value("version_info") ?? value("version"), uv: value("uv") };
}
