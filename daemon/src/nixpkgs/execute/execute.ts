// One-off execution of a nixpkgs package: the name a call gives read against the index, the package
// realised (realiser.ts) with its permissions, its program chosen, run in the jail every sandbox
// uses. Nix's failures become one line here, a missing package with the names closest to it.
import { waitMessage, type JailBudget } from "../../jail/budget.js";
import type { OpenSpool } from "../../jail/output.js";
import { checkTimeoutAsk } from "../../jail/policy.js";
import { runInJail, type JailResult } from "../../jail/runner.js";
import type { Logger } from "../../log.js";
import { NixCommandError, NixpkgsError, noPackage } from "../errors.js";
import type { NixpkgsIndex } from "../index/index.js";
import { plainPname, splitAttr, withoutInstallable } from "../index/package-sets.js";
import { closeNames } from "../search/close-names.js";
import { normalizeName } from "../search/text.js";
import type { RunPermissions } from "../tools/tool-support.js";
import { chooseProgram } from "./program.js";
import { attrPath } from "./realise.js";
import { Realiser, type RealiseCall, type RealiserContext } from "./realiser.js";

export interface ExecuteRequest {
  attr: string;
  args?: string[];
  stdin?: string;
  program?: string;
  timeoutSeconds?: number;
}

export type ExecuteCall = RealiseCall;

export interface Execution extends JailResult {
  attr: string;
  program: string;
}

export interface ExecuteContext extends RealiserContext {
  /** The daemon's jail budget. */
  budget: JailBudget;
  /** The index when it is ready; undefined while it builds (the attribute is then not checked). */
  index(): NixpkgsIndex | undefined;
  /** Where the egress proxy of a package with an allow-list logs its decisions. */
  log?: Logger;
  /** nix's raw output of a failed realisation goes here (the daemon's debug log), not to the agent. */
  debug?(message: string): void;
  /** Where a program's output streams go whole once they outgrow the jail's cap. */
  spooler?(tool: string): OpenSpool;
}

/** How many close names a "did you mean" offers. */
const CLOSE_NAMES = 5;

export class PackageRunner {
  private readonly realiser: Realiser;

  constructor(private readonly ctx: ExecuteContext) {
    this.realiser = new Realiser(ctx);
  }

  /** A package's network and project access, as the jail policy decides them (nixpkgs.permissions, else the nixpkgs defaults, capped by the sandbox). */
  permissions(attr: string): RunPermissions {
    return this.realiser.permissions(attr);
  }

  /** Why packages cannot be realised here (no nixpkgs, no nixshed library), or undefined when they can. */
  unavailable(): string | undefined {
    return this.realiser.unavailable()?.message;
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
   * nodePackages.nodejs), so Nix knows names it does not. What is no attribute path at all is
   * refused here, before anything keeps it (an installed tool).
   */
  resolve(asked: string, program?: string): { attr: string; program?: string } {
    const attr = withoutInstallable(asked);
    attrPath(attr);
    // A program is a file of the package's bin/, by its name: no path, no space, no option.
    if (program !== undefined && (!/^[^/\0\s-][^/\0\s]*$/.test(program) || program === "." || program === "..")) {
      throw new NixpkgsError(`'${program}' is no program name`, "Name a program in the package's bin/, e.g. rg.");
    }
    const index = this.ctx.index();
    const member = !index || index.lookup(attr) >= 0 ? -1 : index.lookupInFamily(attr);
    if (member < 0) return { attr, program };
    const { leaf } = splitAttr(attr);
    const found = index!.attr(member);
    // The same name in another version of its set, or a package's name ("python3", the pname of every
    // python3.withPackages environment too), is Nix's to resolve; else it is a program of `found`.
    if (splitAttr(found).leaf === leaf || normalizeName(plainPname(index!.record(member).pname)) === normalizeName(leaf)) {
      return { attr, program };
    }
    return { attr: found, program: program ?? leaf };
  }

  /**
   * The program a call of the package would run, with the package realised for it: what a run of it
   * would refuse (no such package, a broken one, a library with no programs, no such program) is
   * refused now.
   */
  async prepare(attr: string, program: string | undefined, call: ExecuteCall = {}): Promise<string> {
    return (await this.realiseFor(attr, program, call)).program;
  }

  async execute(asked: ExecuteRequest, call: ExecuteCall = {}): Promise<Execution> {
    const request = { ...asked, ...this.resolve(asked.attr, asked.program) };
    // Refused here (a timeout or stdin above the limits) before anything is realised.
    const policy = this.realiser.policy(request.attr, request);
    const { realised, program, args } = await this.realiseFor(
      request.attr,
      request.program,
      call,
      withoutInstallable(asked.attr),
      request.args,
    );
    const result = await runInJail({
      artifact: realised.artifact,
      policy,
      argv: [program, ...args],
      stdin: request.stdin,
      signal: call.signal,
      budget: this.ctx.budget,
      onWait: (ahead, running) => call.progress?.(0, undefined, waitMessage(ahead, running)),
      log: this.ctx.log,
      spool: this.ctx.spooler?.("nixpkgs_execute"),
    });
    if (result.notStarted) {
      const hint = /no such file/i.test(result.notStarted)
        ? "It, or the interpreter its #! line or ELF header names, is missing in the jail: a file from outside the Nix store."
        : "It is no program this jail can run.";
      const what = program === splitAttr(request.attr).leaf ? program : `${program} of ${request.attr}`;
      throw new NixpkgsError(`${what} could not start in the jail: ${result.notStarted}`, hint);
    }
    return { ...result, attr: request.attr, program };
  }

  /** `asked`: the name the agent gave, where the index led from a program to `attr`. */
  private async realiseFor(attr: string, program: string | undefined, call: ExecuteCall, asked = attr, args?: string[]) {
    const realised = await this.realiser.realise(attr, call).catch((error: unknown) => this.nixFailed(error, attr, asked));
    return { realised, ...chooseProgram(attr, realised, program, args) };
  }

  /**
   * Nix's output to the debug log; a missing package as one line with the names closest to it: Nix's
   * (those the index lists as packages, where there is one: Nix also names sets such as lib), then
   * the index's. `asked`: the program the agent named, when the index led from it to `attr`.
   */
  private nixFailed(error: unknown, attr: string, asked = attr): never {
    if (!(error instanceof NixCommandError)) throw error;
    this.ctx.debug?.(`nixpkgs: ${error.message}; nix said:\n${error.trace}`);
    if (error.kind !== "missing") throw error;
    const index = this.ctx.index();
    const nixNames = index ? error.suggestions.filter((name) => index.lookup(name) >= 0) : error.suggestions;
    const close = new Set([...nixNames, ...(index ? closeNames(index, attr, CLOSE_NAMES) : [])]);
    const [message, hint] = noPackage(attr, [...close].slice(0, CLOSE_NAMES));
    throw new NixpkgsError(asked === attr ? message : `\`${asked}\` is a program of ${attr}, and ${message}`, hint);
  }
}
