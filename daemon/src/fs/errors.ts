import { ExpectedError } from "../expected-error.js";

/** An expected filesystem failure, worded for the agent: what went wrong and what to do instead. */
export class FsError extends ExpectedError {}

/** The errno code of a Node error, if it has one. */
export function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * The message for one item of a multi-item call: expected failures (FsError, or an errno error
 * such as EACCES from the system) become that item's error; anything else is a bug and propagates.
 */
export function itemError(error: unknown, path: string): string {
  const code = errnoOf(error);
  if (!(error instanceof FsError) && !code) throw error;
  // An item's error is one line: what went wrong, then what to do instead.
  const message =
    error instanceof FsError
      ? error.hint
        ? `${error.message}; ${error.hint}`
        : error.message
      : describeErrno(code!, (error as Error).message);
  // An empty path names no item (its error says so).
  return path === "" || message.startsWith(`${path}:`) ? message : `${path}: ${message}`;
}

const ERRNO_TEXT: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ENOENT: "does not exist",
  ENOTDIR: "a parent is not a directory",
  EISDIR: "is a directory",
  EEXIST: "already exists",
  ENOSPC: "no space left on the device",
  EDQUOT: "disk quota exceeded",
  EFBIG: "over the file size limit",
  EROFS: "read-only filesystem",
  EXDEV: "cannot move across filesystems",
  ENOTEMPTY: "directory not empty",
  ELOOP: "too many levels of symlinks",
};

function describeErrno(code: string, message: string): string {
  return ERRNO_TEXT[code] ?? message;
}
