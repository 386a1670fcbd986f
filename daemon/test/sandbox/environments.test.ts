import { describe, expect, it } from "vitest";
import { describeEnvironments } from "../../src/sandbox/environments.js";
import { environment } from "../sessions/host-launcher.js";

const python = { ...environment("python", "python"), description: "Python 3", projectAccess: "ro" as const };
const shell = { ...environment("shell", "bash"), description: "bash", projectAccess: "ro" as const };

describe("describeEnvironments", () => {
  it("says the settings every environment shares once, in the heading", () => {
    expect(describeEnvironments([python, shell], "rw")).toBe(
      "Environments (all /project ro, offline, 30 s, 512 MB):\n- python: Python 3 (python)\n- shell: bash (bash)",
    );
  });

  it("keeps on each line the settings that differ", () => {
    const online = { ...shell, network: ["pypi.org"], limits: { ...shell.limits, timeoutSeconds: 120 } };
    expect(describeEnvironments([python, online], "rw")).toBe(
      "Environments (all /project ro, 512 MB):\n- python: Python 3 (python, offline, 30 s)\n- shell: bash (bash, network to pypi.org, 120 s)",
    );
  });

  it("caps project access at what the config grants", () => {
    const rw = { ...shell, projectAccess: "rw" as const };
    expect(describeEnvironments([python, rw], "ro")).toContain("(all /project ro,");
    expect(describeEnvironments([python, rw], "none")).toContain("(all /project absent,");
  });

  it("puts one environment's settings on its own line", () => {
    expect(describeEnvironments([python], "rw")).toBe("Environments:\n- python: Python 3 (python, /project ro, offline, 30 s, 512 MB)");
  });
});
