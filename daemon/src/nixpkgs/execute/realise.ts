// Realises one nixpkgs attribute as a jailed environment: the package from the configured nixpkgs,
// wrapped by nixshed's own lib.mkEnvironment (interpreter bash; `bin/run -- PROGRAM` runs it).
// Evaluation (`nix eval`) names the environment's derivation and the package's programs (alone, it
// tells whether this nixpkgs has the package at all, as install asks); `nix-store --realise` builds
// it with a GC root in the cache, which is also the cache: the next call with the same attribute
// and permissions starts at once (across restarts when nixpkgs is pinned in the store). Builds
// report progress, obey their own timeout and stop when cancelled.
//
// The cache is data, not authority: an entry is used only when it names the key it was stored
// under and both its artifact and its programs resolve inside the Nix store; anything else is
// refused with a warning and the package is realised again. The package set is evaluated with
// unsafe native code off and has no say in what the jail mounts: that is nixpkgs.extra_mounts.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { replaceFile } from "../../files/planted-safe-write.js";
import { dirname, join } from "node:path";
import { z } from "zod";
import type { NetworkSetting } from "../../config/network.js";
import { unlessAbsent } from "../../files/absence.js";
import { InvalidJson, parseJson, readJsonFile } from "../../files/json-file.js";
import { inStore, NotInStore, requireStorePath } from "../../files/store.js";
import type { Mount, ProjectAccess } from "../../config/schema.js";
import { nixFailure, NixpkgsError } from "../errors.js";
import { NIX_FLAGS, SAFE_EVALUATION } from "../index/evaluate.js";
import { BuildProgress } from "./build-progress.js";
import { SlotQueue } from "../../slot-queue.js";

/** A nixpkgs to realise from: a source tree (`import path { }`) or a flake reference. */
export type NixpkgsSource = { path: string } | { flake: string };

export interface RealiseRequest {
  attr: string;
  source: NixpkgsSource;
  /** nixshed's Nix library (the metadata's `lib`). */
  lib: string;
  network: NetworkSetting;
  projectAccess: ProjectAccess;
  /** Host paths for the jail, from the trusted nixpkgs.extra_mounts (see jailMounts). */
  mounts: NixMount[];
}

/** A mount as lib.mkEnvironment takes it. */
export interface NixMount {
  source: string;
  target?: string;
  writable?: boolean;
  optional?: boolean;
}

/** nixpkgs.extra_mounts as lib.mkEnvironment's mounts: "/host:/jail" becomes { source, target }. */
export function jailMounts(setting: Mount[]): NixMount[] {
  return setting.map((mount) => {
    if (typeof mount !== "string") return mount;
    const [source, target] = mount.split(":") as [string, string | undefined];
    return target ? { source, target } : { source };
  });
}

export interface Realised {
  /** The environment artifact (bin/run). */
  artifact: string;
  /** The package's programs, by name. */
  programs: string[];
  mainProgram: string | null;
  pname: string;
}

export interface RealiseOptions {
  cacheDir: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Extra arguments for every nix command (config nixpkgs.nix_options). */
  nixOptions?: string[];
  progress?: (done: number, total: number | undefined, message: string) => void;
  /** Told about a cache entry that is refused. */
  warn?: (message: string) => void;
}

// The request arrives through the environment (--impure), so no attribute path is ever quoted into
// Nix source. The mounts are the request's own, never an attribute of the package set.
const EXPRESSION = `
let
  s = builtins.fromJSON (builtins.getEnv "NIXSHED_NIXPKGS_REQUEST");
  pkgs = if s ? flake then (builtins.getFlake s.flake).legacyPackages.\${builtins.currentSystem} else import s.path { };
  package = builtins.foldl' (set: name: set.\${name}) pkgs s.attrPath;
  environment = (import s.lib).mkEnvironment {
    inherit pkgs;
    inherit (s) name network projectAccess;
    description = "nixpkgs \${s.attr}";
    interpreter = "bash";
    packages = [ package ];
    inherit (s) mounts;
  };
in
{
  environment = environment.drvPath;
  bin = "\${package.bin or package.out or package}/bin";
  mainProgram = package.meta.mainProgram or null;
  pname = package.pname or (builtins.parseDrvName package.name).name;
}`;

const evaluatedSchema = z.object({
  environment: z.string(),
  bin: z.string(),
  mainProgram: z.string().nullable(),
  pname: z.string(),
});
type Evaluated = z.infer<typeof evaluatedSchema>;

/** A realise-cache entry: what the evaluation said, under the key it was stored for. */
const cacheEntrySchema = z.object({ key: z.string(), bin: z.string(), mainProgram: z.string().nullable(), pname: z.string() });
type CacheEntry = z.infer<typeof cacheEntrySchema>;

/** Cache keys realised by this process. */
const realisedHere = new Set<string>();

/** A nixpkgs attribute path: components of letters, digits, _ ' + and -, joined by dots. */
export const ATTR_PATH = /^[A-Za-z0-9_'+-]+(\.[A-Za-z0-9_'+-]+)*$/;

/** Far over the longest nixpkgs has (about 80): a name this long is none, and nix would be refused its arguments (E2BIG). */
const MAX_ATTR_PATH = 300;

/** An attribute path as its components: `python3Packages.requests` → ["python3Packages", "requests"]. */
export function attrPath(attr: string): string[] {
  if (attr.length > MAX_ATTR_PATH || !ATTR_PATH.test(attr)) {
    const shown = attr.length > 60 ? `${attr.slice(0, 60)}… (${attr.length} characters)` : attr;
    throw new NixpkgsError(
      `'${shown}' is not a nixpkgs attribute path`,
      "Use the attr a nixpkgs_search result names, e.g. ripgrep or python3Packages.requests.",
    );
  }
  return attr.split(".");
}

/** Environment names must match [a-z][a-z0-9_-]*. */
function environmentName(attr: string): string {
  return `pkg-${attr.toLowerCase().replace(/[^a-z0-9_-]+/g, "-")}`.slice(0, 60);
}

/** Where a request's realisation is kept: a GC root and the evaluation's facts beside it, under a hash of the request. */
function cacheFiles(request: RealiseRequest, cacheDir: string): { key: string; dir: string; root: string; infoFile: string } {
  const key = createHash("sha256").update(JSON.stringify(request)).digest("hex").slice(0, 32);
  const dir = join(cacheDir, "nixpkgs-tools");
  return { key, dir, root: join(dir, key), infoFile: join(dir, `${key}.json`) };
}

/** The package as the cache holds it, realised before (by this process or an earlier one), or undefined. */
export function realisedInCache(request: RealiseRequest, cacheDir: string, warn?: (message: string) => void): Realised | undefined {
  const { key, root, infoFile } = cacheFiles(request, cacheDir);
  return readCached(key, root, infoFile, warn);
}

/**
 * Evaluates the request (`nix eval`, nothing built): whether this nixpkgs has the package, and
 * the environment's derivation and the package's programs. `deadline` is shared with a build after it.
 */
async function evaluate(request: RealiseRequest, options: RealiseOptions, deadline: number, progress: BuildProgress): Promise<Evaluated> {
  progress.step(`evaluating ${request.attr}`);
  const nixRequest = {
    ...("flake" in request.source ? { flake: request.source.flake } : { path: request.source.path }),
    lib: request.lib,
    attr: request.attr,
    attrPath: attrPath(request.attr),
    name: environmentName(request.attr),
    network: request.network,
    projectAccess: request.projectAccess,
    mounts: request.mounts,
  };
  // SAFE_EVALUATION comes last, so no option given earlier turns unsafe native code back on.
  const evaluation = await runNix(
    "nix",
    [...NIX_FLAGS, ...(options.nixOptions ?? []), "eval", "--impure", "--json", "--expr", EXPRESSION, ...SAFE_EVALUATION],
    { NIXSHED_NIXPKGS_REQUEST: JSON.stringify(nixRequest) },
    deadline,
    { ...options, progress },
    `evaluating ${request.attr}`,
    request.attr,
  );
  return parseEvaluation(evaluation, request.attr);
}

export async function realise(request: RealiseRequest, options: RealiseOptions): Promise<Realised> {
  const files = cacheFiles(request, options.cacheDir);
  const { key, root, infoFile } = files;
  // A store path is immutable, so its artifacts are reused across restarts; a checkout or a flake
  // ref may have moved, so its artifacts are reused within this process only (nix re-evaluates it
  // after a restart, and rebuilds only what changed).
  const pinned = "path" in request.source && [request.source.path, request.lib].every((path) => inStore(path) !== undefined);
  const cachedNow = () => (pinned || realisedHere.has(key) ? readCached(key, root, infoFile, options.warn) : undefined);
  const cached = cachedNow();
  if (cached) return cached;

  const progress = new BuildProgress(options.progress);
  // The wait for a turn counts against the build's time.
  const deadline = Date.now() + options.timeoutMs;
  try {
    const release = await builds.acquire(
      {
        signal: options.signal,
        timeoutMs: options.timeoutMs,
        onWait: (ahead, running) => progress.step(`waiting for ${running + ahead} other builds of packages to finish`),
      },
      {
        timedOut: () =>
          new NixpkgsError(
            `${request.attr}: build timeout reached waiting for other builds`,
            "Raise nixpkgs.build_timeout_seconds, or try again once they are done.",
          ),
        cancelled: () => new NixpkgsError(`${request.attr}: cancelled while waiting for other builds`),
      },
    );
    try {
      // Another call may have realised the same package meanwhile.
      return cachedNow() ?? (await build(request, options, files, progress, deadline));
    } finally {
      release();
    }
  } finally {
    progress.end();
  }
}

/**
 * At most two package evaluations and builds at once, across all calls: each `nix eval` of a nixpkgs takes hundreds
 * of MB to a GB of the host, outside any jail, and a name the index lacks is evaluated all the same (forty calls of
 * made-up names ran twenty-six evaluations at once). The rest wait their turn.
 */
const builds = new SlotQueue(2);

async function build(
  request: RealiseRequest,
  options: RealiseOptions,
  { key, dir, root, infoFile }: ReturnType<typeof cacheFiles>,
  progress: BuildProgress,
  deadline: number,
): Promise<Realised> {
  mkdirSync(dir, { recursive: true });
  // nix-store keeps a GC root only where it finds nothing or a root of its own.
  if (inStore(root) === undefined) rmSync(root, { recursive: true, force: true });
  const evaluated = await evaluate(request, options, deadline, progress);
  await runNix(
    "nix-store",
    [...(options.nixOptions ?? []), "--realise", evaluated.environment, "--add-root", root],
    {},
    deadline,
    { ...options, progress },
    `building ${request.attr}`,
    request.attr,
  );
  const entry: CacheEntry = { key, bin: evaluated.bin, mainProgram: evaluated.mainProgram, pname: evaluated.pname };
  let realised: Realised;
  try {
    realised = fromStore(entry, root);
  } catch (error) {
    if (error instanceof NotInStore)
      throw new NixpkgsError(`${request.attr}: ${error.message}`, "The nixpkgs evaluated to something outside the Nix store.");
    throw error;
  }
  realisedHere.add(key);
  replaceFile(infoFile, JSON.stringify(entry));
  return realised;
}

function parseEvaluation(output: string, attr: string): Evaluated {
  try {
    return parseJson(output, evaluatedSchema, `evaluating ${attr} gave an unexpected result`);
  } catch (error) {
    if (error instanceof InvalidJson) throw new NixpkgsError(error.message);
    throw error;
  }
}

/** A package realised ahead (lib.mkMetadata's `realised`), each part required to be in the store (NotInStore otherwise). */
export function realisedAhead(ahead: { artifact: string; bin: string; mainProgram: string | null; pname: string }): Realised {
  return fromStore(ahead, ahead.artifact);
}

/** What an entry names, each part required to resolve inside the store (NotInStore otherwise). */
function fromStore(entry: Omit<CacheEntry, "key">, root: string): Realised {
  const artifact = requireStorePath(root, "realised artifact");
  return { artifact, programs: programsIn(entry.bin), mainProgram: entry.mainProgram, pname: entry.pname };
}

/** A cached realisation, or undefined (then it is realised again) with a warning when the entry is refused. */
function readCached(key: string, root: string, infoFile: string, warn: (message: string) => void = () => {}): Realised | undefined {
  const refuse = (why: string) => {
    warn(`realise cache entry ${infoFile} refused: ${why}; realising again`);
    return undefined;
  };
  let entry: CacheEntry | undefined;
  try {
    entry = readJsonFile(infoFile, cacheEntrySchema);
  } catch (error) {
    // Not the schema, or there but unreadable: logged, and realised again (which rewrites it).
    return refuse((error as Error).message);
  }
  if (!entry) return undefined;
  if (entry.key !== key) return refuse(`it was stored under key ${entry.key}, not ${key}`);
  try {
    return fromStore(entry, root);
  } catch (error) {
    if (error instanceof NotInStore) return refuse(error.message);
    throw error;
  }
}

/** The programs in a package's bin/, which must resolve inside the store; a package without one (a library) has none. */
function programsIn(bin: string): string[] {
  if (!existsSync(bin)) {
    requireStorePath(dirname(bin), "package");
    return [];
  }
  const programs = requireStorePath(bin, "package programs");
  return unlessAbsent(() => readdirSync(programs).sort(), []);
}

/**
 * Runs one nix command in a process group of its own (so a timeout or cancellation stops the
 * builders it started too) and returns its stdout. Its stderr feeds progress: nix-store announces
 * "these N derivations will be built" and then "building '…'" per derivation.
 */
function runNix(
  command: string,
  args: string[],
  env: Record<string, string>,
  deadline: number,
  options: Omit<RealiseOptions, "progress"> & { progress: BuildProgress },
  what: string,
  attr: string,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let tail = "";
    let total: number | undefined;
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      tail = (tail + text).slice(-8000);
      for (const line of text.split("\n")) {
        const planned = /these (\d+) (derivations will be built|paths will be fetched)/.exec(line);
        if (planned) total = (total ?? 0) + Number(planned[1]);
        const begun = /^(building|copying path) '\/nix\/store\/[a-z0-9]{32}-(.+?)(\.drv)?'/.exec(line);
        if (begun) options.progress.step(`${begun[1] === "building" ? "building" : "fetching"} ${begun[2]}`, total);
      }
    });
    let stopped: "timeout" | "cancelled" | undefined;
    const signalGroup = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) return; // never started
      try {
        process.kill(-child.pid, signal);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error; // ESRCH: already gone
      }
    };
    const stop = (why: "timeout" | "cancelled") => {
      stopped = why;
      signalGroup("SIGTERM");
      setTimeout(() => signalGroup("SIGKILL"), 2000).unref();
    };
    const timer = setTimeout(() => stop("timeout"), Math.max(0, deadline - Date.now()));
    const onAbort = () => stop("cancelled");
    options.signal?.addEventListener("abort", onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(
        (error as NodeJS.ErrnoException).code === "ENOENT"
          ? new NixpkgsError(`${command} not found`, "nixpkgs_execute needs Nix on the daemon's PATH.")
          : error,
      );
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      if (stopped === "timeout") {
        reject(
          new NixpkgsError(`${what}: build timeout reached`, "Raise nixpkgs.build_timeout_seconds, or try again: finished parts are kept."),
        );
      } else if (stopped === "cancelled") {
        reject(new NixpkgsError(`${what}: cancelled`));
      } else if (code !== 0) {
        reject(nixFailure(what, attr, tail));
      } else {
        resolve(stdout);
      }
    });
  });
}
