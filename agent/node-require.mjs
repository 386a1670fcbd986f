// Loaded before a one-off Node run's code (node --import). The code's file (/run/nixshed/main.js) is
// alone in its directory: what it requires or imports by a relative path or a package name is the
// project's, resolved from the working directory as `node -e` code's is (node-resolve.mjs for
// import). Node runs code with module syntax (import, top-level await) as an ES module, where
// `require` is not defined; agents write both in one snippet: such code gets one that resolves
// from there too (CommonJS code has its own, which shadows it).
import Module, { createRequire } from "node:module";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import * as resolveHook from "./node-resolve.mjs";

/** Where bin/run puts a one-off run's code (nix/backends/jail.bash). */
const CODE_DIRECTORY = "/run/nixshed";
const here = `${process.cwd()}/`;
const requireHere = createRequire(here);
globalThis.require ??= requireHere;

// What CommonJS resolves with: Node's own, not in its type declarations; registerHooks is Node 22.15's.
const loader = /** @type {{ _resolveFilename: Function, registerHooks?: Function }} */ (/** @type {unknown} */ (Module));
// The code's own processes and workers are no one-off run's code: they do not load this file again.
process.execArgv = process.execArgv.filter((arg) => !arg.endsWith("/node-require.mjs"));

const main = process.argv[1] ?? "";
if (dirname(main) === CODE_DIRECTORY) {
  const resolveFilename = loader._resolveFilename;
  loader._resolveFilename = function (
    /** @type {string} */ request,
    /** @type {{ filename?: string } | undefined} */ parent,
    /** @type {boolean} */ isMain,
    /** @type {{ paths?: string[] } | undefined} */ options,
  ) {
    return parent?.filename === main ? requireHere.resolve(request, options) : resolveFilename.call(this, request, parent, isMain, options);
  };
  const data = { main: pathToFileURL(main).href, base: pathToFileURL(here).href };
  // In the loading thread where Node has it (22.15), else in the hooks thread.
  if (loader.registerHooks) {
    resolveHook.initialize(data);
    loader.registerHooks({ resolve: resolveHook.resolve });
  } else Module.register("./node-resolve.mjs", import.meta.url, { data });
}
