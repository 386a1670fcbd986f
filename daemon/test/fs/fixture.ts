// A throwaway project directory for the fs tests, with a Confinement over it.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Confinement, makeRoot } from "../../src/fs/confine.js";

export interface Fixture {
  base: string;
  root: string;
  confinement: Confinement;
  write(path: string, content: string | Buffer): string;
}

/** `files` maps paths (relative to the root) to content. */
export async function fixture(files: Record<string, string | Buffer> = {}): Promise<Fixture> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-fs-")));
  const root = join(base, "root");
  mkdirSync(root);
  const write = (path: string, content: string | Buffer) => {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
    return full;
  };
  for (const [path, content] of Object.entries(files)) write(path, content);
  return { base, root, confinement: new Confinement(await makeRoot(root)), write };
}

export const never = new AbortController().signal;
