// The installed tools, persisted in the state dir so they survive restarts. Writes are atomic.
//
// The file is data, not authority: each entry read back is checked against the shape
// nixpkgs_install_tool writes (a tool name it would give, an attribute path, a program name
// without a path) and skipped with a warning naming the file otherwise; what is skipped is moved,
// as it was, to a file beside it, so that nothing of the user's is lost. An entry names no path:
// its package is realised from the trusted nixpkgs like any other, and runs from the store.
import { mkdirSync, renameSync } from "node:fs";
import { appendToFile, replaceFile } from "../../files/planted-safe-write.js";
import { dirname, join } from "node:path";
import { z } from "zod";
import { ExpectedError } from "../../expected-error.js";
import { InvalidJson, readJsonFile } from "../../files/json-file.js";
import { UnreadableFile } from "../../files/small-file.js";
import { ATTR_PATH } from "../execute/realise.js";

/**
 * What the registry holds, at most: each tool is listed in tools/list on every turn, its default arguments in its
 * description. One install of eleven 1 MiB arguments made tools/list a line over the client's 10 MB limit: the
 * connection closed, and again after every restart.
 */
export const MAX_INSTALLED_TOOLS = 100;
const MAX_DEFAULT_ARGS = 32;
const MAX_DEFAULT_ARG_CHARS = 1024;
const defaultArgsSchema = z.array(z.string().max(MAX_DEFAULT_ARG_CHARS)).max(MAX_DEFAULT_ARGS);

/** Refuses default arguments the registry would not keep, in one line. */
export function refuseLongDefaultArgs(defaultArgs: readonly string[]): void {
  if (!defaultArgsSchema.safeParse(defaultArgs).success)
    throw new ExpectedError(
      `default_args holds at most ${MAX_DEFAULT_ARGS} arguments of ${MAX_DEFAULT_ARG_CHARS} characters each`,
      "Pass longer arguments in each call's args.",
    );
}

const installedToolSchema = z.object({
  name: z.string().regex(/^nixpkgs_[A-Za-z0-9_-]{1,56}$/, "not a tool name nixpkgs_install_tool gives"),
  attr: z.string().regex(ATTR_PATH, "not a nixpkgs attribute path"),
  program: z
    .string()
    .regex(/^[^/\0]+$/, "a program is a name in the package's bin/, not a path")
    .optional(),
  description: z.string().max(500).optional(),
  defaultArgs: defaultArgsSchema.optional(),
  timeoutSeconds: z.number().int().min(1).optional(),
});

export type InstalledTool = z.infer<typeof installedToolSchema>;

const registryFileSchema = z.object({ schemaVersion: z.literal(1), tools: z.array(z.unknown()) });
type RegistryFile = z.infer<typeof registryFileSchema>;

const registryPath = (stateDir: string) => join(stateDir, "nixpkgs", "installed-tools.json");

/**
 * The valid entries of the file, and the others as they were (each told to `warn`); none when it is absent. Throws
 * when it cannot be read.
 */
function readEntries(path: string, warn: (message: string) => void): { tools: InstalledTool[]; skipped: unknown[] } {
  const file = readJsonFile(path, registryFileSchema);
  const tools: InstalledTool[] = [];
  const skipped: unknown[] = [];
  (file?.tools ?? []).forEach((entry, index) => {
    const parsed = installedToolSchema.safeParse(entry);
    if (parsed.success) tools.push(parsed.data);
    else {
      warn(`${path}: tools[${index}] skipped (${issueLine(parsed.error)})`);
      skipped.push(entry);
    }
  });
  if (tools.length > MAX_INSTALLED_TOOLS) warn(`${path}: the tools past the first ${MAX_INSTALLED_TOOLS} are skipped`);
  return { tools: tools.slice(0, MAX_INSTALLED_TOOLS), skipped: [...skipped, ...tools.slice(MAX_INSTALLED_TOOLS)] };
}

/** The installed tools as the state dir holds them, changing nothing there (for doctor); none when the file cannot be read. */
export function installedTools(stateDir: string): InstalledTool[] {
  try {
    return readEntries(registryPath(stateDir), () => {}).tools;
  } catch {
    return [];
  }
}

export class InstalledRegistry {
  readonly path: string;
  private tools = new Map<string, InstalledTool>();
  /** Why the file on disk could not be read, when it exists but could not be: then it is never overwritten. */
  private unreadable: string | undefined;

  constructor(
    stateDir: string,
    private readonly warn: (message: string) => void,
  ) {
    this.path = registryPath(stateDir);
    this.load();
  }

  all(): InstalledTool[] {
    return [...this.tools.values()];
  }

  get(name: string): InstalledTool | undefined {
    return this.tools.get(name);
  }

  add(tool: InstalledTool): void {
    this.refuseIfUnreadable();
    if (!this.tools.has(tool.name) && this.tools.size >= MAX_INSTALLED_TOOLS)
      throw new ExpectedError(`${MAX_INSTALLED_TOOLS} tools are installed, the most kept`, "Remove one with nixpkgs_uninstall_tool first.");
    this.tools.set(tool.name, tool);
    this.save();
  }

  remove(name: string): void {
    this.refuseIfUnreadable();
    this.tools.delete(name);
    this.save();
  }

  private refuseIfUnreadable(): void {
    if (this.unreadable)
      throw new ExpectedError(`${this.unreadable} at startup, so it is left as it is`, "Fix the file's permissions and restart nixshed.");
  }

  private load(): void {
    try {
      const { tools, skipped } = readEntries(this.path, this.warn);
      for (const tool of tools) this.tools.set(tool.name, tool);
      if (skipped.length > 0) this.setAside(skipped);
    } catch (error) {
      // One too large to read (over 16 MiB) is set aside the same way.
      if (error instanceof InvalidJson || (error instanceof UnreadableFile && error.reason.startsWith("over "))) {
        // Keep the unreadable file for the user; start empty rather than refuse to serve.
        this.warn(`${error.message}; installed tools are not restored (the file is kept as ${this.path}.unreadable)`);
        renameSync(this.path, `${this.path}.unreadable`);
        return;
      }
      // Not absent, yet unreadable (permissions, I/O): serve without the tools, and never overwrite the file.
      this.unreadable = `${this.path}: unreadable (${(error as Error).message})`;
      this.warn(`${this.unreadable}; installed tools are not restored`);
    }
  }

  /**
   * Moves the entries skipped to `<file>.skipped`, one JSON line each, added to any there before, so that the next
   * save, which writes only the tools restored, loses none of them. Where that cannot be written, the file is left
   * as it is, and never overwritten.
   */
  private setAside(skipped: unknown[]): void {
    const aside = `${this.path}.skipped`;
    try {
      appendToFile(aside, skipped.map((entry) => `${JSON.stringify(entry)}\n`).join(""));
      this.save();
    } catch (error) {
      this.unreadable = `${this.path}: its skipped entries could not be moved to ${aside} (${(error as Error).message})`;
      this.warn(`${this.unreadable}; the file is left as it is`);
      return;
    }
    this.warn(`${this.path}: ${skipped.length} skipped ${skipped.length === 1 ? "entry" : "entries"} moved, as they were, to ${aside}`);
  }

  private save(): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const file: RegistryFile = { schemaVersion: 1, tools: this.all() };
    replaceFile(this.path, `${JSON.stringify(file, null, 2)}\n`);
  }
}

/** A schema error as one line: where and what. */
function issueLine(error: z.ZodError): string {
  const issue = error.issues[0]!;
  return `${issue.path.join(".") || "(root)"}: ${issue.message}`;
}
