// A `run` call that names a session: the same jail policy as a one-off run (timeout, stdin), plus
// what the kernels' framing needs, then the session manager.
import type { Environment } from "../../discovery/types.js";
import { sessionCode } from "../command-lines.js";
import { SandboxError } from "../errors.js";
import { environmentJail, type RunContext, type RunRequest } from "../run.js";
import type { SessionManager } from "./manager.js";
import type { SessionResult } from "./session.js";

export function runInSession(
  sessions: SessionManager,
  id: string,
  env: Environment,
  request: RunRequest,
  context: RunContext,
): Promise<SessionResult> {
  const { timeoutMs, maxOutputBytes } = environmentJail(env, context, request);
  // The request frame ends code and stdin with a NUL byte; bash reads up to it.
  if (request.code.includes("\0") || (env.interpreter === "bash" && request.stdin?.includes("\0"))) {
    throw new SandboxError(
      `${request.code.includes("\0") ? "code" : "stdin"} contains a NUL byte, which a ${env.interpreter} session cannot take`,
      "Remove the NUL bytes, or pass binary data through a file (or a one-off run without `session`).",
    );
  }
  return sessions.run(id, env, {
    code: sessionCode(env.interpreter, request.code),
    stdin: request.stdin,
    timeoutMs,
    maxOutputBytes,
    spool: context.spool,
    signal: context.signal,
    onWait: context.onWait,
  });
}
