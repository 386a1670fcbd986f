// Which program of a package runs: the one asked for, else meta.mainProgram, else the one named
// like the package, else the only one; otherwise the caller must choose, from the list given.
import { NixpkgsError } from "../errors.js";
import type { Realised } from "./realise.js";

export function chooseProgram(attr: string, realised: Realised, requested?: string): string {
  const { programs } = realised;
  const listing = () => `${programs.slice(0, 200).join(", ")}${programs.length > 200 ? `, … (${programs.length} in all)` : ""}`;
  if (requested) {
    if (programs.includes(requested)) return requested;
    throw new NixpkgsError(
      `${attr} has no program '${requested}'`,
      programs.length ? `Its programs: ${listing()}.` : `${attr} installs no programs in bin/.`,
    );
  }
  if (realised.mainProgram && programs.includes(realised.mainProgram)) return realised.mainProgram;
  if (programs.includes(realised.pname)) return realised.pname;
  if (programs.length === 1) return programs[0]!;
  if (programs.length === 0)
    throw new NixpkgsError(`${attr} installs no programs in bin/`, "It may be a library: use it from a sandbox instead.");
  throw new NixpkgsError(`${attr} has several programs and no main one`, `Pass program, one of: ${listing()}.`);
}
