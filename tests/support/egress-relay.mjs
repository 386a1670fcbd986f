// The jail's egress relay (nix/backends/egress-relay.c) started on the host, in front of a Unix
// socket standing for the proxy: for its tests and the egress bench. It is given port 0 and does not
// say which port it took, so that is read from /proc by its listening socket's inode.
import { spawn } from "node:child_process";
import { readFileSync, readdirSync, readlinkSync } from "node:fs";

/**
 * @param {number} pid
 * @returns {number | undefined} the port of its first listening IPv4 socket, if it has one yet
 */
function listeningPort(pid) {
  /** @type {Set<string>} */
  const inodes = new Set();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      if (inode) inodes.add(inode);
    }
  } catch {
    return undefined; // gone, or its descriptors changed while read: the caller looks again
  }
  for (const line of readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
    const [, local, , state, , , , , , inode] = line.trim().split(/\s+/);
    if (state === "0A" && inode && inodes.has(inode) && local) return Number.parseInt(local.split(":")[1] ?? "", 16);
  }
  return undefined;
}

/**
 * Starts the relay program on `socketPath` and resolves once it listens; rejects if it exits first
 * or does not listen within 5 s. `prefix` runs before it (e.g. a shell lowering its limits).
 * @param {string} program
 * @param {string} socketPath
 * @param {string[]} [prefix]
 * @returns {Promise<{ relay: import("node:child_process").ChildProcess, port: number }>}
 */
export async function startRelay(program, socketPath, prefix = []) {
  const [command = program, ...args] = [...prefix, program, "0", socketPath];
  const relay = spawn(command, args, { stdio: "ignore" });
  for (const deadline = Date.now() + 5000; Date.now() < deadline; await new Promise((resolve) => setImmediate(resolve))) {
    if (relay.exitCode !== null || relay.signalCode !== null) throw new Error(`the relay exited (${relay.exitCode ?? relay.signalCode})`);
    const port = relay.pid === undefined ? undefined : listeningPort(relay.pid);
    if (port) return { relay, port };
  }
  relay.kill();
  throw new Error("the relay did not listen within 5 s");
}
