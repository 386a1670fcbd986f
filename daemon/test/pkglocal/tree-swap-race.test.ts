// The tree read_package lists, raced: a jail that writes the project swaps a package's directory for a
// symlink to a host directory after the walk checked it and before it lists it. The swap is made here
// in that window (right after the directory's real path is taken): the listing must not show the host's
// names or sizes.
import { mkdirSync, mkdtempSync, realpathSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, expect, it, vi } from "vitest";
import { PackageIndex } from "../../src/pkglocal/package-index.js";
import { packageTree } from "../../src/pkglocal/package-tree.js";

/** Run once, right after the real path of a path ending so is taken. */
let inTheWindow: { after: string; swap: () => void } | undefined;
vi.mock("../../src/pkglocal/quiet-fs.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../src/pkglocal/quiet-fs.js")>();
  return {
    ...actual,
    realpathOf: (path: string) => {
      const real = actual.realpathOf(path);
      if (inTheWindow && path.endsWith(inTheWindow.after)) {
        const { swap } = inTheWindow;
        inTheWindow = undefined;
        swap();
      }
      return real;
    },
  };
});
afterEach(() => {
  inTheWindow = undefined;
});

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

it("a directory swapped for a symlink to the host after its check lists nothing of the host", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "pkglocal-tree-race-")));
  const host = realpathSync(mkdtempSync(join(tmpdir(), "pkglocal-tree-host-")));
  const pkg = join(root, "node_modules/raced");
  write(join(pkg, "package.json"), JSON.stringify({ name: "raced", version: "1.0.0" }));
  write(join(pkg, "lib/util.js"), "export {};\n");
  write(join(host, "id_rsa.js"), "HOST SECRET\n");
  const index = new PackageIndex({ projectRoot: root, cacheDir: join(root, "cache"), env: {}, pythonEnvs: [], nodeModules: [] });
  const record = index.scan().packages.find((each) => each.name === "raced")!;
  inTheWindow = {
    after: "/lib",
    swap: () => {
      renameSync(join(pkg, "lib"), join(pkg, "lib.moved"));
      symlinkSync(host, join(pkg, "lib"));
    },
  };
  const tree = packageTree(record, 50, "lib");
  expect(tree.files.map((file) => file.path)).not.toContain("lib/id_rsa.js");
  expect(tree.total).toBe(0);
});
