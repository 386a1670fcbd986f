// The discovered environments as the sandbox tools present them: picked by name with an error that
// lists the valid ones, and described compactly for a tool description.
import { cappedAccess } from "../jail/policy.js";
import { describeNetwork } from "../config/network.js";
import type { ProjectAccess } from "../config/schema.js";
import type { Environment } from "../discovery/types.js";
import { SandboxError } from "./errors.js";

/** The named environment; with no name, the only one there is. */
export function pickEnvironment(environments: Map<string, Environment>, name: string | undefined): Environment {
  const env = name === undefined && environments.size === 1 ? [...environments.values()][0] : environments.get(name ?? "");
  if (env) return env;
  const valid = [...environments.keys()];
  throw new SandboxError(
    name === undefined ? "no env given: name the environment to run in" : `unknown environment '${name}'`,
    valid.length > 0 ? `Valid environments: ${valid.join(", ")}.` : "No environment is discovered; run `nixshed doctor`.",
  );
}

const MAIN_PACKAGES = 6;

/** One line per environment: name, description, main packages, project access, network and limits. */
export function describeEnvironment(env: Environment, cap: ProjectAccess): string {
  // The description names what matters; the package list only when there is none.
  const packages = env.packages.map((p) => p.name);
  const shown = packages.slice(0, MAIN_PACKAGES).join(", ") + (packages.length > MAIN_PACKAGES ? ", …" : "");
  const access = cappedAccess(env.projectAccess, cap);
  const facts = [
    env.interpreter,
    `/project ${access === "none" ? "absent" : access}`,
    describeNetwork(env.network),
    `${env.limits.timeoutSeconds} s`,
    `${env.limits.memoryMb} MB`,
  ];
  return `- ${env.name}: ${env.description || shown || "(no description)"} (${facts.join(", ")})`;
}
