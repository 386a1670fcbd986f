// Where an open file really is. Linux names each descriptor's file under /proc/self/fd, whatever path
// it was opened by and whatever was renamed or swapped for a symlink on that path since: the one answer
// to a check of a path string that another process could change before its use.
import { existsSync, readlinkSync } from "node:fs";

/** Linux's view of this process's descriptors. */
export const FD_DIR = existsSync("/proc/self/fd") ? "/proc/self/fd" : undefined;

/** The real path of the file open as `fd`; undefined where the system does not say (macOS). */
export function pathOfDescriptor(fd: number): string | undefined {
  return FD_DIR ? readlinkSync(`${FD_DIR}/${fd}`) : undefined;
}

/**
 * Where a file opened by a checked path must really lie, asked of its open descriptor: a directory on
 * that path swapped for a symlink since the check leads elsewhere.
 */
export type Within = (real: string) => boolean;

/** Whether the file open as `fd` lies where `within` says; true where the system does not say. */
export function openedWithin(fd: number, within: Within | undefined): boolean {
  const opened = within && pathOfDescriptor(fd);
  return !opened || within(opened);
}
