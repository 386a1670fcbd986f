// Kernels on the host's own interpreters (no jail), for tests of the session core: the same
// agent/ kernels and protocol as bin/session-run, started directly.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { stopJail } from "../../src/jail/runner.js";
import type { Environment, Interpreter } from "../../src/discovery/types.js";
import type { KernelLauncher } from "../../src/sandbox/sessions/launcher.js";

const agent = fileURLToPath(new URL("../../../agent/", import.meta.url));
const command: Record<Interpreter, string[]> = {
  python: ["python3", `${agent}kernel.py`],
  node: [process.execPath, `${agent}kernel.mjs`],
  bash: ["bash", `${agent}kernel.bash`],
};

export function hostLauncher(override?: string[]): KernelLauncher {
  return (env, stdio) => {
    const [program, ...args] = override ?? command[env.interpreter];
    const child = spawn(program!, args, { stdio, detached: true });
    return { child, interrupt: () => interruptGroup(child), stop: () => stopJail(child) };
  };
}

/** Without bin/session-run to spread SIGINT over the jail, the kernel's whole process group gets it. */
function interruptGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGINT");
  } catch {
    // Already gone.
  }
}

export function environment(name: string, interpreter: Interpreter): Environment {
  return {
    schemaVersion: 1,
    name,
    description: "",
    interpreter,
    packages: [],
    limits: { timeoutSeconds: 30, memoryMb: 512, maxProcesses: 256, workspaceMb: 256 },
    network: false,
    projectAccess: "none",
    artifact: "/nonexistent",
    origin: "test",
  };
}
