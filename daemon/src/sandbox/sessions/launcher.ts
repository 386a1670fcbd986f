// How a session's kernel process is started: the environment artifact's bin/session-run, in the
// same jail (closure, limits, /project access) as the environment's one-off runs. Tests of the
// session core substitute a launcher running the host's interpreters directly.
import type { ChildProcess, StdioOptions } from "node:child_process";
import type { Socket } from "node:net";
import { interruptJail, jailEnv, sessionRunPath, spawnJail, stopJail, type JailAccess } from "../../common/jail.js";
import type { Environment } from "../../discovery/types.js";

export interface LaunchedKernel {
  /** stdio: 0 /dev/null, 1 and 2 the user's output, 3 requests, 4 replies (./protocol.ts). */
  child: ChildProcess;
  /** SIGINT to the code the kernel is running and every process it started. */
  interrupt(): void;
  /** Kills the kernel and everything in its jail; resolves once it has exited. */
  stop(): Promise<void>;
}

/** Starts a kernel with the given stdio (see kernelStdio). */
export type KernelLauncher = (env: Environment, stdio: StdioOptions) => LaunchedKernel;

/** fd 0 /dev/null, fds 1 and 2 the daemon's output readers, fds 3 and 4 the protocol. */
export function kernelStdio(stdout: Socket, stderr: Socket): StdioOptions {
  return ["ignore", stdout, stderr, "pipe", "pipe"];
}

/** Kernels in the environment's jail; bin/session-run turns SIGINT into an interrupt of the jail's processes. */
export function jailLauncher(accessFor: (env: Environment) => JailAccess): KernelLauncher {
  return (env, stdio) => {
    const child = spawnJail(sessionRunPath(env.artifact), [], jailEnv(accessFor(env)), stdio);
    return {
      child,
      interrupt: () => interruptJail(child),
      stop: () => stopJail(child),
    };
  };
}
