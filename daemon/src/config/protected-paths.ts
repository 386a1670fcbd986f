// Protected paths: project files the host executes or obeys without anyone reading them (git hooks
// and config, direnv, editor tasks, MCP and nixshed config). Neither the fs tools nor a read-write
// jail may change them; this file holds the one list and the one rule for both.
//
// Matching is done on the project-relative path after `..` and symlinks are resolved (the caller's
// job), by whole components, folded so that a case-insensitive or normalising filesystem
// (macOS, Windows shares) is no way around it: `.GIT/Hooks`, `.git/hooks\u200c` and `.envrc.` all
// count as protected. Folding can only make the rule refuse more, never less.

/**
 * The default list: git metadata git executes or obeys (objects and refs stay writable so `git commit` works), direnv,
 * editors' (Helix's languages.toml names language servers it starts) and coding agents' project config (each can name MCP servers or commands its tool starts: Gemini CLI,
 * Codex, opencode, Kiro, Roo, Amazon Q, Continue, Junie, Windsurf, aider's test and lint commands, Crush, Qwen Code,
 * Kilo Code, Cline's hooks), nixshed's own.
 */
export const DEFAULT_PROTECTED_PATHS: readonly string[] = [
  ".git/hooks",
  ".git/config",
  ".git/info",
  ".envrc",
  ".direnv",
  ".vscode",
  ".idea",
  ".zed",
  ".helix",
  ".cursor",
  ".claude",
  ".mcp.json",
  ".gemini",
  ".codex",
  ".opencode",
  "opencode.json",
  "opencode.jsonc",
  ".kiro",
  ".roo",
  ".amazonq",
  ".continue",
  ".junie",
  ".windsurf",
  ".aider.conf.yml",
  ".crush.json",
  "crush.json",
  ".qwen",
  ".kilocode",
  ".kilo",
  "kilo.json",
  "kilo.jsonc",
  ".clinerules",
  ".nixshed.toml",
];

/**
 * git metadata that redirects or configures git as much as `.git/config` does, protected whenever
 * the list protects part of `.git`: `commondir` names the directory git reads its config from;
 * `config.worktree` is config git reads once extensions.worktreeConfig is on (`git sparse-checkout`
 * turns it on); submodules and linked worktrees keep their own config and hooks under `modules` and `worktrees`.
 */
export const GIT_REDIRECTS: readonly string[] = [".git/commondir", ".git/config.worktree", ".git/modules", ".git/worktrees"];

/** Whether the list protects part of the root's `.git`, and so git's redirects and nested git metadata too. */
export const protectsGit = (list: readonly string[]): boolean => list.some((entry) => components(entry)[0] === ".git");

/** Code points some filesystems ignore in names (HFS+), the trick of git's CVE-2014-9390. */
// biome-ignore lint/suspicious/noMisleadingCharacterClass: each listed code point is removed on its own, combining or not
const IGNORABLE = /[\u00ad\u034f\u180b-\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufe00-\ufe0f\ufeff]/gu;

/** One name as a case-insensitive, normalising filesystem would see it. */
function fold(name: string): string {
  // Windows drops trailing dots and spaces.
  return (
    name
      .normalize("NFC")
      .replace(IGNORABLE, "")
      .toLowerCase()
      .replace(/[. ]+$/u, "") || name
  );
}

/** The folded components of a project-relative path ("" and "." dropped; a leading "./" or "/" means the root). */
function components(path: string): string[] {
  return path
    .split(/[/\\]/u)
    .filter((part) => part !== "" && part !== ".")
    .map(fold);
}

/** Whether `path` starts with all of `prefix`'s components. */
const startsWith = (path: string[], prefix: string[]) =>
  prefix.length <= path.length && prefix.every((part, index) => path[index] === part);

/** Git metadata below the root's own `.git` entries: a nested repository's `DIR/.git`, or one of git's redirects. */
function gitMetadata(parts: string[]): string | undefined {
  const nested = parts.indexOf(".git", 1);
  if (nested !== -1) return `${parts.slice(0, nested + 1).join("/")} (a nested repository's git metadata)`;
  const redirect = GIT_REDIRECTS.find((entry) => startsWith(parts, components(entry)));
  return redirect && `${redirect} (git reads config and hooks through it)`;
}

/**
 * A bare repository that writing `path` would make, or write in: a directory (no `.git`, nor in one) that, with
 * `path`, holds what makes one to git (`is_git_directory`): HEAD, with objects/ and refs/ or a `commondir` naming
 * where they (and the config git obeys) are. `exists`: whether a project-relative path exists now. git run in it
 * takes it for its repository and obeys its config (a planted core.fsmonitor or pager runs), as it would a nested `.git`.
 */
export function bareRepositoryMade(path: string, exists: (path: string) => boolean): string | undefined {
  const names = path.split(/[/\\]/u).filter((part) => part !== "" && part !== ".");
  // Each name folded once, the directory built up level by level: once per level, both made a 4 KB path cost minutes.
  let dir = "";
  for (const name of names) {
    const folded = fold(name);
    const holds = (part: string) => folded === fold(part) || exists(dir === "" ? part : `${dir}/${part}`);
    if (holds("HEAD") && (holds("commondir") || (holds("objects") && holds("refs"))))
      return `${dir || "."} (it would be a bare git repository, whose config git obeys)`;
    // A `.git` is the repository the rules above cover: its objects and refs stay writable.
    if (folded === ".git") break;
    dir = dir === "" ? name : `${dir}/${name}`;
  }
  return undefined;
}

/**
 * The protected entry that `path` (project-relative, `..` and symlinks already resolved) is, lies
 * under, or contains (moving or deleting `.git` takes `.git/hooks` along; a file written at `.git`
 * would point git at hooks elsewhere); undefined when the path is free to change. When the list
 * protects parts of `.git`, git's redirects (GIT_REDIRECTS) and the git metadata of nested
 * repositories are protected whole. The project root itself is never refused here.
 */
export function protectedEntry(path: string, list: readonly string[]): string | undefined {
  const parts = components(path);
  if (parts.length === 0) return undefined;
  const listed = list.find((entry) => {
    const protectedParts = components(entry);
    if (protectedParts.length === 0) return false;
    return startsWith(parts, protectedParts) || startsWith(protectedParts, parts);
  });
  if (listed !== undefined) return listed;
  return protectsGit(list) ? gitMetadata(parts) : undefined;
}

/** The one-line refusal the fs tools give. */
export function protectedMessage(path: string, entry: string): string {
  return `${path}: is protected (${entry} is in protected_paths: the host runs or obeys it), so nixshed does not change it`;
}
