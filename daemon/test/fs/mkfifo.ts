// Node has no mkfifo; the coreutils one is everywhere the tests run.
import { execFileSync } from "node:child_process";

export function mkfifoSync(path: string): void {
  execFileSync("mkfifo", [path]);
}
