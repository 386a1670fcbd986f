// Ubuntu 23.10 and later restrict unprivileged user namespaces through AppArmor: only programs with
// a profile that allows `userns` may create one. Ubuntu's /usr/bin/bwrap has such a profile; the
// store's bwrap (every jail's) does not, so each jail fails with "setting up uid map: Permission
// denied". The fix is this profile (the README shows the same text; a test keeps them equal).
import { readFileSync } from "node:fs";
import { unlessAbsent } from "../files/absence.js";

export const APPARMOR_PROFILE_PATH = "/etc/apparmor.d/nixshed-bwrap";

export const APPARMOR_PROFILE = `abi <abi/4.0>,
include <tunables/global>

profile nixshed-bwrap /nix/store/*/bin/bwrap flags=(unconfined) {
  userns,
}`;

const RESTRICTION = "/proc/sys/kernel/apparmor_restrict_unprivileged_userns";

/** Whether AppArmor restricts unprivileged user namespaces here (the sysctl reads 1); absent elsewhere. */
export function appArmorRestrictsUserns(sysctl = RESTRICTION): boolean {
  return unlessAbsent(() => readFileSync(sysctl, "utf8").trim(), "0") === "1";
}
