// What agents call Node and Python besides their names: one list for the sandbox (which environment
// "js" means) and pkg-local (which packages "py" means).

export const LANGUAGE_ALIASES: Readonly<Record<string, "node" | "python">> = {
  js: "node",
  javascript: "node",
  nodejs: "node",
  py: "python",
};
