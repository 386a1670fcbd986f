// Absence checked as absence: a path that is not there (ENOENT, a parent that is not a directory, or
// a directory where a file was looked for) is a normal answer; any other failure (permission denied, I/O error, a symlink loop) is a real error
// that callers report instead of treating it as "not found".
export function isAbsent(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR";
}

/** `read()`, or `absent` when what it reads is not there; other errors are thrown. */
export function unlessAbsent<T>(read: () => T, absent: T): T {
  try {
    return read();
  } catch (error) {
    if (isAbsent(error)) return absent;
    throw error;
  }
}
