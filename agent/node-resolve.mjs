// Module resolution hook for a one-off Node run (registered by node-require.mjs): what the code's
// file (/run/nixshed/main.js, alone in its directory) imports by a relative path or a package name
// resolves from the working directory, the project, as `node -e` code's does.
let main;
let base;

export function initialize(data) {
  ({ main, base } = data);
}

/** Works as a hook of module.register (async) and of module.registerHooks (sync): it only passes on. */
export function resolve(specifier, context, nextResolve) {
  return nextResolve(specifier, context.parentURL === main ? { ...context, parentURL: base } : context);
}
