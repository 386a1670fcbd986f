// Absence is checked as absence: only "not there" gives the fallback; a real failure is reported.
import { describe, expect, it } from "vitest";
import { isAbsent, unlessAbsent } from "../../src/files/absence.js";

const failing = (code: string) => () => {
  throw Object.assign(new Error(`${code}: failed`), { code });
};

describe("unlessAbsent", () => {
  it.each(["ENOENT", "ENOTDIR", "EISDIR"])("gives the fallback for %s", (code) => {
    expect(isAbsent(Object.assign(new Error(), { code }))).toBe(true);
    expect(unlessAbsent(failing(code), "fallback")).toBe("fallback");
  });

  it.each(["EACCES", "EIO", "ELOOP", "EMFILE"])("throws %s: a real failure is not absence", (code) => {
    expect(() => unlessAbsent(failing(code), "fallback")).toThrow(code);
  });
});
