// Where the search index comes from, in order: nixpkgs.index (config or --nixpkgs-index), the one
// the metadata carries, else one built from the configured nixpkgs and cached under the cache dir,
// keyed by that nixpkgs' hash. A metadata file given instead of an index is indexed the same way.
// The daemon builds in a child process (the same `nixshed index build`), so the event loop stays
// free and searches meanwhile answer "index building" with the builder's last progress line.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, openSync, readSync, closeSync, realpathSync, statSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { inStore, storeDir } from "../../files/store.js";
import { NixpkgsError } from "../errors.js";
import { NixpkgsIndex } from "./index.js";
import { IndexFormatError, INDEX_FORMAT_VERSION, isIndexFile } from "./file.js";
import type { IndexInput } from "./source.js";

export type IndexPlan =
  | { kind: "load"; path: string }
  | { kind: "build"; input: IndexInput; path: string }
  | { kind: "none"; reason: string };

export interface IndexSources {
  /** config nixpkgs.index (or --nixpkgs-index). */
  configured: string;
  /** The index the metadata carries. */
  discovered?: string;
  /** The nixpkgs tree to index when no index is given (config nixpkgs.source if a path, else the pinned one). */
  nixpkgs?: string;
  cacheDir: string;
}

export function planIndex(sources: IndexSources): IndexPlan {
  for (const given of [sources.configured, sources.discovered]) {
    if (!given) continue;
    if (!existsSync(given))
      throw new NixpkgsError(`nixpkgs index ${given} does not exist`, "Fix nixpkgs.index or build one with `nixshed index build`.");
    const kind = statSync(given);
    if (!kind.isFile())
      throw new NixpkgsError(
        `nixpkgs index ${given} is ${kind.isDirectory() ? "a directory" : "no regular file"}, not an index file`,
        "Point nixpkgs.index at a file made by `nixshed index build`.",
      );
    if (startsLikeIndex(given)) return { kind: "load", path: given };
    return { kind: "build", input: { file: given }, path: cachedIndexPath(sources.cacheDir, fileKey(given)) };
  }
  if (sources.nixpkgs && existsSync(sources.nixpkgs)) {
    // Built once, then read from the cache (IndexProvider checks what it was built from).
    return { kind: "build", input: { nixpkgs: sources.nixpkgs }, path: cachedIndexPath(sources.cacheDir, treeKey(sources.nixpkgs)) };
  }
  return {
    kind: "none",
    reason: "no nixpkgs index: set nixpkgs.index (build one with `nixshed index build`), or serve a metadata path that carries one",
  };
}

/** The format version is part of the name: a nixshed that reads another format builds its own. */
function cachedIndexPath(cacheDir: string, key: string): string {
  return join(cacheDir, "nixpkgs-index", `${key}.v${INDEX_FORMAT_VERSION}.idx`);
}

function startsLikeIndex(path: string): boolean {
  const fd = openSync(path, "r");
  try {
    const head = Buffer.alloc(16);
    return isIndexFile(head.subarray(0, readSync(fd, head, 0, 16, 0)));
  } finally {
    closeSync(fd);
  }
}

/** What a build plan's index is built from, as the index records it. */
function sourceOf(plan: Extract<IndexPlan, { kind: "build" }>): string {
  return "file" in plan.input ? plan.input.file : plan.input.nixpkgs;
}

/** A store path is named by its hash; anything else by its real path and modification time. */
function treeKey(path: string): string {
  const real = realpathSync(path);
  const inside = inStore(real) === undefined ? undefined : relative(storeDir(), real);
  const store = inside === undefined ? null : /^([a-z0-9]{32})-/.exec(inside);
  return store ? store[1]! : hash(`${real}\0${statSync(real).mtimeMs}`);
}

function fileKey(path: string): string {
  const real = realpathSync(path);
  const stat = statSync(real);
  return `${basename(real).replace(/[^A-Za-z0-9._-]/g, "_")}-${hash(`${real}\0${stat.size}\0${stat.mtimeMs}`)}`;
}

function hash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 32);
}

/** The built CLI beside this module (daemon/dist/cli/main.js). */
const OWN_CLI = fileURLToPath(new URL("../../cli/main.js", import.meta.url));

/** The daemon's handle on the index: loads it when first needed, building it in the background if it must. */
export class IndexProvider {
  private index?: NixpkgsIndex;
  private building?: { startedAt: number; message: string; stop(): void };
  private failure?: NixpkgsError;
  private readonly readyListeners: ((index: NixpkgsIndex) => void)[] = [];

  constructor(
    private readonly plan: IndexPlan,
    private readonly log: (message: string) => void,
    /** The nixshed CLI that runs `index build`; tests running the sources pass the built one. */
    private readonly cli = OWN_CLI,
  ) {}

  /** The index, or a NixpkgsError saying it is being built (with progress) or why there is none. */
  get(): NixpkgsIndex {
    if (this.index) return this.index;
    if (this.failure) throw this.failure;
    const plan = this.plan;
    if (plan.kind === "none") throw new NixpkgsError(plan.reason);
    if (plan.kind === "load") {
      try {
        this.index = NixpkgsIndex.load(plan.path);
        return this.index;
      } catch (error) {
        if (error instanceof IndexFormatError) throw new NixpkgsError(error.message, "Build the index again with `nixshed index build`.");
        throw error;
      }
    }
    const cached = this.building ? undefined : this.cached(plan);
    if (cached) {
      this.index = cached;
      return cached;
    }
    this.building ??= this.startBuild(plan);
    const seconds = Math.round((Date.now() - this.building.startedAt) / 1000);
    throw new NixpkgsError(
      `index building (${seconds} s so far): ${this.building.message}`,
      "The nixpkgs index is built once and cached; try again shortly.",
    );
  }

  /**
   * The index this provider built into the cache dir, if it is there. The cache is data: a file
   * that is not an index of this format, or was built from another source than the one it is
   * cached for, is not used; it is built again (never executed either way).
   */
  private cached(plan: Extract<IndexPlan, { kind: "build" }>): NixpkgsIndex | undefined {
    if (!existsSync(plan.path)) return undefined;
    try {
      return NixpkgsIndex.load(plan.path, sourceOf(plan));
    } catch (error) {
      if (!(error instanceof IndexFormatError)) throw error;
      this.log(`cached index ${plan.path} refused (${error.message}); building it again`);
    }
    return undefined;
  }

  /** The index if it can be had without building it (a build stays for the first search to start). */
  peek(): NixpkgsIndex | undefined {
    if (this.index || this.plan.kind === "load" || (this.plan.kind === "build" && existsSync(this.plan.path))) {
      try {
        return this.get();
      } catch (error) {
        if (error instanceof NixpkgsError) return undefined;
        throw error;
      }
    }
    return undefined;
  }

  /** Resolves once the index is ready (or failed): for callers that can wait. */
  async ready(pollMs = 200): Promise<NixpkgsIndex> {
    for (;;) {
      try {
        return this.get();
      } catch (error) {
        if (!this.building || this.failure) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  /** Calls `listener` when a build started by this provider has finished and the index loads. */
  onReady(listener: (index: NixpkgsIndex) => void): void {
    this.readyListeners.push(listener);
  }

  close(): void {
    this.building?.stop();
  }

  private startBuild(plan: Extract<IndexPlan, { kind: "build" }>) {
    const source = ["file" in plan.input ? "--from" : "--nixpkgs", sourceOf(plan)];
    this.log(`building the nixpkgs index from ${source[1]} into ${plan.path}`);
    const child = spawn(process.execPath, [this.cli, "index", "build", ...source, "--out", plan.path, "--log-level", "error"], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    const state = { startedAt: Date.now(), message: "starting", stop: () => child.kill("SIGTERM") };
    let tail = "";
    child.stderr.on("data", (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-2000);
      const lines = tail.trim().split("\n");
      state.message = lines[lines.length - 1] ?? state.message;
    });
    child.once("error", (error) => {
      this.failure = new NixpkgsError(`index build failed: ${error.message}`);
    });
    child.once("close", (code) => {
      this.building = undefined;
      if (code !== 0) {
        this.failure = new NixpkgsError(`index build failed (exit ${code})`, tail.trim().split("\n").slice(-3).join("\n"));
        return;
      }
      // Loaded here, once: an index this nixshed cannot read (its files replaced while it runs) is one failure,
      // not a build started again by every call.
      let index: NixpkgsIndex;
      try {
        index = NixpkgsIndex.load(plan.path, sourceOf(plan));
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        this.failure = new NixpkgsError(`the index just built is not one this nixshed reads (${why})`, "Restart nixshed.");
        return;
      }
      this.index = index;
      this.log(`nixpkgs index ready: ${plan.path}`);
      for (const listener of this.readyListeners) listener(index);
    });
    return state;
  }
}

/** The index sources a configuration and the discovered metadata name. */
export function indexSources(
  nixpkgs: { index: string; source: string },
  discovered: { index?: string; source?: string },
  cacheDir: string,
): IndexSources {
  const sourceIsPath = nixpkgs.source.startsWith("/") || nixpkgs.source.startsWith(".");
  return {
    configured: nixpkgs.index,
    discovered: discovered.index,
    nixpkgs: sourceIsPath ? nixpkgs.source : nixpkgs.source ? undefined : discovered.source,
    cacheDir,
  };
}
