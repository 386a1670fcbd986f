// The nixpkgs tools registered on the server, by name: a new package tool gets a name none of them
// has, an uninstalled one is removed from the live server (the SDK then sends
// notifications/tools/list_changed), and nixpkgs_execute runs a package tool given its name.
import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { z } from "zod";
import type { Logger } from "../../log.js";
import { registerTool, type ToolDefinition } from "../../mcp/tool.js";
import type { PackageToolSpec } from "./package-tool.js";
import { toolNameFor } from "./tool-names.js";

export class NixpkgsToolSet {
  private readonly registered = new Map<string, RegisteredTool>();
  private readonly packages = new Map<string, PackageToolSpec>();
  /** While the set is hidden, the tools that stay listed. */
  private hiddenBut: readonly string[] | undefined;

  constructor(
    private readonly server: McpServer,
    private readonly log: Logger,
    private readonly definePackageTool: (tool: PackageToolSpec) => ToolDefinition,
  ) {}

  add<I extends z.ZodRawShape, O extends z.ZodRawShape>(tool: ToolDefinition<I, O>): void {
    const registered = registerTool(this.server, tool, this.log);
    this.registered.set(tool.name, registered);
    // A tool added while the set is hidden (an install that finishes after, the everyday tools once the index is ready) is hidden too.
    if (this.hiddenBut && !this.hiddenBut.includes(tool.name)) registered.disable();
  }

  /** A new description for a registered tool; clients hear of it through list_changed. */
  describe(name: string, description: string): void {
    const tool = this.registered.get(name);
    if (tool && tool.description !== description) tool.update({ description });
  }

  has(name: string): boolean {
    return this.registered.has(name);
  }

  /** The tool name for a package's attribute, unique among the tools registered. */
  freeName(attr: string): string {
    return toolNameFor(attr, new Set(this.registered.keys()));
  }

  addPackage(tool: PackageToolSpec): void {
    this.packages.set(tool.name, tool);
    this.add(this.definePackageTool(tool));
  }

  packageTool(name: string): PackageToolSpec | undefined {
    return this.packages.get(name);
  }

  packageTools(): PackageToolSpec[] {
    return [...this.packages.values()];
  }

  /**
   * Lists or hides every registered tool but `kept` (clients hear list_changed); the names that changed.
   * A hidden tool keeps its state (installed tools, descriptions) for when it is listed again.
   */
  setListed(listed: boolean, kept: readonly string[]): string[] {
    this.hiddenBut = listed ? undefined : kept;
    const changed = [...this.registered].filter(([name, tool]) => !kept.includes(name) && tool.enabled !== listed);
    for (const [, tool] of changed) listed ? tool.enable() : tool.disable();
    return changed.map(([name]) => name);
  }

  removePackage(name: string): void {
    this.packages.delete(name);
    this.registered.get(name)?.remove();
    this.registered.delete(name);
  }
}
