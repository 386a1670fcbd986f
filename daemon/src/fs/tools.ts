// Registers the filesystem tools. Read-only mode does not register the writing tools at all, and
// move_items / delete_items exist only when the config allows them.
import { resolve } from "node:path";
import { z } from "zod";
import type { Capability, ServerContext } from "../capability.js";
import type { Config } from "../config/schema.js";
import { cappedAccess } from "../jail/policy.js";
import type { ResultStore } from "../mcp/results.js";
import { markToolsOff } from "../mcp/tool-calls.js";
import { textRoom, type TextPart } from "../mcp/response-budget.js";
import { defineTool, registerTool, ToolError, type ToolCallContext, type ToolDefinition } from "../mcp/tool.js";
import { Confinement, makeRoot, type Root } from "./confine.js";
import { editFile } from "./edit.js";
import { errnoOf } from "./errors.js";
import { batchResult, failedTally, itemLines } from "./items.js";
import { listFiles, listingLine } from "./list.js";
import { deleteItems, moveItems } from "./manage.js";
import { editSpellings, listForms, oneEdit, oneItem, onePath, readForms, searchForms } from "./argument-forms.js";
import { cutLineHint, readContent } from "./read.js";
import { jailed } from "./ripgrep.js";
import { cutLineNote, MAX_CONTEXT_LINES, matchLines, resultsWithin, searchFiles } from "./search.js";
import { statItems } from "./stat.js";
import { createDirectories, writeContent } from "./write.js";
import { oneLine } from "./one-line.js";

const READS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const pathField = z.string().describe("Project-relative, /project/..., or in a served root");
const pathsField = z.array(pathField).min(1).max(100);
const entryType = z.enum(["file", "directory", "symlink", "other"]);
const errorField = z.string().optional().describe("Why this item failed (the others are unaffected)");

/** Roots that exist; the rest are logged and skipped rather than failing the server. */
async function existingRoots(paths: string[], ctx: ServerContext): Promise<Root[]> {
  const roots = await Promise.all(
    paths.map((path) =>
      makeRoot(resolve(ctx.projectRoot, path)).catch((error: Error) => {
        ctx.log.warn(`fs: skipping root: ${error.message}`);
        return undefined;
      }),
    ),
  );
  return roots.filter((root): root is Root => root !== undefined);
}

/** Runs a tool's work within the fs time limit, with the client's roots applied, failures worded. */
function runner(config: Config["fs"], ready: () => Promise<void>) {
  return async <T>(call: ToolCallContext, work: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    const timeout = AbortSignal.timeout(config.timeout_seconds * 1000);
    const signal = AbortSignal.any([call.signal, timeout]);
    try {
      await ready();
      return await work(signal);
    } catch (error) {
      if (timeout.aborted) throw new ToolError(`timed out after ${config.timeout_seconds} s`, "narrow the path, glob or pattern");
      // The system said no (EACCES, ENOSPC, …): the agent's problem to hear about, not a bug.
      if (errnoOf(error)) throw new ToolError((error as Error).message);
      throw error;
    }
  };
}

/** An optional directory given as "" means what leaving it out means: the project. */
const orProject = (path: string | undefined) => (path === "" ? undefined : path);

interface FsToolsContext {
  confinement: Confinement;
  config: Config["fs"];
  run: ReturnType<typeof runner>;
  /** The bash environment of `run` that sees the project, if any, to read on in a cut line. */
  shell: string | undefined;
  /** Keeps a whole listing or the matches a cap cut short, for the agent to page. */
  results: ResultStore | undefined;
  /** The text an answer holds (textRoom): a listing or a search stops there, with its own pointer to the rest. */
  textBytes: number;
}

function fsTools({ confinement, config, run, shell, results, textBytes }: FsToolsContext): ToolDefinition[] {
  const listFilesTool = defineTool({
    name: "list_files",
    title: "List files",
    description: "List a directory, or a tree with recursive/glob (find files by name); .gitignore honoured; capped.",
    input: {
      path: pathField.optional().describe("Directory, project-relative or /project/... (default: the project)"),
      recursive: z.boolean().optional().describe("Whole tree"),
      max_depth: z.number().int().min(1).max(64).optional().describe("Deepest level listed, 1 = direct children"),
      glob: z.string().optional().describe("Gitignore-style glob, e.g. 'src/**/*.json' (implies recursive)"),
      include_ignored: z.boolean().optional().describe("Also .gitignored files"),
      include_stats: z.boolean().optional().describe("Size and mtime of each entry"),
    },
    output: {
      path: z.string(),
      entries: z.array(
        z.object({
          path: z.string(),
          type: entryType,
          size: z.number().optional(),
          mtime: z.string().optional(),
          files: z.number().int().optional().describe("A directory shown for what it holds: files below it"),
        }),
      ),
      more: z.number().int().describe("Entries left out by the cap"),
      all: z.string().optional().describe("File listing every entry when some were left out"),
      total: z.number().int().optional().describe("Entries in `all`, when directories were shown for what they hold"),
    },
    otherForms: listForms,
    annotations: READS,
    run: (args, call) =>
      run(call, (signal) =>
        listFiles(
          confinement,
          {
            path: orProject(args.path),
            recursive: args.recursive,
            maxDepth: args.max_depth,
            glob: args.glob,
            includeIgnored: args.include_ignored,
            includeStats: args.include_stats,
          },
          { entries: config.max_list_entries, bytes: textBytes },
          signal,
          results && ((text) => results.keep("list_files", text)),
        ),
      ),
    render: (result) => {
      const lines = result.entries.map(listingLine);
      if (result.entries.length === 0) lines.push(`(nothing in ${result.path})`);
      if (result.total !== undefined) {
        const more = result.more > 0 ? `${result.more} more; ` : "";
        lines.push(`… ${more}a directory over the cap is shown as its file count; all ${result.total} are in ${result.all}`);
        return lines.join("\n");
      }
      const all =
        result.all &&
        `; all ${result.entries.length + result.more} are in ${result.all}: read_content it from start_line ${result.entries.length + 1}`;
      if (result.more > 0) lines.push(`… ${result.more} more (narrow with path, glob or max_depth${all ?? ""})`);
      return lines.join("\n");
    },
  });

  const statItemsTool = defineTool({
    name: "stat_items",
    title: "Stat paths",
    description: "Type, size, permissions and mtime of each path (a symlink's own).",
    input: { paths: pathsField.describe("Paths to describe") },
    output: {
      items: z.array(
        z.object({
          path: z.string(),
          type: entryType.optional(),
          size: z.number().optional(),
          mode: z.string().optional(),
          mtime: z.string().optional(),
          link_target: z.string().optional(),
          error: errorField,
        }),
      ),
    },
    otherForms: onePath,
    annotations: READS,
    run: (args, call) => run(call, async (signal) => batchResult(await statItems(confinement, args.paths, signal))),
    render: (result) =>
      itemLines(
        result.items,
        (item) =>
          `${item.path}: ${item.type} ${item.size} bytes mode ${item.mode} mtime ${item.mtime}${item.link_target ? ` -> ${item.link_target}` : ""}`,
      ),
  });

  const readContentTool = defineTool({
    name: "read_content",
    title: "Read files",
    description: `Read text files, whole or start_line..end_line; at most ${config.max_read_bytes} bytes per call, next_start_line continues; binary files are described.`,
    input: {
      path: pathField.optional().describe("One file, project-relative or /project/..."),
      paths: pathsField.optional().describe("Several files"),
      start_line: z.number().int().min(1).optional().describe("First line, 1-based (each file)"),
      end_line: z.number().int().min(1).optional().describe("Last line, inclusive"),
    },
    output: {
      items: z.array(
        z.object({
          path: z.string(),
          content: z.string().optional(),
          start_line: z.number().int().optional(),
          end_line: z.number().int().optional(),
          total_lines: z.number().int().optional().describe("Lines in the file, when known"),
          next_start_line: z.number().int().optional().describe("The byte budget ran out: call again from this line"),
          line_cut: z.boolean().optional().describe("The last line was longer than the budget and was cut"),
          binary: z.object({ size: z.number(), kind: z.string() }).optional(),
          error: errorField,
        }),
      ),
    },
    otherForms: readForms,
    annotations: READS,
    run: (args, call) =>
      run(call, async (signal) => {
        // `path` beside `paths` that already name it is the same file said twice, read once.
        const listed = args.paths ?? [];
        const paths = args.path === undefined || listed.includes(args.path) ? listed : [args.path, ...listed];
        if (paths.length === 0) throw new ToolError("no file named", 'pass path: "file" (or paths: [...] for several)');
        return batchResult(
          await readContent(
            confinement,
            { paths, startLine: args.start_line, endLine: args.end_line, pageBytes: textBytes },
            config.max_read_bytes,
            signal,
          ),
        );
      }),
    // Each file's content is a part of its own: cut, its marker names the file and its line numbers.
    render: (result) => [
      ...failedTally(result.items),
      ...result.items.flatMap((item): TextPart[] => {
        // A file's name (a glob's match is the project's) stays on its header's line: no newline in it makes another header.
        if (item.error) return [oneLine(`==> error: ${item.error}`)];
        if (item.binary) return [oneLine(`==> ${item.path}: binary (${item.binary.kind}, ${item.binary.size} bytes), not shown`)];
        const of = item.total_lines !== undefined ? ` of ${item.total_lines}` : "";
        const next = item.line_cut
          ? [cutLineHint(item, shell)]
          : item.next_start_line
            ? [`[budget spent: continue with start_line ${item.next_start_line}]`]
            : [];
        const file = { call: `read_content ${JSON.stringify(item.path)}`, firstLine: item.start_line!, totalLines: item.total_lines };
        return [
          oneLine(`==> ${item.path} (lines ${item.start_line}-${item.end_line}${of}) <==`),
          { text: item.content ?? "", file },
          ...next,
        ];
      }),
    ],
  });

  const searchFilesTool = defineTool({
    name: "search_files",
    title: "Search file contents",
    description: "Search file contents with ripgrep (regex unless literal; .gitignore honoured).",
    input: {
      pattern: z.string().min(1).describe("Regex (Rust syntax), or text with literal"),
      path: pathField.optional().describe("File or directory, project-relative or /project/... (default: the project)"),
      glob: z.string().optional().describe("Only matching files, e.g. '*.py' or '!*.min.js'"),
      literal: z.boolean().optional().describe("Pattern is plain text"),
      include_ignored: z.boolean().optional().describe("Also .gitignored files"),
      case_sensitive: z.boolean().optional().describe("Default: smart case"),
      context_lines: z.number().int().min(0).max(MAX_CONTEXT_LINES).optional().describe("Context lines around each match"),
      max_results: z.number().int().min(1).optional().describe(`Matching lines (default and most: ${config.max_search_results})`),
    },
    output: {
      matches: z.number().int(),
      hint: z.string().optional().describe("Why nothing may have matched"),
      note: z.string().optional().describe("How the pattern was searched, when not as asked"),
      truncated: z.boolean().describe("More matches exist beyond those shown"),
      full: z.boolean().optional().describe("Stopped before max_results: the answer is full"),
      all: z
        .object({ path: z.string(), matches: z.number().int(), complete: z.boolean() })
        .optional()
        .describe("When truncated: file of every match (complete) or of the first ones"),
      files: z.array(
        z.object({
          path: z.string(),
          lines: z.array(z.object({ line: z.number().int(), text: z.string(), match: z.boolean(), cut: z.literal(true).optional() })),
        }),
      ),
    },
    otherForms: searchForms,
    annotations: READS,
    run: (args, call) =>
      run(call, (signal) =>
        searchFiles(
          confinement,
          {
            pattern: args.pattern,
            path: orProject(args.path),
            glob: args.glob,
            literal: args.literal,
            includeIgnored: args.include_ignored,
            caseSensitive: args.case_sensitive,
            contextLines: args.context_lines,
            maxResults: resultsWithin(args.max_results, config.max_search_results),
            maxBytes: textBytes,
          },
          signal,
          results && ((text) => results.keep("search_files", text)),
        ),
      ),
    render: (result) => {
      const lines = matchLines(result.files);
      const shownLines = lines.length;
      if (result.note) lines.unshift(`[${result.note}]`);
      if (result.matches === 0) lines.push(result.hint ? `no matches: ${result.hint}` : "no matches");
      // Where the answer is full, or at the daemon's cap, raising max_results is no way out.
      const wayOut = result.full
        ? "narrow path/glob or the pattern"
        : result.matches < config.max_search_results
          ? "narrow path/glob or raise max_results"
          : "narrow path/glob (fs.max_search_results)";
      const all =
        result.all &&
        `; ${result.all.complete ? "all" : "the first"} ${result.all.matches} are in ${result.all.path}: read_content it from start_line ${shownLines + 1}`;
      const full = result.full ? " (the answer is full)" : "";
      if (result.truncated) lines.push(`[stopped at ${result.matches} matches${full}: ${wayOut}${all ?? ""}]`);
      const cut = cutLineNote(result.files);
      if (cut) lines.push(cut);
      return lines.join("\n");
    },
  });

  const reads: ToolDefinition[] = [listFilesTool, statItemsTool, readContentTool, searchFilesTool] as ToolDefinition[];
  if (config.read_only) return reads;

  const writeContentTool = defineTool({
    name: "write_content",
    title: "Write files",
    description: "Create or replace files atomically, or append; parents are created, permissions kept.",
    input: {
      items: z
        .array(
          z.object({
            path: pathField,
            content: z.string().describe("The whole new content (or what to append)"),
            append: z.boolean().optional().describe("Append instead of replacing"),
          }),
        )
        .min(1)
        .max(100)
        .describe("Files to write"),
    },
    output: {
      items: z.array(
        z.object({ path: z.string(), bytes: z.number().int().optional(), created: z.boolean().optional(), error: errorField }),
      ),
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    otherForms: oneItem,
    run: (args, call) =>
      run(call, async (signal) => batchResult(await writeContent(confinement, args.items, config.max_write_bytes, signal))),
    render: (result) =>
      itemLines(
        result.items,
        (item) => `${item.created ? "created" : "wrote"} ${item.path} (${item.bytes} byte${item.bytes === 1 ? "" : "s"})`,
      ),
  });

  const editFileTool = defineTool({
    name: "edit_file",
    title: "Edit a file",
    description:
      "Replace exact text in a file: each old_text once, or everywhere with replace_all. All edits apply or none; returns a diff.",
    input: {
      path: pathField.describe("File to edit, project-relative or /project/..."),
      edits: z
        .array(
          z.preprocess(
            editSpellings,
            z.object({
              old_text: z.string().describe("Exact text to replace, whitespace included"),
              new_text: z.string().describe("Replacement text"),
              replace_all: z.boolean().optional().describe("Every occurrence"),
            }),
          ),
        )
        .min(1)
        .max(100)
        .describe("Applied in order"),
      dry_run: z.boolean().optional().describe("Diff only, not written"),
    },
    output: { path: z.string(), diff: z.string(), edits: z.number().int(), dry_run: z.boolean() },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    otherForms: oneEdit,
    run: (args, call) => run(call, () => editFile(confinement, args.path, args.edits, args.dry_run ?? false, config.max_write_bytes)),
    render: (result) => `${result.dry_run ? "[dry run, not written]\n" : ""}${result.diff || "(no change)"}`,
  });

  const createDirectoriesTool = defineTool({
    name: "create_directories",
    title: "Create directories",
    description: "Create directories and their parents; existing ones are kept.",
    input: { paths: pathsField.describe("Directories to create") },
    output: { items: z.array(z.object({ path: z.string(), created: z.boolean().optional(), error: errorField })) },
    otherForms: onePath,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: (args, call) => run(call, async () => batchResult(await createDirectories(confinement, args.paths))),
    render: (result) => itemLines(result.items, (item) => `${item.created ? "created" : "exists"} ${item.path}/`),
  });

  const tools: ToolDefinition[] = [...reads, writeContentTool, editFileTool, createDirectoriesTool] as ToolDefinition[];

  if (config.allow_move) {
    tools.push(
      defineTool({
        name: "move_items",
        title: "Move or rename",
        description: "Move or rename files and directories; a destination that exists is refused.",
        input: {
          operations: z
            .array(
              z.object({ source: pathField.describe("What to move"), destination: pathField.describe("Its new path (must not exist)") }),
            )
            .min(1)
            .max(100)
            .describe("Moves, applied in order"),
        },
        output: { items: z.array(z.object({ source: z.string(), destination: z.string(), error: errorField })) },
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
        run: (args, call) => run(call, async (signal) => batchResult(await moveItems(confinement, args.operations, signal))),
        render: (result) => itemLines(result.items, (item) => `${item.source} -> ${item.destination}`),
      }) as ToolDefinition,
    );
  }
  if (config.allow_delete) {
    tools.push(
      defineTool({
        name: "delete_items",
        title: "Delete",
        description: "Delete files, symlinks (not their targets) and, with recursive, directories.",
        input: {
          paths: pathsField.describe("What to delete"),
          recursive: z.boolean().optional().describe("Required to delete a directory with its content"),
        },
        output: { items: z.array(z.object({ path: z.string(), deleted: z.boolean().optional(), error: errorField })) },
        otherForms: onePath,
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
        run: (args, call) =>
          run(call, async (signal) => batchResult(await deleteItems(confinement, args.paths, args.recursive ?? false, signal))),
        render: (result) => itemLines(result.items, (item) => `deleted ${item.path}`),
      }) as ToolDefinition,
    );
  }
  return tools;
}

/** The bash environment `run` offers with the project in sight, preferring the one named shell. */
function projectShell({ config, discovery }: ServerContext): string | undefined {
  if (!config.sandbox.enabled) return undefined;
  const shells = [...discovery.environments.values()].filter(
    (env) => env.interpreter === "bash" && cappedAccess(env.projectAccess, config.sandbox.project_access) !== "none",
  );
  return (shells.find((env) => env.name === "shell") ?? shells[0])?.name;
}

export const fsCapability: Capability = {
  name: "fs",
  tools: [
    "list_files",
    "stat_items",
    "read_content",
    "search_files",
    "write_content",
    "edit_file",
    "create_directories",
    "move_items",
    "delete_items",
  ],
  instructions: (config) =>
    `Files: paths are relative to the project root (/project/... means the same). Find with list_files (glob) and search_files, read with read_content (line ranges)${
      config.fs.read_only
        ? "; read-only here, so no writing tools are offered."
        : ", change with edit_file (exact text) or write_content (whole files)."
    }`,
  async register(ctx) {
    const config = ctx.config.fs;
    const results = ctx.results ? [await makeRoot(ctx.results.dir)] : [];
    const extra = await existingRoots(config.extra_roots, ctx);
    const confinement = new Confinement(await makeRoot(ctx.projectRoot), extra, ctx.config.protected_paths, results);
    // Imported here: it loads the SDK's schemas, which the early initialize reply does without.
    const { watchClientRoots } = await import("../mcp/client-roots.js");
    const roots = config.use_client_roots
      ? watchClientRoots(ctx.mcp, async (paths) => confinement.setClientRoots(await existingRoots(paths, ctx)), ctx.log)
      : undefined;
    const run = runner(config, async () => roots?.settled());
    // Whether rg can be jailed is probed now, not on the first search.
    void jailed();
    const textBytes = textRoom(ctx.config.responses.max_bytes);
    const offered = fsTools({ confinement, config, run, shell: projectShell(ctx), results: ctx.results, textBytes });
    for (const tool of offered) registerTool(ctx.mcp, tool, ctx.log);
    for (const name of fsCapability.tools.filter((name) => !offered.some((tool) => tool.name === name))) {
      const setting = config.read_only
        ? "fs.read_only = true"
        : name === "move_items"
          ? "fs.allow_move = false"
          : "fs.allow_delete = false";
      markToolsOff(ctx.mcp, [name], setting);
    }
  },
};
