// The one jail policy: from what a jail's subject declares (an environment's metadata, a nixpkgs
// package's permissions), the trusted configuration's caps and the call's own asks, everything the
// jail gets: the project (mounted where, how, with which paths protected), the directory it starts
// in, the network, its time and output limits. `run`, sessions and `nixpkgs_execute` all decide
// here; ./jail.ts turns the decision into bin/run's NIXSHED_JAIL_* variables, and the Nix backend
// (nix/backends/jail.bash) applies them without deciding anything again. Memory and process
// limits are the artifact's own (built into bin/run); the budget of jails running at once is
// ./jail-budget.ts.
import type { Config, ProjectAccess } from "../config/schema.js";
import { allowListOf, type NetworkSetting } from "../config/network.js";
import { ExpectedError } from "../expected-error.js";
import { jailProtectedEntries } from "./protection.js";

/** No network, the whole network, or only these destinations (through the daemon's filtering proxy, ./egress/). */
export type NetworkPolicy = boolean | { allow: string[] };

/** A declared network setting as the policy states it (an empty list is no network). */
export function networkPolicy(setting: NetworkSetting): NetworkPolicy {
  const allow = allowListOf(setting);
  return allow ? { allow } : setting === true;
}

/** The policy's network as the setting an artifact is built with. */
export const networkSetting = (policy: NetworkPolicy): NetworkSetting => (typeof policy === "object" ? policy.allow : policy);

/** Where the project is mounted in every jail, and the writable scratch directory (HOME) beside it. */
export const JAIL_PROJECT = "/project";
export const JAIL_SCRATCH = "/workspace";

export interface JailPolicy {
  /** The project at /project; absent when the jail gets no project access. */
  project?: {
    /** Host directory. */
    dir: string;
    access: "ro" | "rw";
    /** Project-relative entries kept read-only (and not creatable) in a read-write jail, parents first. */
    protect: readonly string[];
  };
  /** Where the program starts: the project when mounted, else the scratch directory. */
  cwd: string;
  network: NetworkPolicy;
  timeoutMs: number;
  /** Cap per output stream (head and tail kept). */
  maxOutputBytes: number;
}

/** What the jail's subject asks for: an environment's metadata or a package's permissions. */
export interface Declared {
  projectAccess: ProjectAccess;
  network: NetworkSetting;
  /** Default time limit of one call. */
  timeoutSeconds: number;
}

/** What one call asks for. */
export interface CallAsks {
  timeoutSeconds?: number;
  stdin?: string | Buffer;
}

/** A call refused by the policy (a limit above the configuration's). */
export class JailPolicyError extends ExpectedError {}

const accessRank: Record<ProjectAccess, number> = { none: 0, ro: 1, rw: 2 };

/** The lesser of two accesses: what is declared, capped by what the configuration allows. */
export const cappedAccess = (declared: ProjectAccess, cap: ProjectAccess): ProjectAccess =>
  accessRank[declared] <= accessRank[cap] ? declared : cap;

/** A nixpkgs package's declaration: nixpkgs.permissions.<attr>, else the nixpkgs defaults. */
export function packageDeclared(attr: string, nixpkgs: Config["nixpkgs"]): Declared {
  const own = nixpkgs.permissions[attr] ?? {};
  return {
    projectAccess: own.project_access ?? nixpkgs.project_access,
    network: own.network ?? nixpkgs.network,
    timeoutSeconds: nixpkgs.run_timeout_seconds,
  };
}

/** The trusted configuration the policy caps everything by. */
export interface JailSettings {
  sandbox: Config["sandbox"];
  /** The protected_paths list (./protected-paths.ts). */
  protectedPaths: readonly string[];
}

/** The jail settings of a configuration. */
export const jailSettings = (config: Config): JailSettings => ({ sandbox: config.sandbox, protectedPaths: config.protected_paths });

/** Refuses a time limit asked for (per call, or kept for an installed tool) above sandbox.max_timeout_seconds. */
export function checkTimeoutAsk(seconds: number, sandbox: Config["sandbox"]): void {
  const max = sandbox.max_timeout_seconds;
  if (seconds > max) {
    throw new JailPolicyError(
      `timeout_seconds ${seconds} is above the limit of ${max}`,
      `Ask for at most ${max} seconds (the daemon's sandbox.max_timeout_seconds).`,
    );
  }
}

export function decideJail(declared: Declared, settings: JailSettings, projectRoot: string, asks: CallAsks = {}): JailPolicy {
  const { sandbox } = settings;
  // A limit asked for above the maximum is refused; the declared default is only capped by it.
  if (asks.timeoutSeconds !== undefined) checkTimeoutAsk(asks.timeoutSeconds, sandbox);
  const stdinBytes = asks.stdin === undefined ? 0 : Buffer.byteLength(asks.stdin);
  if (stdinBytes > sandbox.max_stdin_bytes) {
    throw new JailPolicyError(
      `stdin is ${stdinBytes} bytes, above the limit of ${sandbox.max_stdin_bytes}`,
      `Write large input to a file instead (in ${JAIL_SCRATCH} from the code, or in the project), or raise sandbox.max_stdin_bytes.`,
    );
  }
  const access = cappedAccess(declared.projectAccess, sandbox.project_access);
  const project =
    access === "none"
      ? undefined
      : { dir: projectRoot, access, protect: access === "rw" ? jailProtectedEntries(settings.protectedPaths) : [] };
  return {
    ...(project ? { project } : {}),
    cwd: project ? JAIL_PROJECT : JAIL_SCRATCH,
    network: networkPolicy(declared.network),
    timeoutMs: (asks.timeoutSeconds ?? Math.min(declared.timeoutSeconds, sandbox.max_timeout_seconds)) * 1000,
    maxOutputBytes: sandbox.max_output_bytes,
  };
}
