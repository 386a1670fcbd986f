// Kernels on the host's own interpreters (no jail), for tests of the session core: the same
// agent/ kernels and protocol as bin/session-run, started directly.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { stopJail } from "../../src/common/jail.js";
import type { Environment, Interpreter } from "../../src/discovery/types.js";
import { signal, type KernelLauncher } from "../../src/sandbox/sessions/launcher.js";

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
    return { child, interrupt: () => signal(child, "SIGINT", true), stop: () => stopJail(child) };
  };
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
