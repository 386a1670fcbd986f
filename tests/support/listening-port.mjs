// The TCP port a process listens on, read from /proc: for a server told to take any free port
// (port 0) that does not say which it took, as the jail's egress relay does not.
import { readFileSync, readdirSync, readlinkSync } from "node:fs";

/**
 * @param {number} pid
 * @returns {number | undefined} the port of its first listening IPv4 socket, if it has one yet
 */
export function listeningPort(pid) {
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
