// Where Python environments are found: $VIRTUAL_ENV, uv's UV_PROJECT_ENVIRONMENT and .venv,
// poetry's, pipenv's and hatch's central directories (their names computed here by Python the way
// those tools compute them), configured directories, and a Nix Python environment on PATH built by
// Nix into the store, its packages symlinked from other store paths as python3.withPackages does.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { PackageIndex } from "../../src/pkglocal/package-index.js";
import { readPackageFile } from "../../src/pkglocal/package-read.js";

function fakeVenv(venv: string, name: string, version = "1.0.0"): void {
  const info = join(venv, "lib/python3.11/site-packages", `${name}-${version}.dist-info`);
  mkdirSync(info, { recursive: true });
  writeFileSync(join(info, "METADATA"), `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n`);
  writeFileSync(join(venv, "pyvenv.cfg"), "home = /usr/bin\nversion = 3.11.2\n");
}

function project(files: Record<string, string> = {}): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "pkglocal-discovery-")));
  for (const [path, text] of Object.entries(files)) writeFileSync(join(root, path), text);
  return root;
}

function scan(projectRoot: string, env: NodeJS.ProcessEnv, pythonEnvs: string[] = []) {
  const cacheDir = mkdtempSync(join(tmpdir(), "pkglocal-cache-"));
  return new PackageIndex({ projectRoot, cacheDir, env, pythonEnvs, nodeModules: [] }).scan();
}

const python = (code: string, ...args: string[]) => execFileSync("python3", ["-c", code, ...args], { encoding: "utf8" }).trim();

describe("Python environment discovery", () => {
  it("finds $VIRTUAL_ENV outside the project", () => {
    const root = project();
    const venv = mkdtempSync(join(tmpdir(), "pkglocal-venv-"));
    fakeVenv(venv, "requests", "2.31.0");
    const found = scan(root, { VIRTUAL_ENV: venv });
    expect(found.environments.map((environment) => [environment.kind, environment.path, environment.pythonVersion])).toEqual([
      ["virtual_env", venv, "3.11.2"],
    ]);
    expect(found.packages.map((pkg) => `${pkg.name}@${pkg.version}`)).toEqual(["requests@2.31.0"]);
  });

  it("finds uv's UV_PROJECT_ENVIRONMENT, and a .venv beside uv.lock as uv's", () => {
    const root = project({ "uv.lock": "" });
    fakeVenv(join(root, "envs/custom"), "attrs");
    fakeVenv(join(root, ".venv"), "idna");
    const found = scan(root, { UV_PROJECT_ENVIRONMENT: "envs/custom" });
    expect(found.environments.map((environment) => [environment.kind, environment.manager, basename(environment.path)])).toEqual([
      ["uv", "uv", "custom"],
      ["uv", "uv", ".venv"],
    ]);
  });

  it("finds a uv workspace root's .venv from a member", () => {
    const root = project({ "uv.lock": "" });
    fakeVenv(join(root, ".venv"), "shared-dep");
    const member = join(root, "packages/api");
    mkdirSync(member, { recursive: true });
    const found = scan(member, {});
    expect(found.environments.map((environment) => [environment.kind, environment.path])).toEqual([["uv", join(root, ".venv")]]);
    expect(found.packages.map((pkg) => pkg.name)).toEqual(["shared-dep"]);
  });

  it("finds poetry's virtualenv for this project only", () => {
    const root = project({ "pyproject.toml": '[tool.poetry]\nname = "Demo App"\nversion = "0.1.0"\n' });
    const cache = mkdtempSync(join(tmpdir(), "pkglocal-xdg-"));
    const name = python(
      "import base64,hashlib,re,sys; n=re.sub(r'[ $`!*@\"\\\\\\r\\n\\t]','_','Demo App'.lower())[:42]; print(n+'-'+base64.urlsafe_b64encode(hashlib.sha256(sys.argv[1].encode()).digest()).decode()[:8])",
      root,
    );
    fakeVenv(join(cache, "pypoetry/virtualenvs", `${name}-py3.11`), "poetry-dep");
    fakeVenv(join(cache, "pypoetry/virtualenvs", "demo_app-AAAAAAAA-py3.11"), "someone-else");
    const found = scan(root, { XDG_CACHE_HOME: cache });
    expect(found.environments.map((environment) => [environment.kind, basename(environment.path)])).toEqual([["poetry", `${name}-py3.11`]]);
    expect(found.packages.map((pkg) => pkg.name)).toEqual(["poetry-dep"]);
  });

  it("follows poetry's virtualenvs.path from the user's config.toml", () => {
    const root = project({ "poetry.lock": "", "pyproject.toml": '[project]\nname = "svc"\n' });
    const config = mkdtempSync(join(tmpdir(), "pkglocal-poetry-config-"));
    const envs = mkdtempSync(join(tmpdir(), "pkglocal-poetry-envs-"));
    mkdirSync(join(config, "pypoetry"));
    writeFileSync(join(config, "pypoetry/config.toml"), `[virtualenvs]\npath = "${envs}"\n`);
    const hash = python(
      "import base64,hashlib,sys; print(base64.urlsafe_b64encode(hashlib.sha256(sys.argv[1].encode()).digest()).decode()[:8])",
      root,
    );
    fakeVenv(join(envs, `svc-${hash}-py3.12`), "svc-dep");
    const found = scan(root, { XDG_CONFIG_HOME: config });
    expect(found.environments.map((environment) => [environment.kind, environment.path])).toEqual([
      ["poetry", join(envs, `svc-${hash}-py3.12`)],
    ]);
  });

  it("finds pipenv's virtualenv by its hashed name", () => {
    const root = project({ Pipfile: "[packages]\n" });
    const home = mkdtempSync(join(tmpdir(), "pkglocal-workon-"));
    const name = python(
      "import base64,hashlib,os,re,sys; p=sys.argv[1]; n=re.sub(r'[ &$`!*@\"()\\[\\]\\\\\\r\\n\\t]','_',os.path.basename(p))[:42]; print(n+'-'+base64.urlsafe_b64encode(hashlib.sha256(os.path.join(p,'Pipfile').encode()).digest()[:6]).decode()[:8])",
      root,
    );
    fakeVenv(join(home, name), "pipenv-dep");
    const found = scan(root, { WORKON_HOME: home });
    expect(found.environments.map((environment) => [environment.kind, basename(environment.path)])).toEqual([["pipenv", name]]);
  });

  it("finds hatch's environments under its data directory", () => {
    const root = project({ "pyproject.toml": '[project]\nname = "demo"\n[tool.hatch.envs.default]\n' });
    const data = mkdtempSync(join(tmpdir(), "pkglocal-hatch-"));
    const checksum = python(
      "import base64,hashlib,sys; print(base64.urlsafe_b64encode(hashlib.sha256(sys.argv[1].encode()).digest()).decode()[:8])",
      root,
    );
    fakeVenv(join(data, "env/virtual/demo", checksum, "demo"), "hatch-dep");
    fakeVenv(join(data, "env/virtual/demo", checksum, "test"), "pytest");
    const found = scan(root, { HATCH_DATA_DIR: data });
    expect(found.environments.map((environment) => [environment.kind, basename(environment.path)]).sort()).toEqual([
      ["hatch", "demo"],
      ["hatch", "test"],
    ]);
  });

  it("finds a hatch environment at the path its hatch.toml gives it", () => {
    const root = project({ "hatch.toml": '[envs.lint]\npath = ".hatch/lint"\n' });
    fakeVenv(join(root, ".hatch/lint"), "ruff");
    const found = scan(root, { HATCH_DATA_DIR: mkdtempSync(join(tmpdir(), "pkglocal-hatch-")) });
    expect(found.environments.map((environment) => [environment.kind, environment.path])).toEqual([["hatch", join(root, ".hatch/lint")]]);
  });

  it("takes a configured site-packages directory as it is", () => {
    const root = project();
    fakeVenv(join(root, "vendor/env"), "vendored");
    const found = scan(root, {}, ["vendor/env/lib/python3.11/site-packages"]);
    expect(found.environments.map((environment) => environment.kind)).toEqual(["config"]);
    expect(found.packages.map((pkg) => pkg.name)).toEqual(["vendored"]);
  });

  it("finds a Nix Python environment on PATH and reads its packages through the store symlinks", async () => {
    const expression = `
      let
        sh = script: derivation { name = "x"; system = builtins.currentSystem; builder = "/bin/sh"; args = [ "-c" ("export PATH=/usr/bin:/bin; " + script) ]; };
        numpy = (sh ''
          site=$out/lib/python3.11/site-packages
          mkdir -p $site/numpy $site/numpy-1.26.4.dist-info
          echo '__version__ = "1.26.4"' > $site/numpy/__init__.py
          printf 'Metadata-Version: 2.1\\nName: numpy\\nVersion: 1.26.4\\n' > $site/numpy-1.26.4.dist-info/METADATA
          printf 'numpy/__init__.py,,\\nnumpy-1.26.4.dist-info/METADATA,,\\n' > $site/numpy-1.26.4.dist-info/RECORD
        '') // { name = "python3.11-numpy-1.26.4"; };
      in sh ''
        site=$out/lib/python3.11/site-packages
        mkdir -p $out/bin $site
        ln -s /usr/bin/python3 $out/bin/python3
        ln -s \${numpy}/lib/python3.11/site-packages/numpy $site/numpy
        ln -s \${numpy}/lib/python3.11/site-packages/numpy-1.26.4.dist-info $site/numpy-1.26.4.dist-info
      ''`;
    const env = execFileSync("nix-build", ["--option", "substituters", "", "--no-out-link", "-E", expression], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    }).trim();
    expect(env.startsWith("/nix/store/")).toBe(true);
    const found = scan(project(), { PATH: `${env}/bin:/usr/bin:/bin` });
    expect(
      found.environments.map((environment) => [environment.kind, environment.manager, environment.path, environment.pythonVersion]),
    ).toEqual([["nix", "nix", env, "3.11"]]);
    const numpy = found.packages.find((pkg) => pkg.name === "numpy")!;
    expect(numpy.version).toBe("1.26.4");
    expect(numpy.importNames).toEqual(["numpy"]);
    const page = await readPackageFile(numpy, { path: "numpy/__init__.py", maxBytes: 1000 });
    expect(page.binary ? "" : page.text).toContain("1.26.4");
    // A dev shell names each package's own site-packages on PYTHONPATH instead.
    const numpySite = realpathSync(join(env, "lib/python3.11/site-packages/numpy/.."));
    const shell = scan(project(), { PYTHONPATH: `${numpySite}:/somewhere/else` });
    expect(shell.environments.map((environment) => [environment.kind, environment.manager, environment.packagesDir])).toEqual([
      ["pythonpath", "nix", numpySite],
    ]);
    expect(shell.packages.map((pkg) => `${pkg.name}@${pkg.version}`)).toEqual(["numpy@1.26.4"]);
  });

  it("says where it looked when there is nothing", () => {
    const found = scan(project(), {});
    expect(found.environments).toEqual([]);
    expect(found.lookedFor.python).toEqual(expect.arrayContaining(["$VIRTUAL_ENV", ".venv, venv"]));
  });
});
