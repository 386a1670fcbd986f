// read_package: a package at a glance, or one of its files paged; nothing outside the package.
import { z } from "zod";
import type { Config } from "../config/schema.js";
import { defineTool, ToolError } from "../mcp/tool.js";
import { findPackage } from "./lookup.js";
import type { PackageIndex } from "./package-index.js";
import { describePackage, packageDirectory, packageLocation, readPackageFile } from "./package-read.js";
import type { PackageTree } from "./package-tree.js";
import { entryShape } from "./scan-tool.js";
import { noEnvironment } from "./tool-support.js";

const excerptShape = z.object({ path: z.string(), text: z.string(), more: z.boolean() });

/** `pageBytes`: what one answer shows, read at a time of a file larger than max_read_bytes (text-page.ts). */
export function readPackageTool(index: PackageIndex, projectRoot: string, settings: Config["pkglocal"], pageBytes: number) {
  return defineTool({
    name: "read_package",
    title: "Read an installed package",
    description:
      "An installed package: without path, version, README and entry-file heads and file tree; with path, that file, paged by lines.",
    input: {
      package: z.string().min(1).describe("Package name, import name, or name@version"),
      path: z.string().optional().describe("A file or directory of the package, as its tree lists it"),
      start_line: z.number().int().min(1).optional().describe("First line, 1-based (with path)"),
      end_line: z.number().int().min(1).optional().describe("Last line, inclusive (with path)"),
    },
    output: {
      name: z.string(),
      version: z.string(),
      language: z.enum(["python", "node"]),
      location: z.string(),
      summary: z.string().optional(),
      import_names: z.array(z.string()).optional(),
      entry: entryShape,
      editable: z.string().optional(),
      other_versions: z.array(z.string()).optional(),
      readme: excerptShape.optional(),
      entry_file: excerptShape.optional(),
      tree: z
        .object({
          files: z.array(z.object({ path: z.string(), bytes: z.number() })),
          counts: z.record(z.string(), z.number()),
          total: z.number(),
          other: z.number(),
          incomplete: z.boolean(),
        })
        .optional(),
      path: z.string().optional(),
      content: z.string().optional(),
      start_line: z.number().optional(),
      end_line: z.number().optional(),
      total_lines: z.number().optional(),
      next_start_line: z.number().optional(),
      line_cut: z.boolean().optional(),
      binary: z.object({ size: z.number() }).optional(),
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async run(args, call) {
      const found = await index.scan();
      if (found.environments.length === 0) {
        throw noEnvironment(["python", "node"], found);
      }
      const lookup = findPackage(found.packages, args.package);
      const pkg = lookup.found;
      if (!pkg) {
        throw new ToolError(
          `${args.package}: not installed in this project`,
          lookup.closest.length > 0 ? `closest: ${lookup.closest.join(", ")}` : "scan_packages lists what is installed",
        );
      }
      const base = {
        name: pkg.name,
        version: pkg.version,
        language: pkg.language,
        location: packageLocation(pkg, projectRoot),
      };
      const paging = args.start_line !== undefined || args.end_line !== undefined;
      if (args.path === undefined) {
        if (paging) throw new ToolError("start_line and end_line page a file: give its path too");
        const overview = await describePackage(pkg, settings.max_tree_entries);
        return {
          ...base,
          summary: pkg.summary,
          import_names: pkg.importNames,
          entry: pkg.entry,
          editable: pkg.editable,
          other_versions: lookup.others.length > 0 ? lookup.others.map((other) => `${other.name}@${other.version}`) : undefined,
          readme: overview.readme,
          entry_file: overview.entryFile,
          tree: overview.tree,
        };
      }
      const path = args.path;
      const directory = packageDirectory(pkg, path, settings.max_tree_entries);
      if (directory) {
        if (paging) throw new ToolError(`${path}: is a directory; start_line and end_line page a file`);
        return { ...base, path, tree: directory };
      }
      const page = await readPackageFile(pkg, {
        path,
        startLine: args.start_line,
        endLine: args.end_line,
        maxBytes: settings.max_read_bytes,
        pageBytes,
        signal: call.signal,
      });
      if (page.binary) return { ...base, path, binary: { size: page.size } };
      return {
        ...base,
        path,
        content: page.text,
        start_line: page.startLine,
        end_line: page.endLine,
        total_lines: page.totalLines,
        next_start_line: page.nextStartLine,
        line_cut: page.lineCut,
      };
    },
    render(result) {
      const head = `${result.name} ${result.version} (${result.language}) ${result.location}`;
      if (result.path !== undefined && result.tree) return `${head}\n${treeLines(result.tree, result.path).join("\n")}`;
      if (result.path !== undefined) {
        if (result.binary) return `${head}\n${result.path}: binary file, ${result.binary.size} bytes`;
        const range = `${result.path} lines ${result.start_line}-${result.end_line}${result.total_lines !== undefined ? ` of ${result.total_lines}` : ""}`;
        const more = result.next_start_line ? [`[more: start_line ${result.next_start_line}]`] : [];
        // The file's lines as a part of their own: cut, the marker pages the package file by its own line numbers.
        const call = `read_package ${JSON.stringify({ package: `${result.name}@${result.version}`, path: result.path })}`;
        const file = { call, firstLine: result.start_line ?? 1, totalLines: result.total_lines };
        return [`${head}\n${range}${result.line_cut ? " (line cut)" : ""}`, { text: result.content ?? "", file }, ...more];
      }
      const parts = [head];
      if (result.summary) parts.push(result.summary);
      if (result.import_names?.length) parts.push(`import: ${result.import_names.join(", ")}`);
      if (result.editable) parts.push(`editable install from ${result.editable}`);
      if (result.other_versions) parts.push(`also installed: ${result.other_versions.join(", ")}`);
      for (const [label, excerpt] of [
        ["README", result.readme],
        ["entry", result.entry_file],
      ] as const) {
        if (excerpt) parts.push(`--- ${label}: ${excerpt.path}${excerpt.more ? " (head)" : ""}\n${excerpt.text}`);
      }
      if (result.tree) parts.push(...treeLines(result.tree));
      return parts.join("\n");
    },
  });
}

/** A file tree: what it counts, the files listed, and how to list the ones left out (a directory at a time). */
function treeLines(tree: PackageTree, under?: string): string[] {
  const counts = Object.entries(tree.counts)
    .map(([kind, count]) => `${kind} ${count}`)
    .join(", ");
  const shown = tree.files.length < tree.total ? `, ${tree.files.length} listed` : "";
  const lines = [
    `--- files${under ? ` in ${under}` : ""}: ${tree.total}${tree.incomplete ? "+" : ""} (${counts || "none"}${shown}; ${tree.other} other)`,
  ];
  if (tree.files.length) lines.push(tree.files.map((file) => `${file.path}  ${file.bytes}`).join("\n"));
  if (tree.files.length < tree.total)
    lines.push(`[… ${tree.total - tree.files.length} more: read_package with a directory as path lists its files]`);
  return lines;
}
