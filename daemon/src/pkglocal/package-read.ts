// read_package's two answers: a package at a glance (version, README and entry heads, its file
// tree) or one of its files, paged; every path confined to the package.
import { normalize } from "node:path";
import { readTextPage, type NotRegular, type Outside, type Page } from "../files/text-page.js";
import { PkgLocalError } from "./errors.js";
import { leadsOutside, resolveInPackage } from "./package-confine.js";
import { DISTRIBUTION_INFO, isDirectory } from "./quiet-fs.js";
import { entryExcerpt, readmeExcerpt, type Excerpt } from "./package-summary.js";
import { packageTree, type PackageTree } from "./package-tree.js";
import { shownPath } from "./project-path.js";
import type { PackageRecord } from "./types.js";

export interface PackageOverview {
  readme?: Excerpt;
  entryFile?: Excerpt;
  tree: PackageTree;
}

export async function describePackage(pkg: PackageRecord, maxTreeEntries: number): Promise<PackageOverview> {
  const [readme, entryFile] = await Promise.all([readmeExcerpt(pkg), entryExcerpt(pkg)]);
  return { readme, entryFile, tree: packageTree(pkg, maxTreeEntries) };
}

export interface FileRequest {
  path: string;
  startLine?: number;
  endLine?: number;
  maxBytes: number;
  /** What one answer shows (text-page.ts). */
  pageBytes?: number;
  signal?: AbortSignal;
}

/**
 * The files below a directory of the package (confined to it as a file read is), or undefined when
 * `path` is no directory. The package's own root ("", ".") is its whole tree.
 */
export function packageDirectory(pkg: PackageRecord, path: string, maxFiles: number): PackageTree | undefined {
  const under = normalize(path).replace(/\/+$/, "");
  if (under === "." || under === "") return packageTree(pkg, maxFiles);
  return isDirectory(resolveInPackage(pkg, under).real) ? packageTree(pkg, maxFiles, under) : undefined;
}

export async function readPackageFile(pkg: PackageRecord, request: FileRequest): Promise<Page> {
  if (request.startLine !== undefined && request.endLine !== undefined && request.endLine < request.startLine) {
    throw new PkgLocalError(`end_line ${request.endLine} is before start_line ${request.startLine}`);
  }
  const { real, within } = resolveInPackage(pkg, request.path);
  let page: Page | NotRegular | Outside;
  try {
    page = await readTextPage(real, request, within);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EACCES") throw new PkgLocalError(`${request.path}: permission denied`);
    throw error;
  }
  // A directory is listed before it would be read (packageDirectory); one only now is a race.
  if (page === "directory") throw new PkgLocalError(`${request.path}: is a directory`, "read_package with it as path lists its files");
  if (page === "special") throw new PkgLocalError(`${request.path}: not a regular file`, "only regular files can be read");
  if (page === "outside") throw leadsOutside(pkg, request.path);
  const start = request.startLine ?? 1;
  if (!page.binary && page.totalLines !== undefined && start > Math.max(page.totalLines, 1)) {
    throw new PkgLocalError(`${request.path}: start_line ${start} is past the end (${page.totalLines} lines)`);
  }
  return page;
}

/** Where a package lives, relative to the project when inside it. */
export function packageLocation(pkg: PackageRecord, projectRoot: string): string {
  const member = pkg.members?.find((each) => !DISTRIBUTION_INFO.test(each)) ?? pkg.members?.[0];
  return shownPath(member ? `${pkg.root}/${member}` : pkg.root, projectRoot);
}
