// scan_packages' text: packages under the environment they were found in, and, of a filter's
// findings, only the environments that hold one.
import { describe, expect, it } from "vitest";
import type { PackageIndex } from "../../src/pkglocal/package-index.js";
import { scanPackagesTool } from "../../src/pkglocal/scan-tool.js";

const tool = scanPackagesTool({} as PackageIndex, "/project");
const environments = [
  {
    language: "python" as const,
    kind: "venv",
    manager: "pip",
    path: ".venv",
    packages_dir: ".venv/lib/python3.12/site-packages",
    packages: 30,
  },
  { language: "node" as const, kind: "node_modules", manager: "npm", path: ".", packages_dir: "node_modules", packages: 200 },
];
const requests = {
  name: "requests",
  version: "2.31.0",
  language: "python" as const,
  manager: "pip",
  location: ".venv/lib/python3.12/site-packages/requests",
};

describe("scan_packages' text", () => {
  it("lists a filter's findings under the environments holding them, not the others", () => {
    expect(tool.render({ packages: [requests], total: 1, environments, missing: [], cached: false })).toBe(
      "1 package(s)\npython venv (pip): .venv/lib/python3.12/site-packages\n  requests 2.31.0",
    );
  });

  it("still names every environment looked in when the filter finds nothing", () => {
    expect(tool.render({ packages: [], total: 0, environments, missing: [], cached: false })).toBe(
      "0 package(s)\npython venv (pip): .venv/lib/python3.12/site-packages\nnode node_modules (npm): node_modules",
    );
  });
});
