// The project's installed packages, scanned once and kept in the cache dir (never in the project).
// A scan stays true until what it read changes: the directories it listed (their mtimes), the
// lockfiles and manifests of the project, pyvenv.cfg. No timer: a warm scan is a few hundred stats.
import { createHash } from "node:crypto";
import { mkdirSync, type Stats, statSync } from "node:fs";
import { replaceFile } from "../files/planted-safe-write.js";
import { join } from "node:path";
import { z } from "zod";
import { isAbsent } from "../files/absence.js";
import { InvalidJson, readJsonFile } from "../files/json-file.js";
import { isInside } from "../files/path-inside.js";
import { describedWithin } from "./package-confine.js";
import { storeDir } from "../files/store.js";
import { discoverNode } from "./node/envs.js";
import { scanNodeModules } from "./node/scan.js";
import { discoverPython } from "./python/envs.js";
import { scanSitePackages } from "./python/scan.js";
import { listNames, realpathOf } from "./quiet-fs.js";
import { type FoundEnvironment, foundEnvironmentSchema, type Language, type PackageRecord, packageRecordSchema } from "./types.js";

export interface IndexOptions {
  projectRoot: string;
  cacheDir: string;
  env: NodeJS.ProcessEnv;
  pythonEnvs: string[];
  nodeModules: string[];
}

export interface ProjectPackages {
  environments: FoundEnvironment[];
  packages: PackageRecord[];
  /** Packages found in each environment, by its packagesDir. */
  counts: Map<string, number>;
  /** Per language, where environments were looked for: said when none was found. */
  lookedFor: Record<Language, string[]>;
  /** True when nothing had to be read again. */
  cached: boolean;
}

/** Bumped whenever what a scan records changes: an older cache file is then scanned anew. */
const CACHE_SCHEMA = 3;

/** What one environment holds, and the stamps of what was read to find it (by path). */
const stampedScanSchema = z.object({
  environment: foundEnvironmentSchema,
  packages: z.array(packageRecordSchema),
  stamps: z.record(z.string(), z.string()),
});
type StampedScan = z.infer<typeof stampedScanSchema>;

const cacheFileSchema = z.object({
  schema: z.literal(CACHE_SCHEMA),
  projectRoot: z.string(),
  inputs: z.record(z.string(), z.string()),
  scans: z.array(stampedScanSchema),
});
type CacheFile = z.infer<typeof cacheFileSchema>;

export class PackageIndex {
  private cache?: CacheFile;
  readonly cacheFile: string;

  constructor(private readonly options: IndexOptions) {
    const key = createHash("sha256").update(options.projectRoot).digest("hex").slice(0, 16);
    this.cacheFile = join(options.cacheDir, "pkglocal", `${key}.json`);
  }

  scan(): ProjectPackages {
    const { projectRoot, env, pythonEnvs, nodeModules } = this.options;
    const python = discoverPython({ projectRoot, env, configured: pythonEnvs });
    const node = discoverNode(projectRoot, nodeModules);
    const inputPaths = [...python.inputs, ...node.inputs, ...requirementFiles(projectRoot)];
    const inputs = stampAll(inputPaths);
    const cache = this.load();
    const reusable = cache && sameStamps(cache.inputs, inputs) ? cache.scans : [];

    let rescanned = false;
    const scans = [...python.environments, ...node.environments].map((environment) => {
      const previous = reusable.find((scan) => sameEnvironment(scan.environment, environment));
      if (previous && sameStamps(previous.stamps, stampAll(Object.keys(previous.stamps)))) return previous;
      rescanned = true;
      return scanEnvironment(environment);
    });
    const cached = !rescanned && scans.length === cache?.scans.length;
    if (!cached) this.store({ schema: CACHE_SCHEMA, projectRoot, inputs: stampAll(inputPaths, true), scans });
    return {
      environments: scans.map((scan) => scan.environment),
      packages: withoutRepeats(scans.flatMap((scan) => confined(scan, projectRoot))),
      counts: new Map(scans.map((scan) => [scan.environment.packagesDir, scan.packages.length])),
      lookedFor: { python: python.lookedFor, node: node.lookedFor },
      cached,
    };
  }

  private load(): CacheFile | undefined {
    if (this.cache) return this.cache;
    try {
      const data = readJsonFile(this.cacheFile, cacheFileSchema);
      if (data?.projectRoot === this.options.projectRoot) this.cache = data;
    } catch (error) {
      // An older schema or a damaged file: scanning again is the remedy. Anything else is a real error.
      if (!(error instanceof InvalidJson)) throw error;
    }
    return this.cache;
  }

  private store(data: CacheFile): void {
    this.cache = data;
    try {
      mkdirSync(join(this.cacheFile, ".."), { recursive: true });
      replaceFile(this.cacheFile, JSON.stringify(data));
    } catch {
      // A read-only cache dir costs the next process a cold scan, nothing more.
    }
  }
}

function scanEnvironment(environment: FoundEnvironment): StampedScan {
  let packages: PackageRecord[];
  let watched: string[];
  if (environment.language === "python") {
    packages = scanSitePackages(environment.packagesDir, environment.manager);
    watched = [environment.packagesDir, join(environment.path, "pyvenv.cfg")];
  } else {
    ({ packages, watched } = scanNodeModules(environment.packagesDir, environment.manager));
  }
  return { environment, packages, stamps: stampAll(watched, true) };
}

/**
 * An environment's packages, each bound to where its files may lie: the project, the Nix store and
 * the environment's own packages directory, unless that directory sits in the project but leads
 * out of it (a planted `.venv -> /home/me/.local`): the project does not choose host directories.
 * An editable install's .pth or a symlinked member that leads elsewhere (/etc, a home directory)
 * then reads nothing there, and a package whose own description lies elsewhere (node_modules/x ->
 * /home/me/x, a dist-info in a linked venv) is not listed either: that is not the project's to show.
 */
function confined(scan: StampedScan, projectRoot: string): PackageRecord[] {
  const project = realpathOf(projectRoot) ?? projectRoot;
  const store = storeDir();
  const own = realpathOf(scan.environment.packagesDir);
  const redirected =
    own !== undefined && isInside(scan.environment.packagesDir, projectRoot) && !isInside(own, project) && !isInside(own, store);
  const within = [project, store, ...(own === undefined || redirected ? [] : [own])];
  return scan.packages.map((pkg) => ({ ...pkg, within })).filter(describedWithin);
}

/** A pnpm store or a hoisted copy seen again through a workspace member: the same name@version once. */
function withoutRepeats(packages: PackageRecord[]): PackageRecord[] {
  const seen = new Set<string>();
  return packages.filter((pkg) => {
    if (pkg.language !== "node") return true;
    const key = `${pkg.name}@${pkg.version}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function sameEnvironment(a: FoundEnvironment, b: FoundEnvironment): boolean {
  return a.packagesDir === b.packagesDir && a.kind === b.kind && a.manager === b.manager && a.path === b.path;
}

/** requirements.txt, requirements-dev.txt, …: pip's lockfiles of sorts. */
function requirementFiles(projectRoot: string): string[] {
  return listNames(projectRoot)
    .filter((name) => /^requirements.*\.txt$/.test(name))
    .map((name) => join(projectRoot, name));
}

/**
 * Mtimes move in clock ticks (jiffies, up to 10 ms), so a change right after a scan can leave one
 * unchanged. As git does with its index, what changed this recently is recorded as "racy", a stamp
 * nothing matches: the next scan reads it again.
 */
const RACY_MS = 1000;

/** What identifies a file's or directory's state: inode, mtime and size ("-" when absent, "loop" for a symlink loop a project planted). */
function stamp(path: string, recording: boolean): string {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    if (isAbsent(error)) return "-";
    if ((error as NodeJS.ErrnoException).code === "ELOOP") return "loop";
    throw error;
  }
  if (recording && Date.now() - stats.mtimeMs < RACY_MS) return "racy";
  return `${stats.ino}:${stats.mtimeMs}:${stats.isDirectory() ? "d" : stats.size}`;
}

/** Stamps to record (recording) or to compare with recorded ones. */
function stampAll(paths: string[], recording = false): Record<string, string> {
  return Object.fromEntries(paths.map((path) => [path, stamp(path, recording)]));
}

function sameStamps(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}
