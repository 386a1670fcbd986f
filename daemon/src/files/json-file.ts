// JSON that another program wrote (a metadata file, a cache entry, a package manifest, a message),
// read through a zod schema: the value's type is the schema's, and a file that is not what the
// schema says is an InvalidJson naming the file and the first problem, never a value cast on trust.
import type { z } from "zod";
import { readSmallText } from "./small-file.js";

export class InvalidJson extends Error {}

/** `text` parsed and checked against `schema`; `what` names its origin in the error (a path, "rg output"). */
export function parseJson<S extends z.ZodType>(text: string, schema: S, what: string): z.infer<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidJson(`${what}: not JSON (${(error as Error).message})`);
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new InvalidJson(`${what}: ${issue.path.join(".") || "(top level)"}: ${issue.message}`);
}

/**
 * The file at `path` through `schema`; undefined when there is no such file. Read errors are thrown as
 * `read` throws them (small-file.ts: readPlantedText for a file a project may have planted).
 */
export function readJsonFile<S extends z.ZodType>(path: string, schema: S, read = readSmallText): z.infer<S> | undefined {
  const text = read(path);
  return text === undefined ? undefined : parseJson(text, schema, path);
}
