// Real installs for pkglocal's tests and benchmark, made once and kept under the system temp dir
// (keyed by what they install) so the suite stays fast: npm and pnpm node_modules from the registry,
// a venv from `python3 -m venv` (pip is in it) with hand-made distributions for the hard cases.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const ROOT = join(tmpdir(), "nixshed-pkglocal-fixtures");
const READY = ".fixture-ready";

/** A lock older than this was left by a run that died: the fixture is made again. */
const STALE_LOCK_MS = 15 * 60_000;

/**
 * Makes `dir` once with `make(dir)`; a half-made one (no marker) is made again. Test files run in
 * parallel workers: a lock directory lets one make it while the others wait for the marker.
 */
function cached(name, spec, make) {
  const dir = join(ROOT, `${name}-${createHash("sha256").update(JSON.stringify(spec)).digest("hex").slice(0, 12)}`);
  const ready = join(dir, READY);
  const lock = `${dir}.lock`;
  mkdirSync(ROOT, { recursive: true });
  while (!existsSync(ready)) {
    try {
      mkdirSync(lock);
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
      continue;
    }
    try {
      if (existsSync(ready)) break;
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      make(dir);
      age(dir);
      writeFileSync(ready, "");
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return dir;
}

/**
 * Dates a fixture's directories and top-level files a minute back, as an install made before the
 * tests: the scan cache treats what changed within the last second as not yet settled.
 */
function age(dir, top = true) {
  const earlier = new Date(Date.now() - 60_000);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) age(join(dir, entry.name), false);
    else if (top && entry.isFile()) utimesSync(join(dir, entry.name), earlier, earlier);
  }
  utimesSync(dir, earlier, earlier);
}

function write(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const run = (command, args, cwd) => execFileSync(command, args, { cwd, stdio: ["ignore", "ignore", "pipe"], timeout: 300_000 });

/** ~330 packages by npm: scoped ones, and ms twice (2.1.3 on top, 2.0.0 nested under debug@2). */
export const NPM_DEPENDENCIES = {
  jest: "29.7.0",
  express: "4.21.2",
  ms: "2.1.3",
  debug: "2.6.9",
  "@sindresorhus/is": "4.6.0",
  "@types/node": "20.19.0",
};

export function npmProject() {
  return cached("npm", NPM_DEPENDENCIES, (dir) => {
    write(join(dir, "package.json"), JSON.stringify({ name: "npm-fixture", private: true, dependencies: NPM_DEPENDENCIES }));
    run("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], dir);
  });
}

/** A pnpm workspace: the symlinked .pnpm layout, two versions of ms, a scoped package, a workspace link. */
export const PNPM_SPEC = {
  pnpm: "9.15.0",
  root: { ms: "2.1.3", "@sindresorhus/is": "4.6.0" },
  app: { debug: "4.3.4", "@fixture/lib": "workspace:*" },
};

export function pnpmProject() {
  return cached("pnpm", PNPM_SPEC, (dir) => {
    write(join(dir, "package.json"), JSON.stringify({ name: "pnpm-fixture", private: true, dependencies: PNPM_SPEC.root }));
    write(join(dir, "pnpm-workspace.yaml"), "packages:\n  - 'packages/*'\n");
    write(join(dir, "packages/app/package.json"), JSON.stringify({ name: "@fixture/app", version: "1.0.0", dependencies: PNPM_SPEC.app }));
    write(join(dir, "packages/lib/package.json"), JSON.stringify({ name: "@fixture/lib", version: "0.3.0", main: "index.js" }));
    write(join(dir, "packages/lib/index.js"), "module.exports = 42;\n");
    run("npx", ["--yes", `pnpm@${PNPM_SPEC.pnpm}`, "install", "--ignore-scripts", "--reporter=silent"], dir);
  });
}

const SITE = ".venv/lib/python3.11/site-packages";

/** dist-info with METADATA, RECORD (hashes left empty, as RECORD allows for itself) and more files. */
function distInfo(site, name, version, files, extra = {}) {
  const info = `${name.replace(/-/g, "_")}-${version}.dist-info`;
  const record = [...Object.keys(files), ...["METADATA", "RECORD", ...Object.keys(extra)].map((file) => `${info}/${file}`)];
  for (const [path, text] of Object.entries(files)) write(join(site, path), text);
  write(
    join(site, info, "METADATA"),
    `Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\nSummary: ${name} for tests\n\n# ${name}\n\nThe README of ${name}.\n`,
  );
  write(join(site, info, "RECORD"), `${record.map((path) => `${path},,`).join("\n")}\n`);
  for (const [file, text] of Object.entries(extra)) write(join(site, info, file), text);
}

export const PYTHON_SPEC = { python: "/usr/bin/python3", version: 5 };

/**
 * A real venv plus distributions made by hand the way installers leave them: Pillow (import PIL),
 * an extension module, two halves of the google namespace, a setuptools-finder editable install,
 * a path-.pth editable install, an old egg-info, and a symlink leading out of a package.
 */
export function venvProject() {
  return cached("venv", PYTHON_SPEC, (dir) => {
    run(PYTHON_SPEC.python, ["-m", "venv", ".venv"], dir);
    const site = join(dir, SITE);
    write(join(dir, "requirements.txt"), "Pillow==10.0.0\n");
    write(join(dir, "secret.txt"), "outside every package\n");
    distInfo(
      site,
      "Pillow",
      "10.0.0",
      { "PIL/__init__.py": '"""Pillow."""\n__version__ = "10.0.0"\n', "PIL/Image.py": "def open(fp):\n    pass\n" },
      { "top_level.txt": "PIL\n" },
    );
    symlinkSync(join(dir, "secret.txt"), join(site, "PIL", "leak.py"));
    distInfo(site, "fastthing", "1.2.3", {
      "fastthing.cpython-311-x86_64-linux-gnu.so": "\0ELF",
      "fastthing.pyi": "def go() -> None: ...\n",
    });
    distInfo(site, "protobuf", "4.25.1", { "google/protobuf/__init__.py": "", "google/protobuf/message.py": "class Message: ...\n" });
    distInfo(site, "googleapis-common-protos", "1.62.0", { "google/api/__init__.py": "", "google/api/http_pb2.py": "" });
    write(join(dir, "src/mylib/__init__.py"), "def hello():\n    return 'hi'\n");
    distInfo(
      site,
      "mylib",
      "0.1.0",
      {
        "__editable__.mylib-0.1.0.pth": "import __editable___mylib_0_1_0_finder; __editable___mylib_0_1_0_finder.install()\n",
        // setuptools' real finder installs an import hook; putting src on sys.path does the same here.
        "__editable___mylib_0_1_0_finder.py": `import sys\nMAPPING: dict[str, str] = {'mylib': '${join(dir, "src/mylib")}'}\ndef install():\n    sys.path.append('${join(dir, "src")}')\n`,
      },
      { "direct_url.json": JSON.stringify({ url: `file://${dir}`, dir_info: { editable: true } }) },
    );
    write(join(dir, "tools/src/toolkit/__init__.py"), "VERSION = '2.0.0'\n");
    distInfo(
      site,
      "toolkit",
      "2.0.0",
      { "_toolkit.pth": `${join(dir, "tools/src")}\n` },
      { "direct_url.json": JSON.stringify({ url: `file://${join(dir, "tools")}`, dir_info: { editable: true } }) },
    );
    write(join(site, "oldpkg-0.9-py3.11.egg-info/PKG-INFO"), "Metadata-Version: 1.1\nName: oldpkg\nVersion: 0.9\nSummary: an egg\n");
    write(join(site, "oldpkg-0.9-py3.11.egg-info/top_level.txt"), "oldpkg\n");
    write(
      join(site, "oldpkg-0.9-py3.11.egg-info/installed-files.txt"),
      "../oldpkg/__init__.py\n../oldpkg/core.py\nPKG-INFO\ntop_level.txt\n",
    );
    write(join(site, "oldpkg/__init__.py"), "");
    write(join(site, "oldpkg/core.py"), "x = 1\n");
  });
}

/** What the venv's own Python says is installed: name → version (importlib.metadata, the truth). */
export function pythonTruth(project) {
  const script = "import importlib.metadata as m, json; print(json.dumps({d.metadata['Name']: d.version for d in m.distributions()}))";
  return JSON.parse(execFileSync(join(project, ".venv/bin/python"), ["-c", script], { encoding: "utf8" }));
}

export const LARGE_VENV_SPEC = { python: PYTHON_SPEC.python, distributions: 300, modules: 6 };

/** A real venv holding 300 more hand-made distributions of a few modules each: the benchmark's. */
export function largeVenvProject() {
  return cached("venv-large", LARGE_VENV_SPEC, (dir) => {
    run(LARGE_VENV_SPEC.python, ["-m", "venv", ".venv"], dir);
    const site = join(dir, SITE);
    for (let index = 0; index < LARGE_VENV_SPEC.distributions; index++) {
      const module = `bench_pkg_${index}`;
      const files = Object.fromEntries(
        Array.from({ length: LARGE_VENV_SPEC.modules }, (_, file) => [
          `${module}/${file === 0 ? "__init__" : `part${file}`}.py`,
          `def f${file}():\n    return ${file}\n`,
        ]),
      );
      distInfo(site, `bench-pkg-${index}`, `1.${index}.0`, files, { "top_level.txt": `${module}\n` });
    }
  });
}
