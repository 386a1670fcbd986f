// move_items and delete_items (each off unless the config allows it). Both act on directory
// entries themselves: a symlink is moved or removed, never what it points to. Roots are never
// moved or deleted. A directory is deleted through descriptors, one level at a time, so a symlink
// swapped in below it is removed as a link, never followed.
import { lstat, readdir, rename, rmdir, unlink } from "node:fs/promises";
import { isInside } from "../files/path-inside.js";
import { withDirectory, type Confinement } from "./confine.js";
import { FsError } from "./errors.js";
import { eachItem } from "./items.js";

export interface MoveOperation {
  source: string;
  destination: string;
}

export interface MoveOutcome {
  source: string;
  destination: string;
  error?: string;
}

export interface DeleteOutcome {
  path: string;
  deleted?: boolean;
  error?: string;
}

async function moveOne(confinement: Confinement, operation: MoveOperation): Promise<MoveOutcome> {
  return confinement.hold(operation.source, "entry", (source) => {
    if (!source.exists) throw new FsError(`${operation.source}: does not exist`);
    if (confinement.isRoot(source.real)) throw new FsError(`${operation.source}: is a served root and cannot be moved`);
    confinement.refuseProtected(source.real, operation.source);
    return confinement.hold(
      operation.destination,
      "entry",
      async (destination) => {
        confinement.refuseProtected(destination.real, operation.destination);
        if (isInside(destination.real, source.real))
          throw new FsError(`${operation.source}: cannot be moved into itself (${operation.destination} is inside it)`);
        if (destination.exists)
          throw new FsError(`${operation.destination}: already exists`, "delete it first or choose another destination");
        await rename(source.at, destination.at);
        return { source: confinement.shown(source.real), destination: confinement.shown(destination.real) };
      },
      { create: "parents" },
    );
  });
}

export function moveItems(confinement: Confinement, operations: MoveOperation[], signal: AbortSignal): Promise<MoveOutcome[]> {
  return eachItem(
    operations,
    signal,
    (operation) => operation.source,
    (operation) => moveOne(confinement, operation),
    (operation, error) => ({ ...operation, error }),
  );
}

/** Removes the directory at `at` (a held path) with its content, never following a symlink inside. */
async function removeTree(at: string, input: string): Promise<void> {
  await withDirectory(at, input, async (dir) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) await removeTree(`${dir}/${entry.name}`, input);
      else await unlink(`${dir}/${entry.name}`);
    }
  });
  await rmdir(at);
}

async function deleteOne(confinement: Confinement, path: string, recursive: boolean): Promise<DeleteOutcome> {
  return confinement.hold(path, "entry", async (target) => {
    if (!target.exists) throw new FsError(`${path}: does not exist`);
    if (confinement.isRoot(target.real)) throw new FsError(`${path}: is a served root and cannot be deleted`);
    confinement.refuseProtected(target.real, path);
    const stats = await lstat(target.at);
    if (stats.isDirectory() && !recursive)
      throw new FsError(`${path}: is a directory`, "pass recursive: true to delete it with its content");
    if (stats.isDirectory()) await removeTree(target.at, path);
    else await unlink(target.at);
    return { path: confinement.shown(target.real), deleted: true };
  });
}

export function deleteItems(confinement: Confinement, paths: string[], recursive: boolean, signal: AbortSignal): Promise<DeleteOutcome[]> {
  return eachItem(
    paths,
    signal,
    (path) => path,
    (path) => deleteOne(confinement, path, recursive),
    (path, error) => ({ path, error }),
  );
}
