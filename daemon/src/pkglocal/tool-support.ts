// What both tools share: the error for a project without the environments asked about, with how
// to make one.
import { ToolError } from "../mcp/tool.js";
import type { ProjectPackages } from "./package-index.js";
import type { Language } from "./types.js";

const HOW_TO_CREATE: Record<Language, string> = {
  python:
    "Create one in the project: `python3 -m venv .venv && .venv/bin/pip install -r requirements.txt` (or `uv sync`, `poetry install`, `pipenv install`), or name it in [pkglocal] python_envs.",
  node: "Install the dependencies in the project: `npm install` (or `pnpm install`, `yarn install`, `bun install`), or name the directory in [pkglocal] node_modules.",
};

export function missingMessage(language: Language, found: ProjectPackages): string {
  return `no ${language} environment found; looked for: ${found.lookedFor[language].join(", ")}`;
}

export function noEnvironment(languages: Language[], found: ProjectPackages): ToolError {
  return new ToolError(
    languages.map((each) => missingMessage(each, found)).join("\n"),
    languages.map((each) => HOW_TO_CREATE[each]).join("\n"),
  );
}
