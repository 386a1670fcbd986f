// What a program can be given as arguments. The kernel refuses a NUL inside an argument, one
// argument over MAX_ARG_STRLEN (128 KiB) and arguments plus environment over ARG_MAX (2 MiB here,
// of which bwrap's own arguments and the jail's environment take some): spawn would fail with
// E2BIG or a TypeError, which is no agent's fault to read as a bug. bwrap takes at most 9000
// arguments, its own included. Checked before a jail starts.
import { JailPolicyError } from "./policy.js";

/** One argument's most bytes (MAX_ARG_STRLEN, less its NUL). */
const MAX_ARGUMENT_BYTES = 128 * 1024 - 1;
/** All arguments' most bytes: half of ARG_MAX leaves the rest to bwrap and the environment. */
const MAX_ARGV_BYTES = 1024 * 1024;
/** The most arguments: bwrap's 9000 (MAX_ARGS), less room for its own mounts and options. */
const MAX_ARGUMENTS = 8000;

export function checkArgv(argv: readonly string[]): void {
  const stdinHint = "pass large or binary input on stdin, or in a project file";
  // argv[0] is the program.
  if (argv.length - 1 > MAX_ARGUMENTS) {
    throw new JailPolicyError(
      `${argv.length - 1} arguments, over the ${MAX_ARGUMENTS} a jailed program can be given`,
      "pass a list of many items on stdin or in a project file",
    );
  }
  let total = 0;
  for (const argument of argv) {
    if (argument.includes("\0")) throw new JailPolicyError("an argument contains a NUL byte, which no program can take", stdinHint);
    const bytes = Buffer.byteLength(argument);
    if (bytes > MAX_ARGUMENT_BYTES) {
      throw new JailPolicyError(`an argument is ${bytes} bytes, over the ${MAX_ARGUMENT_BYTES} one argument can be`, stdinHint);
    }
    total += bytes + 1;
  }
  if (total > MAX_ARGV_BYTES) {
    throw new JailPolicyError(`the arguments are ${total} bytes, over the ${MAX_ARGV_BYTES} a program can be given`, stdinHint);
  }
}
