// What this machine offers the jail: Nix, bubblewrap, working user namespaces, and which mechanism
// bin/run enforces memory and process limits with. That choice is bin/run's own (it decides at run
// time, so an artifact works without the daemon): this probe asks an artifact's bin/run --limits
// instead of deciding it a second time.
import { execFile } from "node:child_process";
import { jailLimits, type LimitMechanism } from "./runner.js";

export interface Probe {
  ok: boolean;
  detail: string;
}

export interface HostReport {
  nix: Probe;
  bwrap: Probe;
  userNamespace: Probe;
  limits: Probe & { mechanism?: LimitMechanism };
}

const limitDetails: Record<LimitMechanism, Probe> = {
  cgroup1: { ok: true, detail: "cgroup v1 (memory + pids hierarchies, as root): a cgroup per run, enforced by the kernel" },
  systemd: { ok: true, detail: "cgroup v2 through systemd-run --scope (MemoryMax, TasksMax): a scope per run" },
  rlimit: {
    ok: false,
    detail:
      "rlimits only: RLIMIT_DATA bounds each process's private memory, not memory it shares; RLIMIT_NPROC bounds processes per user, and not root's; enable a systemd user session (loginctl enable-linger $USER), or run as root on cgroup v1 or where systemd-run reaches systemd",
  },
};

function run(program: string, args: string[]): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    execFile(program, args, { timeout: 10_000 }, (error, stdout, stderr) => {
      resolve({ ok: !error, output: `${stdout}${stderr}`.trim() || (error?.message ?? "") });
    });
  });
}

/** The limits an artifact's jails get here, or why that is not known (no artifact, or it did not answer). */
async function limitsOf(artifact: string | undefined, env: NodeJS.ProcessEnv): Promise<HostReport["limits"]> {
  if (!artifact) return { ok: false, detail: "unknown: no environment was discovered to ask (bin/run --limits)" };
  try {
    const mechanism = await jailLimits(artifact, env);
    return { mechanism, ...limitDetails[mechanism] };
  } catch (error) {
    return { ok: false, detail: `unknown: ${(error as Error).message}` };
  }
}

/** This machine, with the limits `artifact`'s bin/run would use. */
export async function probeHost(artifact?: string, env: NodeJS.ProcessEnv = process.env): Promise<HostReport> {
  const [nix, bwrap, userns, limits] = await Promise.all([
    run("nix", ["--version"]),
    run("bwrap", ["--version"]),
    run("bwrap", ["--unshare-user", "--unshare-pid", "--unshare-net", "--ro-bind", "/", "/", "--proc", "/proc", "true"]),
    limitsOf(artifact, env),
  ]);
  return {
    nix: { ok: nix.ok, detail: nix.output.split("\n")[0] ?? "" },
    bwrap: { ok: bwrap.ok, detail: bwrap.output.split("\n")[0] ?? "" },
    userNamespace: {
      ok: userns.ok,
      detail: userns.ok ? "bwrap can create user, pid and network namespaces" : (userns.output.split("\n")[0] ?? ""),
    },
    limits,
  };
}
