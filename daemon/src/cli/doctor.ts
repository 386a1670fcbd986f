// `nixshed doctor`: what this machine can do for nixshed, each problem with a one-line fix.
import { APPARMOR_PROFILE, APPARMOR_PROFILE_PATH, appArmorRestrictsUserns } from "../jail/apparmor.js";
import { describeNetwork, reachesOut } from "../config/network.js";
import { probeHost } from "../jail/host.js";
import { JAIL_SCRATCH } from "../jail/policy.js";
import { runInJail } from "../jail/runner.js";
import type { LoadedConfig } from "../config/load.js";
import type { Config } from "../config/schema.js";
import { trustStatus } from "../config/trust.js";
import { discover } from "../discovery/discover.js";
import type { Discovery, RealisedAhead } from "../discovery/types.js";
import { NixpkgsError } from "../nixpkgs/errors.js";
import { Realiser } from "../nixpkgs/execute/realiser.js";
import { indexSources, planIndex } from "../nixpkgs/index/provider.js";
import { everydaySet } from "../nixpkgs/tools/everyday-tools.js";
import { installedTools } from "../nixpkgs/tools/installed.js";
import { commonHelp, EXIT, loadFromFlags, type Command } from "./command.js";

/** nixpkgs.network, and each package whose permissions say otherwise. */
function packagesNetwork(nixpkgs: Config["nixpkgs"]): string {
  const own = Object.entries(nixpkgs.permissions).filter(([, permission]) => permission.network !== undefined);
  return [
    describeNetwork(nixpkgs.network, Infinity),
    ...own.map(([attr, permission]) => `${attr}: ${describeNetwork(permission.network!, Infinity)}`),
  ].join("; ");
}

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** One line that fixes it, when not ok. */
  fix?: string;
}

/** Where nixpkgs search will get its index: the same plan the server follows. */
function indexCheck(loaded: LoadedConfig, discovery: Discovery): Check {
  const name = "nixpkgs index";
  try {
    const plan = planIndex(indexSources(loaded.config.nixpkgs, discovery.nixpkgs, loaded.cacheDir));
    if (plan.kind === "load") return { name, ok: true, detail: plan.path };
    if (plan.kind === "build") {
      const from = "file" in plan.input ? plan.input.file : plan.input.nixpkgs;
      return { name, ok: true, detail: `built in the background on first need from ${from}, cached at ${plan.path}` };
    }
    return {
      name,
      ok: false,
      detail: plan.reason,
      fix: 'nixshed index build --from packages.json.br --out FILE, then nixpkgs.index = "FILE"',
    };
  } catch (error) {
    if (error instanceof NixpkgsError) return { name, ok: false, detail: error.message, fix: error.hint };
    throw error;
  }
}

/** The packages the metadata realised ahead (the modules' prerealise), each as it stands here. */
function realisedAheadDetail(realiser: Realiser, ahead: RealisedAhead[]): string {
  const attrs = ahead.map((entry) => entry.attr);
  const used = attrs.filter((attr) => realiser.ahead(attr));
  const unused = attrs.filter((attr) => !used.includes(attr));
  const notHere = unused.length ? `${unused.join(", ")} (for another nixpkgs, permissions or mounts: realised again on first use)` : "";
  return [used.join(", "), notHere].filter(Boolean).join("; ") || "none";
}

/** The everyday and installed packages the realise cache holds, realised by earlier calls. */
function realisedInCache(realiser: Realiser, loaded: LoadedConfig): string[] {
  const hasNetwork = (attr: string) => reachesOut(realiser.permissions(attr).network);
  const everyday = everydaySet(loaded.config.nixpkgs, undefined, hasNetwork).groups.flatMap((group) => group.tools);
  const attrs = new Set([...everyday, ...installedTools(loaded.stateDir)].map((tool) => tool.attr));
  return [...attrs].filter((attr) => realiser.cached(attr));
}

/** Where nixpkgs_execute realises packages from, and which are realised already. */
function packageChecks(loaded: LoadedConfig, discovery: Discovery): Check[] {
  const realiser = new Realiser({
    config: loaded.config,
    discovered: discovery.nixpkgs,
    projectRoot: loaded.projectRoot,
    cacheDir: loaded.cacheDir,
  });
  const unavailable = realiser.unavailable();
  const source = unavailable ? undefined : realiser.source();
  const name = "nixpkgs_execute";
  return [
    source
      ? { name, ok: true, detail: `realises packages from ${"path" in source ? source.path : source.flake}` }
      : { name, ok: false, detail: `not offered: ${unavailable?.message}`, fix: unavailable?.hint },
    { name: "nixpkgs realised ahead", ok: true, detail: realisedAheadDetail(realiser, discovery.nixpkgs.realised ?? []) },
    { name: "nixpkgs realised in the cache", ok: true, detail: (source ? realisedInCache(realiser, loaded) : []).join(", ") || "none" },
  ];
}

export const doctorCommand: Command = {
  name: "doctor",
  summary: "check node, nix, bubblewrap, limits, config files and their trust, environments, the nixpkgs index and the packages realised",
  help: `Usage: nixshed doctor [--json] [flags]

  --json   print the checks as JSON

${commonHelp}`,
  options: { json: { type: "boolean" } },
  async run(values) {
    const { loaded, log } = loadFromFlags(values);
    const checks: Check[] = [];
    const major = Number(process.versions.node.split(".")[0]);
    checks.push({
      name: "node",
      ok: major >= 20,
      detail: process.version,
      fix: "install Node.js 20 or newer",
    });
    for (const file of loaded.files) {
      checks.push({ name: "config file", ok: true, detail: `${file.found ? "read" : "absent"}: ${file.path}` });
    }
    if (loaded.trust) checks.push({ name: "project config", ...trustStatus(loaded.trust) });
    const discovery = await discover(loaded, log);
    checks.push({
      name: "environments",
      ok: discovery.environments.size > 0,
      detail: [...discovery.environments.values()].map((env) => `${env.name} (${env.origin})`).join(", ") || "none discovered",
      fix: "run the nixshed Nix package (its sandboxes come with it), pass --metadata PATH, or link sandboxes into ~/.config/nixshed/sandboxes",
    });
    for (const env of discovery.environments.values()) {
      checks.push({ name: "network", ok: true, detail: `${env.name}: ${describeNetwork(env.network, Infinity)}` });
    }
    if (loaded.config.nixpkgs.enabled)
      checks.push({ name: "network", ok: true, detail: `nixpkgs packages: ${packagesNetwork(loaded.config.nixpkgs)}` });
    for (const note of discovery.notes) checks.push({ name: "discovery", ok: false, detail: note });
    if (loaded.config.nixpkgs.enabled) checks.push(indexCheck(loaded, discovery), ...packageChecks(loaded, discovery));
    const host = await probeHost([...discovery.environments.values()][0]?.artifact);
    checks.push(
      { name: "nix", ...host.nix, fix: "install Nix (https://nixos.org/download); artifacts are built with it" },
      { name: "bubblewrap", ...host.bwrap, fix: "install bubblewrap (the jails carry their own; this checks the kernel side)" },
      {
        name: "user namespaces",
        ...host.userNamespace,
        fix: "enable unprivileged user namespaces: sysctl kernel.unprivileged_userns_clone=1",
      },
      {
        name: "limits",
        ...host.limits,
        fix: host.limits.mechanism
          ? "as the detail says"
          : discovery.environments.size === 0
            ? "discover an environment (see environments): its bin/run says which limits it gets"
            : "rebuild the environment: its bin/run --limits did not answer",
      },
    );
    if (appArmorRestrictsUserns()) {
      checks.push({
        name: "apparmor",
        ok: false,
        detail:
          "AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns=1): the store's bwrap gets no user namespace",
        fix: `write this profile to ${APPARMOR_PROFILE_PATH}, then \`sudo apparmor_parser -r ${APPARMOR_PROFILE_PATH}\` (or lift the restriction for the whole machine: sudo sysctl kernel.apparmor_restrict_unprivileged_userns=0):\n${APPARMOR_PROFILE.replace(/^(?=.)/gm, "       ")}`,
      });
    }
    const first = [...discovery.environments.values()][0];
    if (first) {
      const policy = { cwd: JAIL_SCRATCH, network: false, timeoutMs: 30_000, maxOutputBytes: 4096 };
      const smoke = await runInJail({ artifact: first.artifact, policy, argv: ["true"] }).catch((error: Error) => ({
        exitCode: null,
        stderr: error.message,
      }));
      checks.push({
        name: "jail",
        ok: smoke.exitCode === 0,
        detail:
          smoke.exitCode === 0
            ? `${first.name}: bin/run -- true succeeded`
            : `${first.name}: ${smoke.stderr.trim() || `exit ${smoke.exitCode}`}`,
        fix: "run the artifact's bin/run by hand to see the full error",
      });
    }
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ checks }, null, 2)}\n`);
    } else {
      for (const check of checks) {
        process.stdout.write(`${check.ok ? "ok  " : "FAIL"} ${check.name}: ${check.detail}\n`);
        if (!check.ok && check.fix) process.stdout.write(`     fix: ${check.fix}\n`);
      }
    }
    return checks.some((check) => !check.ok) ? EXIT.failure : EXIT.ok;
  },
};
