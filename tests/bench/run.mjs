// `npm run bench [-- NAME…]`: runs every tests/bench/*.bench.mjs (or the named ones) in turn.
// Each prints its own numbers, side by side with its peer where one runs here. Not a test.
import { readdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const dir = fileURLToPath(new URL(".", import.meta.url));
const wanted = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((file) => file.endsWith(".bench.mjs"))
  .filter((file) => wanted.length === 0 || wanted.some((name) => file.startsWith(name)))
  .sort();
for (const file of benches) {
  console.log(`\n## ${file.replace(".bench.mjs", "")}`);
  const bench = await import(pathToFileURL(`${dir}/${file}`).href);
  await bench.default();
}
