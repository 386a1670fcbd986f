// Which program of a package runs: the one asked for, else meta.mainProgram, else the one named
// like the package, else the only one, else the one the arguments start with (coreutils' "wc -l f");
// otherwise the caller must choose, from the list given.
import { NixpkgsError } from "../errors.js";
import type { Realised } from "./realise.js";

/** The program, and the arguments it gets: without the first when that named the program. */
export interface ChosenProgram {
  program: string;
  args: string[];
}

export function chooseProgram(attr: string, realised: Realised, requested?: string, args: string[] = []): ChosenProgram {
  const { programs } = realised;
  const listing = () => `${programs.slice(0, 200).join(", ")}${programs.length > 200 ? `, … (${programs.length} in all)` : ""}`;
  if (requested) {
    if (programs.includes(requested)) return { program: requested, args };
    throw new NixpkgsError(
      `${attr} has no program '${requested}'`,
      programs.length ? `Its programs: ${listing()}.` : `${attr} installs no programs in bin/.`,
    );
  }
  const main =
    realised.mainProgram && programs.includes(realised.mainProgram)
      ? realised.mainProgram
      : programs.includes(realised.pname)
        ? realised.pname
        : programs.length === 1
          ? programs[0]
          : undefined;
  if (main) return { program: main, args };
  if (args[0] !== undefined && programs.includes(args[0])) return { program: args[0], args: args.slice(1) };
  if (programs.length === 0)
    throw new NixpkgsError(`${attr} installs no programs in bin/`, "It may be a library: use it from a sandbox instead.");
  throw new NixpkgsError(`${attr} has several programs and no main one`, `Pass program, one of: ${listing()}.`);
}
