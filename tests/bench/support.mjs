// What every benchmark needs and none is about: the harness build, spawning a server and connecting
// the SDK's Client to it, timing calls, percentiles, a process's RSS and side-by-side table rows.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

export const REPO = fileURLToPath(new URL("../..", import.meta.url));
export const CLI = `${REPO}daemon/dist/cli/main.js`;

/** Builds the daemon and the harness metadata (tests/harness); returns the metadata's store path. */
export function buildHarness() {
  execFileSync("npm", ["run", "--silent", "build"], { cwd: REPO, stdio: "ignore" });
  return execFileSync("bash", ["tests/harness/build-metadata.sh"], { cwd: REPO, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })
    .trim()
    .split("\n")
    .pop();
}

/**
 * Spawns an MCP server over stdio and connects the SDK's Client, as a real client does; `ms` is the
 * time the connection (initialize) took. Only PATH and HOME are passed on, plus `env`.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: Record<string, string>, stderr?: import("node:child_process").IOType }} [options]
 */
export async function connect(command, args, { cwd, env = {}, stderr = "inherit" } = {}) {
  const transport = new StdioClientTransport({
    command,
    args,
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: homedir(), ...env },
    stderr,
  });
  const client = new Client({ name: "nixshed-bench", version: "0" });
  const started = performance.now();
  await client.connect(transport);
  return { client, transport, ms: performance.now() - started };
}

/** `nixshed serve ARGS` from daemon/dist (run `npm run build` first), connected as by `connect`. */
export const serve = (args, options) => connect(process.execPath, [CLI, "serve", ...args], options);

/** Awaits `once(i)` `warmup` times untimed, then `count` times; returns each timed call's ms. */
export async function timeCalls(count, once, { warmup = 0 } = {}) {
  for (let i = 0; i < warmup; i++) await once(i);
  const times = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await once(i);
    times.push(performance.now() - started);
  }
  return times;
}

/** Times `repeat` calls of one tool (after `warmup` untimed ones); a tool error stops the bench. */
export async function timeTool(client, name, args, { repeat = 1, warmup = 0 } = {}) {
  /** @type {any} the last call's result, as the tool returned it */
  let result;
  const times = await timeCalls(
    repeat,
    async () => {
      result = await client.callTool({ name, arguments: args });
      if (result.isError) throw new Error(`${name}: ${result.content?.[0]?.text}`);
    },
    { warmup },
  );
  return { times, result };
}

export const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];
export const median = (values) => percentile(values, 50);

/** "12.3 ms" with `digits` decimals; "-" for a number not measured. */
export const formatMs = (value, digits) => (value === undefined ? "-" : `${value.toFixed(digits)} ms`);

/** One line of p50 and p95, the label padded to `width` so that consecutive lines align. */
export function printPercentiles(label, times, width) {
  const result = { p50: percentile(times, 50), p95: percentile(times, 95) };
  console.log(`${label.padEnd(width)} p50 ${result.p50.toFixed(1).padStart(6)} ms   p95 ${result.p95.toFixed(1).padStart(6)} ms`);
  return result;
}

/** Resident set size of a running process (Linux /proc), in bytes. */
export const rssBytes = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) * 1024;

/** A printer of table rows, each cell padded to its column's width, so that rows print as they are measured. */
export const columns =
  (widths, indent = "") =>
  (...cells) =>
    console.log(`${indent}${cells.map((cell, column) => String(cell).padEnd(widths[column] ?? 0)).join("")}`.trimEnd());

/** Prints a whole table at once, each column as wide as its widest cell plus `gap`. */
export function printTable(rows, { indent = "", gap = 2 } = {}) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)) + gap);
  for (const row of rows) columns(widths, indent)(...row);
}
