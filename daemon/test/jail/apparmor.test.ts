// doctor's AppArmor check: it reads Ubuntu's restriction switch, and the profile it prints is the
// README's, word for word.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { APPARMOR_PROFILE, appArmorRestrictsUserns } from "../../src/jail/apparmor.js";

const sysctl = (value: string) => {
  const path = join(mkdtempSync(join(tmpdir(), "apparmor-")), "apparmor_restrict_unprivileged_userns");
  writeFileSync(path, value);
  return path;
};

describe("the AppArmor restriction on user namespaces", () => {
  it("is seen when the switch reads 1, and not when it reads 0 or is absent (other distributions)", () => {
    expect(appArmorRestrictsUserns(sysctl("1\n"))).toBe(true);
    expect(appArmorRestrictsUserns(sysctl("0\n"))).toBe(false);
    expect(appArmorRestrictsUserns("/nonexistent/apparmor_restrict_unprivileged_userns")).toBe(false);
  });

  it("is fixed by the profile the README shows", () => {
    const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
    expect(readme).toContain(APPARMOR_PROFILE.replace(/^(?=.)/gm, "  "));
  });
});
