// move_items and delete_items (each off unless the config allows it). Both act on directory
// entries themselves: a symlink is moved or removed, never what it points to. Roots are never
// moved or deleted.
import { lstat, mkdir, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import type { Confinement } from "./confine.js";
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
  const source = await confinement.resolve(operation.source, "entry");
  if (!source.exists) throw new FsError(`${operation.source}: does not exist`);
  if (confinement.isRoot(source.real)) throw new FsError(`${operation.source}: is a served root and cannot be moved`);
  const destination = await confinement.resolve(operation.destination, "entry");
  if (destination.exists) throw new FsError(`${operation.destination}: already exists`, "delete it first or choose another destination");
  await mkdir(dirname(destination.real), { recursive: true });
  await rename(source.real, destination.real);
  return { source: confinement.shown(source.real), destination: confinement.shown(destination.real) };
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

async function deleteOne(confinement: Confinement, path: string, recursive: boolean): Promise<DeleteOutcome> {
  const target = await confinement.resolve(path, "entry");
  if (!target.exists) throw new FsError(`${path}: does not exist`);
  if (confinement.isRoot(target.real)) throw new FsError(`${path}: is a served root and cannot be deleted`);
  const stats = await lstat(target.real);
  if (stats.isDirectory() && !recursive) throw new FsError(`${path}: is a directory`, "pass recursive: true to delete it with its content");
  await rm(target.real, { recursive: stats.isDirectory() });
  return { path: confinement.shown(target.real), deleted: true };
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
