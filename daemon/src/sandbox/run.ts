// One-off execution: the code runs once in a fresh jail of the environment and everything it wrote
// outside /project is gone afterwards. What the jail gets is the jail policy's decision for the
// environment under the daemon's configuration.
import type { JailBudget } from "../jail/budget.js";
import type { Logger } from "../log.js";
import type { OpenSpool } from "../jail/output.js";
import { decideJail, type JailPolicy, type JailSettings } from "../jail/policy.js";
import { runInJail, type JailResult } from "../jail/runner.js";
import type { Environment } from "../discovery/types.js";
import { runAs } from "./command-lines.js";

export interface RunRequest {
  code: string;
  stdin?: string;
  timeoutSeconds?: number;
}

export interface RunContext {
  settings: JailSettings;
  projectRoot: string;
  budget: JailBudget;
  signal?: AbortSignal;
  /** Told while the call waits for a free jail. */
  onWait?: (ahead: number, running: number) => void;
  /** Where the egress proxy of an environment with an allow-list logs its decisions. */
  log?: Logger;
  /** Where an output stream goes whole once it outgrows the jail's cap. */
  spool?: OpenSpool;
}

/** The jail policy for an environment, for one call (request) or a session's kernel (no request). */
export function environmentJail(env: Environment, context: Pick<RunContext, "settings" | "projectRoot">, request?: RunRequest): JailPolicy {
  const declared = { projectAccess: env.projectAccess, network: env.network, timeoutSeconds: env.limits.timeoutSeconds };
  return decideJail(
    declared,
    context.settings,
    context.projectRoot,
    request && { timeoutSeconds: request.timeoutSeconds, stdin: request.stdin },
  );
}

export async function runCode(env: Environment, request: RunRequest, context: RunContext): Promise<JailResult> {
  return runInJail({
    artifact: env.artifact,
    policy: environmentJail(env, context, request),
    ...runAs(env.interpreter, request.code),
    stdin: request.stdin,
    signal: context.signal,
    budget: context.budget,
    onWait: context.onWait,
    log: context.log,
    spool: context.spool,
  });
}
