#!/usr/bin/env node
// The `nixshed` command. A committed, executable file, so that npm links it at `npm ci` time,
// before `npm run build` has written daemon/dist.
try {
  await import("../dist/cli/main.js");
} catch (error) {
  if (error?.code !== "ERR_MODULE_NOT_FOUND" || !String(error.message).includes("dist/cli/main.js")) throw error;
  process.stderr.write("nixshed: not built yet: run `npm run build` first\n");
  process.exitCode = 1;
}
