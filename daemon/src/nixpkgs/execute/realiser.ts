// What realising a package means here: the nixpkgs and nixshed library it comes from, the jail it is
// built for (nixpkgs.permissions, else the nixpkgs defaults, capped by the sandbox), and where it is
// realised already: ahead by the metadata (the modules' prerealise) or in the realise cache. The
// runner realises through it; doctor asks it what is realised.
import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Config, Mount } from "../../config/schema.js";
import type { NixpkgsInfo } from "../../discovery/types.js";
import { onPath } from "../../files/on-path.js";
import { decideJail, jailSettings, networkSetting, packageDeclared, type JailPolicy } from "../../jail/policy.js";
import { NixpkgsError } from "../errors.js";
import type { RunPermissions } from "../tools/tool-support.js";
import {
  jailMounts,
  realise,
  realisedAhead,
  realisedInCache,
  type NixpkgsSource,
  type Realised,
  type RealiseOptions,
  type RealiseRequest,
} from "./realise.js";

export interface RealiserContext {
  config: Config;
  discovered: NixpkgsInfo;
  projectRoot: string;
  cacheDir: string;
  /** Told what is refused on the way (a realise-cache entry that is not a store path). */
  warn?: (message: string) => void;
}

export interface RealiseCall {
  signal?: AbortSignal;
  progress?: (done: number, total: number | undefined, message: string) => void;
}

/** Mounts as one comparable string, whichever way each was written. */
function canonicalMounts(mounts: Mount[]): string {
  return JSON.stringify(jailMounts(mounts).map((m) => [m.source, m.target ?? m.source, m.writable ?? false, m.optional ?? false]));
}

/** The checked-out repository's nix/lib, for running from a source tree without a metadata path. */
const SOURCE_LIB = fileURLToPath(new URL("../../../../nix/lib", import.meta.url));

/** A nixpkgs.source that names a directory rather than a flake ref or a channel. */
const isSourcePath = (source: string): boolean => source.startsWith("/") || source.startsWith(".");

export class Realiser {
  constructor(private readonly ctx: RealiserContext) {}

  /** Why packages cannot be realised here (no nixpkgs, no nixshed library, no nix), with its fix; undefined when they can. */
  unavailable(): NixpkgsError | undefined {
    try {
      this.source();
      this.lib();
      if (!onPath("nix"))
        throw new NixpkgsError("nix is not on the daemon's PATH", "Install Nix, which realises the packages, or put it on PATH.");
      return undefined;
    } catch (error) {
      if (error instanceof NixpkgsError) return error;
      throw error;
    }
  }

  /** What a package's jail gets, with the call's asks (a run timeout, stdin). */
  policy(attr: string, asks: { timeoutSeconds?: number; stdin?: string } = {}): JailPolicy {
    const { config } = this.ctx;
    return decideJail(packageDeclared(attr, config.nixpkgs), jailSettings(config), this.ctx.projectRoot, asks);
  }

  /** The network and project access a package's artifact is built for. */
  permissions(attr: string): RunPermissions {
    const policy = this.policy(attr);
    return { network: networkSetting(policy.network), projectAccess: policy.project?.access ?? "none" };
  }

  /** The package as the metadata realised it ahead, when that is what realising it now would give. */
  ahead(attr: string): Realised | undefined {
    const { nixpkgs } = this.ctx.config;
    if (nixpkgs.source) return undefined;
    const permissions = this.permissions(attr);
    const mounts = canonicalMounts(nixpkgs.extra_mounts);
    const entry = this.ctx.discovered.realised?.find(
      (ahead) =>
        ahead.attr === attr &&
        JSON.stringify(ahead.network) === JSON.stringify(permissions.network) &&
        ahead.projectAccess === permissions.projectAccess &&
        canonicalMounts(ahead.mounts) === mounts,
    );
    return entry && realisedAhead(entry);
  }

  /** The package as the realise cache holds it, realised by an earlier call; undefined when it is not. */
  cached(attr: string): Realised | undefined {
    return realisedInCache(this.request(attr), this.ctx.cacheDir);
  }

  /** The package ready to run: realised ahead, cached, or evaluated and built now. */
  async realise(attr: string, call: RealiseCall = {}): Promise<Realised> {
    return this.ahead(attr) ?? (await realise(this.request(attr), this.options(call)));
  }

  /** The artifact is built for what the policy grants. */
  private request(attr: string): RealiseRequest {
    const mounts = jailMounts(this.ctx.config.nixpkgs.extra_mounts);
    return { attr, source: this.source(), lib: this.lib(), ...this.permissions(attr), mounts };
  }

  private options(call: RealiseCall): RealiseOptions {
    const { nixpkgs } = this.ctx.config;
    return {
      cacheDir: this.ctx.cacheDir,
      warn: this.ctx.warn,
      timeoutMs: nixpkgs.build_timeout_seconds * 1000,
      nixOptions: nixpkgs.nix_options,
      ...call,
    };
  }

  /** The nixpkgs packages come from; a NixpkgsError says why there is none. */
  source(): NixpkgsSource {
    const configured = this.ctx.config.nixpkgs.source;
    if (configured && !isSourcePath(configured)) return { flake: configured };
    if (configured) {
      const path = isAbsolute(configured) ? configured : resolve(this.ctx.projectRoot, configured);
      // Nix would say so only at the first call, after the tools were offered.
      if (!existsSync(path))
        throw new NixpkgsError(
          `nixpkgs.source ${path} does not exist`,
          "Point nixpkgs.source at a nixpkgs checkout or a flake ref (github:NixOS/nixpkgs/nixos-unstable), or unset it to use the pinned one.",
        );
      return { path };
    }
    if (this.ctx.discovered.source) return { path: this.ctx.discovered.source };
    throw new NixpkgsError(
      "no nixpkgs to realise packages from",
      "Serve a metadata path made by lib.mkMetadata with `nixpkgs`, or set nixpkgs.source (a path or a flake ref such as github:NixOS/nixpkgs/nixos-unstable).",
    );
  }

  private lib(): string {
    if (this.ctx.discovered.lib) return this.ctx.discovered.lib;
    if (existsSync(`${SOURCE_LIB}/mkEnvironment.nix`)) return SOURCE_LIB;
    throw new NixpkgsError(
      "nixshed's Nix library is not available",
      "Serve a metadata path made by lib.mkMetadata (it carries the library).",
    );
  }
}
