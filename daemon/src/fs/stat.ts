// stat_items: type, size, mode and times of each path, described as the entry itself (a symlink is
// reported as a symlink, with where it points); a glob given as a path, of each file it matches.
import { lstat, readlink } from "node:fs/promises";
import type { Confinement } from "./confine.js";
import { FsError, itemError } from "./errors.js";
import { matchingFiles } from "./glob-paths.js";
import { typeOf, type EntryType } from "./list.js";

export interface StatItem {
  path: string;
  type?: EntryType;
  size?: number;
  /** Permission bits in octal, e.g. "644". */
  mode?: string;
  mtime?: string;
  link_target?: string;
  error?: string;
}

export async function statItems(confinement: Confinement, asked: string[], signal: AbortSignal): Promise<StatItem[]> {
  const paths = (await Promise.all(asked.map((path) => matchingFiles(confinement, path, signal)))).flat();
  return Promise.all(
    paths.map(async (path): Promise<StatItem> => {
      try {
        return await confinement.hold(path, "entry", async (entry) => {
          if (!entry.exists) throw new FsError(`${path}: does not exist`);
          const stats = await lstat(entry.at);
          const type = typeOf(stats);
          const item: StatItem = {
            path: confinement.shown(entry.real),
            type,
            size: stats.size,
            mode: (stats.mode & 0o7777).toString(8),
            mtime: stats.mtime.toISOString(),
          };
          if (type === "symlink") item.link_target = await readlink(entry.at);
          return item;
        });
      } catch (error) {
        return { path, error: itemError(error, path) };
      }
    }),
  );
}
