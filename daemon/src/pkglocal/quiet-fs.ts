// File-system reads for scanning, quiet about absence only: an entry that is not there is simply not
// listed, while any other failure (permission denied, an I/O error) is thrown with the path it hit.
import { type Dirent, readdirSync, realpathSync, statSync } from "node:fs";
import { unlessAbsent } from "../files/absence.js";

export const isDirectory = (path: string): boolean => unlessAbsent(() => statSync(path).isDirectory(), false);

export const listNames = (dir: string): string[] => unlessAbsent(() => readdirSync(dir), []);

export const listEntries = (dir: string): Dirent[] | undefined => unlessAbsent(() => readdirSync(dir, { withFileTypes: true }), undefined);

export const realpathOf = (path: string): string | undefined => unlessAbsent(() => realpathSync.native(path), undefined);
