// The installed tools, persisted in the state dir so they survive restarts. Writes are atomic.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export interface InstalledTool {
  name: string;
  attr: string;
  program?: string;
  description?: string;
  defaultArgs?: string[];
  timeoutSeconds?: number;
}

interface RegistryFile {
  schemaVersion: 1;
  tools: InstalledTool[];
}

export class InstalledRegistry {
  readonly path: string;
  private tools = new Map<string, InstalledTool>();

  constructor(stateDir: string, private readonly warn: (message: string) => void) {
    this.path = join(stateDir, "nixpkgs", "installed-tools.json");
    this.load();
  }

  all(): InstalledTool[] {
    return [...this.tools.values()];
  }

  get(name: string): InstalledTool | undefined {
    return this.tools.get(name);
  }

  add(tool: InstalledTool): void {
    this.tools.set(tool.name, tool);
    this.save();
  }

  remove(name: string): void {
    this.tools.delete(name);
    this.save();
  }

  private load(): void {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch {
      return; // Nothing installed yet.
    }
    try {
      const file = JSON.parse(text) as RegistryFile;
      for (const tool of file.tools ?? []) {
        if (typeof tool.name === "string" && typeof tool.attr === "string") this.tools.set(tool.name, tool);
      }
    } catch (error) {
      // Keep the unreadable file for the user; start empty rather than refuse to serve.
      this.warn(`${this.path}: unreadable (${(error as Error).message}); installed tools are not restored`);
      renameSync(this.path, `${this.path}.unreadable`);
    }
  }

  private save(): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const file: RegistryFile = { schemaVersion: 1, tools: this.all() };
    writeFileSync(`${this.path}.tmp`, `${JSON.stringify(file, null, 2)}\n`);
    renameSync(`${this.path}.tmp`, this.path);
  }
}
