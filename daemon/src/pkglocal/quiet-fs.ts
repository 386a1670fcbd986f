// File-system reads for scanning, quiet about absence only: an entry that is not there is simply not
// listed, while any other failure (permission denied, an I/O error) is thrown with the path it hit.
import { type Dirent, readdirSync, realpathSync, statSync } from "node:fs";
import { basename, dirname } from "node:path";
import { unlessAbsent } from "../files/absence.js";
import { isInside } from "../files/path-inside.js";
import { readPlantedText, type SmallFileOptions } from "../files/small-file.js";
import { storeDir } from "../files/store.js";

export const isDirectory = (path: string): boolean => unlessAbsent(() => statSync(path).isDirectory(), false);

export const listNames = (dir: string): string[] => unlessAbsent(() => readdirSync(dir), []);

export const listEntries = (dir: string): Dirent[] | undefined => unlessAbsent(() => readdirSync(dir, { withFileTypes: true }), undefined);

export const realpathOf = (path: string): string | undefined => unlessAbsent(() => realpathSync.native(path), undefined);

/** A Python distribution's own metadata directory (RECORD, METADATA), beside its code. */
export const DISTRIBUTION_INFO = /\.(dist-info|egg-info)$/;

/**
 * A file a scan reads (METADATA, RECORD, top_level.txt, package.json, a .pth, pyvenv.cfg), read only where it really
 * lies: in the directory it was found in, in the Nix store, or in a Python distribution's metadata directory (uv and
 * conda may link a wheel's files from their caches). What it says is shown as the package's: a planted
 * `top_level.txt -> /etc/shadow` beside a real dist-info had the host file's lines listed as import names.
 */
export function readScannedText(path: string, options: Omit<SmallFileOptions, "within"> = {}): string | undefined {
  const own = realpathOf(dirname(path));
  if (own === undefined) return undefined;
  const store = storeDir();
  const within = (real: string) => isInside(real, own) || isInside(real, store) || DISTRIBUTION_INFO.test(basename(dirname(real)));
  return readPlantedText(path, { ...options, within });
}
