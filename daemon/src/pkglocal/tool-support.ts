// What both tools share: the error for a project without the environments asked about, with how
// to make one.
import { ToolError } from "../mcp/tool.js";
import type { ProjectPackages } from "./package-index.js";
import type { Language } from "./types.js";

const HOW_TO_CREATE: Record<Language, string> = {
  python:
    "`python3 -m venv .venv && .venv/bin/pip install -r requirements.txt` (or `uv sync`, `poetry install`) or name one in [pkglocal] python_envs",
  node: "`npm install` (or pnpm, yarn or bun install) or name the directory in [pkglocal] node_modules",
};

export function missingMessage(language: Language, found: ProjectPackages): string {
  return `no ${language} environment found; looked for: ${found.lookedFor[language].join(", ")}`;
}

/** One line for all the languages asked about, however many. */
export function noEnvironment(languages: Language[], found: ProjectPackages): ToolError {
  return new ToolError(
    languages.map((each) => missingMessage(each, found)).join("; "),
    `create one in the project: ${languages.map((each) => HOW_TO_CREATE[each]).join("; or ")}`,
  );
}
