// How a session's kernel process is started: the environment artifact's bin/session-run, in the
// same jail as the environment's one-off runs (the jail policy's decision for it: closure, limits,
// project access and protections, cwd). Tests of the session core substitute a launcher running the
// host's interpreters directly.
import type { ChildProcess, StdioOptions } from "node:child_process";
import type { Socket } from "node:net";
import type { JailPolicy } from "../../jail/policy.js";
import type { EgressProxy } from "../../jail/egress/proxy.js";
import { interruptJail, jailLabel, prepareJail, sessionRunPath, spawnJail, stopJail } from "../../jail/runner.js";
import type { Logger } from "../../log.js";
import type { Environment } from "../../discovery/types.js";

export interface LaunchedKernel {
  /** stdio: 0 /dev/null, 1 and 2 the user's output, 3 requests, 4 replies (./protocol.ts). */
  child: ChildProcess;
  /** SIGINT to the code the kernel is running and every process it started. */
  interrupt(): void;
  /** Kills the kernel and everything in its jail; resolves once it has exited. */
  stop(): Promise<void>;
  /** What the jail could not get as decided (the project read-only instead), for the session's notices. */
  notice?: string;
  /** The jail's egress proxy (a network allow-list), whose decisions each call reports; closed when the kernel exits. */
  egress?: EgressProxy;
}

/** Starts a kernel with the given stdio (see kernelStdio). */
export type KernelLauncher = (env: Environment, stdio: StdioOptions) => LaunchedKernel;

/** fd 0 /dev/null, fds 1 and 2 the daemon's output readers, fds 3 and 4 the protocol. */
export function kernelStdio(stdout: Socket, stderr: Socket): StdioOptions {
  return ["ignore", stdout, stderr, "pipe", "pipe"];
}

/** Kernels in the environment's jail; bin/session-run turns SIGINT into an interrupt of the jail's processes. */
export function jailLauncher(policyFor: (env: Environment) => JailPolicy, log?: Logger): KernelLauncher {
  return (env, stdio) => {
    const jail = prepareJail(policyFor(env), process.env, { log, label: jailLabel(env.artifact) });
    let child: ChildProcess;
    try {
      child = spawnJail(sessionRunPath(env.artifact), [], jail.env, stdio);
    } catch (error) {
      jail.release();
      throw error;
    }
    // Placeholders the protections made stay until the kernel's jail is gone.
    child.once("exit", () => jail.release());
    child.once("error", () => jail.release());
    return {
      child,
      interrupt: () => interruptJail(child),
      stop: () => stopJail(child),
      ...(jail.notice ? { notice: jail.notice } : {}),
      ...(jail.egress ? { egress: jail.egress } : {}),
    };
  };
}
