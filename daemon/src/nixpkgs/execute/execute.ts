// One-off execution of a nixpkgs package: the attribute checked against the index, realised from
// the configured nixpkgs with its permissions, its program chosen, run in the jail every sandbox uses.
import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { NetworkSetting } from "../../config/network.js";
import { waitMessage, type JailBudget } from "../../jail/budget.js";
import type { OpenSpool } from "../../jail/output.js";
import { checkTimeoutAsk, decideJail, jailSettings, networkSetting, packageDeclared, type JailPolicy } from "../../jail/policy.js";
import { runInJail, type JailResult } from "../../jail/runner.js";
import type { Logger } from "../../log.js";
import type { Config, Mount, ProjectAccess } from "../../config/schema.js";
import type { NixpkgsInfo } from "../../discovery/types.js";
import { NixCommandError, NixpkgsError } from "../errors.js";
import type { NixpkgsIndex } from "../index/index.js";
import { chooseProgram } from "./program.js";
import { attrPath, jailMounts, realise, realisedAhead, type NixpkgsSource, type Realised } from "./realise.js";
import { plainPname, splitAttr } from "../index/package-sets.js";
import { searchIndex } from "../search/search.js";
import { normalizeName } from "../search/text.js";

export interface ExecuteRequest {
  attr: string;
  args?: string[];
  stdin?: string;
  program?: string;
  timeoutSeconds?: number;
}

export interface ExecuteCall {
  signal?: AbortSignal;
  progress?: (done: number, total: number | undefined, message: string) => void;
}

export interface Execution extends JailResult {
  attr: string;
  program: string;
}

export interface ExecuteContext {
  config: Config;
  discovered: NixpkgsInfo;
  projectRoot: string;
  cacheDir: string;
  /** The daemon's jail budget. */
  budget: JailBudget;
  /** The index when it is ready; undefined while it builds (the attribute is then not checked). */
  index(): NixpkgsIndex | undefined;
  /** Where the egress proxy of a package with an allow-list logs its decisions. */
  log?: Logger;
  /** nix's raw output of a failed realisation goes here (the daemon's debug log), not to the agent. */
  debug?(message: string): void;
  /** Told what is refused on the way (a realise-cache entry that is not a store path). */
  warn?: (message: string) => void;
  /** Where a program's output streams go whole once they outgrow the jail's cap. */
  spooler?(tool: string): OpenSpool;
}

/** Mounts as one comparable string, whichever way each was written. */
function canonicalMounts(mounts: Mount[]): string {
  return JSON.stringify(jailMounts(mounts).map((m) => [m.source, m.target ?? m.source, m.writable ?? false, m.optional ?? false]));
}

/** What a package's artifact is built for: the network and project access of its policy. */
const accessOf = (policy: JailPolicy): { network: NetworkSetting; projectAccess: ProjectAccess } => ({
  network: networkSetting(policy.network),
  projectAccess: policy.project?.access ?? "none",
});

/** The checked-out repository's nix/lib, for running from a source tree without a metadata path. */
const SOURCE_LIB = fileURLToPath(new URL("../../../../nix/lib", import.meta.url));

export class PackageRunner {
  constructor(private readonly ctx: ExecuteContext) {}

  /** A package's network and project access, as the jail policy decides them (nixpkgs.permissions, else the nixpkgs defaults, capped by the sandbox). */
  permissions(attr: string): { network: NetworkSetting; projectAccess: ProjectAccess } {
    return accessOf(this.policy(attr));
  }

  private policy(attr: string, request: Pick<ExecuteRequest, "timeoutSeconds" | "stdin"> = {}): JailPolicy {
    const { config } = this.ctx;
    return decideJail(packageDeclared(attr, config.nixpkgs), jailSettings(config), this.ctx.projectRoot, request);
  }

  /** Why packages cannot be realised here (no nixpkgs, no nixshed library), or undefined when they can. */
  unavailable(): string | undefined {
    try {
      this.source();
      this.lib();
      return undefined;
    } catch (error) {
      if (error instanceof NixpkgsError) return error.message;
      throw error;
    }
  }

  /** Refuses a run time limit above sandbox.max_timeout_seconds, whether asked for per call or per installed tool. */
  checkTimeout(seconds: number): void {
    checkTimeoutAsk(seconds, this.ctx.config.sandbox);
  }

  /**
   * The package a call names: an attribute, an alias of its set ("python3Packages.x", which Nix
   * resolves), or a program of a package, which then runs that package ("pdfunite" is poppler-utils'
   * program pdfunite, "rg" ripgrep's). A name the index lacks goes to Nix as it is: the index lists
   * each derivation once, as nix-env does (python3 is listed as python313Packages.python, nodejs as
   * nodePackages.nodejs), so Nix knows names it does not, and says when a name is no package (the
   * error then names close matches from the index). `unlisted`: the index is at hand and lacks it.
   * What is no attribute path at all is refused here, before anything keeps it (an installed tool).
   */
  resolve(attr: string, program?: string): { attr: string; program?: string; unlisted: boolean } {
    attrPath(attr);
    const index = this.ctx.index();
    if (!index || index.lookup(attr) >= 0) return { attr, program, unlisted: false };
    const member = index.lookupInFamily(attr);
    if (member < 0) return { attr, program, unlisted: true };
    const { leaf } = splitAttr(attr);
    const found = index.attr(member);
    if (splitAttr(found).leaf === leaf) return { attr, program, unlisted: false };
    // A package's name ("python3", the pname of every python3.withPackages environment too) is Nix's to resolve.
    if (normalizeName(plainPname(index.record(member).pname)) === normalizeName(leaf)) return { attr, program, unlisted: true };
    return { attr: found, program: program ?? leaf, unlisted: false };
  }

  /** "no package `x` in this nixpkgs; did you mean …", from the index when it is at hand. */
  private missing(attr: string): NixpkgsError {
    const index = this.ctx.index();
    const close = index
      ? searchIndex(index, attr, { limit: 5, platform: "any", includeBroken: true, includeUnfree: true }).map((r) => r.attr)
      : [];
    return close.length > 0
      ? new NixpkgsError(`no package \`${attr}\` in this nixpkgs; did you mean ${close.join(", ")}?`)
      : new NixpkgsError(`no package \`${attr}\` in this nixpkgs`, "Find the attribute with nixpkgs_search.");
  }

  async execute(asked: ExecuteRequest, call: ExecuteCall = {}): Promise<Execution> {
    const { config } = this.ctx;
    const { unlisted: _unlisted, ...named } = this.resolve(asked.attr, asked.program);
    const request = { ...asked, ...named };
    const policy = this.policy(request.attr, request);
    // The artifact is built for what the policy grants.
    const permissions = accessOf(policy);
    const realised =
      this.ahead(request.attr, permissions) ??
      (await realise(
        { attr: request.attr, source: this.source(), lib: this.lib(), ...permissions, mounts: jailMounts(config.nixpkgs.extra_mounts) },
        {
          cacheDir: this.ctx.cacheDir,
          warn: this.ctx.warn,
          timeoutMs: config.nixpkgs.build_timeout_seconds * 1000,
          nixOptions: config.nixpkgs.nix_options,
          signal: call.signal,
          progress: call.progress,
        },
      ).catch((error: unknown) => {
        if (!(error instanceof NixCommandError)) throw error;
        this.ctx.debug?.(`nixpkgs: ${error.message}; nix said:\n${error.trace}`);
        throw error.kind === "missing" ? this.missing(request.attr) : error;
      }));
    const program = chooseProgram(request.attr, realised, request.program);
    const result = await runInJail({
      artifact: realised.artifact,
      policy,
      argv: [program, ...(request.args ?? [])],
      stdin: request.stdin,
      signal: call.signal,
      budget: this.ctx.budget,
      onWait: (ahead, running) => call.progress?.(0, undefined, waitMessage(ahead, running)),
      log: this.ctx.log,
      spool: this.ctx.spooler?.("nixpkgs_execute"),
    });
    return { ...result, attr: request.attr, program };
  }

  /** The package as the metadata realised it ahead, when that is what realising it now would give. */
  private ahead(attr: string, permissions: ReturnType<PackageRunner["permissions"]>): Realised | undefined {
    const { nixpkgs } = this.ctx.config;
    if (nixpkgs.source) return undefined;
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

  private source(): NixpkgsSource {
    const configured = this.ctx.config.nixpkgs.source;
    if (configured) {
      const looksLikePath = configured.startsWith("/") || configured.startsWith(".");
      return looksLikePath
        ? { path: isAbsolute(configured) ? configured : resolve(this.ctx.projectRoot, configured) }
        : { flake: configured };
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
