// package.json as pkg-local reads it: any object, its fields checked where they are used (a package
// may put anything in them). One that is missing or not a JSON object is no package to list.
import { join } from "node:path";
import { z } from "zod";
import { InvalidJson, readJsonFile } from "../../files/json-file.js";
import { readScannedText } from "../quiet-fs.js";

const packageJsonSchema = z.object({
  name: z.unknown().optional(),
  version: z.unknown().optional(),
  description: z.unknown().optional(),
  main: z.unknown().optional(),
  module: z.unknown().optional(),
  types: z.unknown().optional(),
  typings: z.unknown().optional(),
  exports: z.unknown().optional(),
  workspaces: z.unknown().optional(),
});
export type PackageJson = z.infer<typeof packageJsonSchema>;

/** The package.json of `dir`; undefined when there is none or it is not a JSON object. */
export function readPackageJson(dir: string): PackageJson | undefined {
  try {
    return readJsonFile(join(dir, "package.json"), packageJsonSchema, readScannedText);
  } catch (error) {
    if (error instanceof InvalidJson) return undefined;
    throw error;
  }
}
