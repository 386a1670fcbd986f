// This machine as a Nix system string, the default platform filter of searches.
import { arch, platform } from "node:os";

const ARCH: Record<string, string> = { x64: "x86_64", arm64: "aarch64", ia32: "i686", riscv64: "riscv64", ppc64: "powerpc64le" };
const KERNEL: Record<string, string> = { linux: "linux", darwin: "darwin", freebsd: "freebsd" };

export function hostSystem(): string {
  return `${ARCH[arch()] ?? arch()}-${KERNEL[platform()] ?? platform()}`;
}
