// What this machine offers the jail: Nix, bubblewrap, working user namespaces, and which mechanism
// bin/run will use to enforce memory and process limits. The choice mirrors
// nix/backends/jail.bash (which decides for itself at run time, so the artifact works without the
// daemon): cgroup v1 when its memory and pids hierarchies are writable (root), else a systemd scope
// (cgroup v2: the system manager as root, the user manager otherwise), else rlimits.
import { execFile } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { isAbsent } from "./absence.js";

export type LimitMechanism = "cgroup1" | "systemd" | "rlimit";

export interface Probe {
  ok: boolean;
  detail: string;
}

export interface HostReport {
  nix: Probe;
  bwrap: Probe;
  userNamespace: Probe;
  limits: Probe & { mechanism: LimitMechanism };
}

/** Whether this process may write `path`: no when it is absent, not ours or read-only; other failures are thrown. */
const writable = (path: string) => {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (isAbsent(error) || code === "EACCES" || code === "EPERM" || code === "EROFS") return false;
    throw error;
  }
};

const onPath = (program: string, env: NodeJS.ProcessEnv) =>
  (env.PATH ?? "").split(delimiter).some((dir) => dir && existsSync(join(dir, program)));

export function limitMechanism(env: NodeJS.ProcessEnv = process.env, root = "/sys/fs/cgroup", uid = process.getuid?.()): LimitMechanism {
  if (writable(`${root}/memory`) && writable(`${root}/pids`) && existsSync(`${root}/pids/cgroup.procs`)) return "cgroup1";
  const manager = uid === 0 ? "/run/systemd/private" : `${env.XDG_RUNTIME_DIR ?? "/nonexistent"}/systemd/private`;
  if (onPath("systemd-run", env) && existsSync(manager)) return "systemd";
  return "rlimit";
}

const limitDetails: Record<LimitMechanism, Probe> = {
  cgroup1: { ok: true, detail: "cgroup v1 (memory + pids hierarchies, as root): a cgroup per run, enforced by the kernel" },
  systemd: { ok: true, detail: "cgroup v2 through systemd-run --scope (MemoryMax, TasksMax): a scope per run" },
  rlimit: {
    ok: false,
    detail: "rlimits only (RLIMIT_DATA per process, RLIMIT_NPROC per user): weaker than a cgroup; enable a systemd user session (loginctl enable-linger $USER) or run as root on cgroup v1",
  },
};

function run(program: string, args: string[]): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    execFile(program, args, { timeout: 10_000 }, (error, stdout, stderr) => {
      resolve({ ok: !error, output: `${stdout}${stderr}`.trim() || (error?.message ?? "") });
    });
  });
}

export async function probeHost(env: NodeJS.ProcessEnv = process.env): Promise<HostReport> {
  const [nix, bwrap, userns] = await Promise.all([
    run("nix", ["--version"]),
    run("bwrap", ["--version"]),
    run("bwrap", ["--unshare-user", "--unshare-pid", "--unshare-net", "--ro-bind", "/", "/", "--proc", "/proc", "true"]),
  ]);
  const mechanism = limitMechanism(env);
  return {
    nix: { ok: nix.ok, detail: nix.output.split("\n")[0] ?? "" },
    bwrap: { ok: bwrap.ok, detail: bwrap.output.split("\n")[0] ?? "" },
    userNamespace: { ok: userns.ok, detail: userns.ok ? "bwrap can create user, pid and network namespaces" : userns.output.split("\n")[0] ?? "" },
    limits: { mechanism, ...limitDetails[mechanism] },
  };
}
