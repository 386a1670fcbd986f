// One-off execution: the code runs once in a fresh jail of the environment and everything it wrote
// outside /project is gone afterwards. Per-call limits (timeout, stdin) are checked against the
// daemon's configuration before anything starts.
import { runInJail, type JailResult } from "../common/jail.js";
import type { Config } from "../config/schema.js";
import type { Environment } from "../discovery/types.js";
import { effectiveAccess } from "./environments.js";
import { SandboxError } from "./errors.js";

export interface RunRequest {
  code: string;
  stdin?: string;
  timeoutSeconds?: number;
}

export interface RunContext {
  settings: Config["sandbox"];
  projectRoot: string;
  signal?: AbortSignal;
}

/** The timeout a call gets: its own if allowed, else the environment's, never above the daemon's maximum. */
function timeoutFor(env: Environment, requested: number | undefined, maxSeconds: number): number {
  if (requested !== undefined && requested > maxSeconds) {
    throw new SandboxError(
      `timeout_seconds ${requested} is above the limit of ${maxSeconds}`,
      `Ask for at most ${maxSeconds} seconds (the daemon's sandbox.max_timeout_seconds).`,
    );
  }
  return requested ?? Math.min(env.limits.timeoutSeconds, maxSeconds);
}

/** Refuses stdin above the daemon's sandbox.max_stdin_bytes. */
function checkStdin(stdin: string | undefined, settings: Config["sandbox"]): void {
  if (stdin !== undefined && Buffer.byteLength(stdin) > settings.max_stdin_bytes) {
    throw new SandboxError(
      `stdin is ${Buffer.byteLength(stdin)} bytes, above the limit of ${settings.max_stdin_bytes}`,
      "Write large input to /workspace from the code instead, or raise sandbox.max_stdin_bytes.",
    );
  }
}

/** The checks every call takes, one-off or in a session; returns the call's timeout in milliseconds. */
export function checkedTimeoutMs(env: Environment, request: RunRequest, settings: Config["sandbox"]): number {
  const timeoutSeconds = timeoutFor(env, request.timeoutSeconds, settings.max_timeout_seconds);
  checkStdin(request.stdin, settings);
  return timeoutSeconds * 1000;
}

export async function runCode(env: Environment, request: RunRequest, context: RunContext): Promise<JailResult> {
  const { settings } = context;
  return runInJail({
    artifact: env.artifact,
    code: request.code,
    stdin: request.stdin,
    timeoutMs: checkedTimeoutMs(env, request, settings),
    maxOutputBytes: settings.max_output_bytes,
    projectDir: context.projectRoot,
    projectAccess: effectiveAccess(env, settings.project_access),
    signal: context.signal,
  });
}
