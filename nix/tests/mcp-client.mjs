// The VM test's MCP client: the SDK's own Client drives `nixshed serve` over stdio through the
// scenario below, step by step, and exits non-zero at the first broken expectation.
//
//   node mcp-client.mjs SDK_DIR [--only a,b] [--package hello] -- nixshed serve
//
// SDK_DIR: …/node_modules/@modelcontextprotocol/sdk (an argument: NIXSHED_* variables would be
// taken for server configuration).
//
// Run from the project directory (it holds README.md; ../secret.txt lies outside it). A loopback
// listener on 127.0.0.1:8000 outside the jail makes the network check meaningful.
import { existsSync } from "node:fs";

const separator = process.argv.indexOf("--");
const option = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const only = option("--only")?.split(",");
// The package searched for and installed as a tool: one of the index, not an everyday tool.
const pkg = option("--package") ?? "hello";
const [command, ...args] = process.argv.slice(separator + 1);
const sdk = process.argv[2];
const { Client } = await import(`${sdk}/dist/esm/client/index.js`);
const { StdioClientTransport } = await import(`${sdk}/dist/esm/client/stdio.js`);
const { ToolListChangedNotificationSchema } = await import(`${sdk}/dist/esm/types.js`);

const client = new Client({ name: "nixshed-vm-test", version: "1" });
let listChanged = 0;
client.setNotificationHandler(ToolListChangedNotificationSchema, () => void listChanged++);
await client.connect(new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" }));

function check(condition, what, detail) {
  if (!condition) throw new Error(`${what}: ${JSON.stringify(detail, null, 1)?.slice(0, 2000)}`);
}
async function call(name, input) {
  return client.callTool({ name, arguments: input });
}
async function run(env, code, extra = {}) {
  const result = await call("run", { env, code, ...extra });
  check(!result.isError, `run in ${env} answered with an error`, result);
  return result.structuredContent;
}
async function runOk(env, code, extra) {
  const out = await run(env, code, extra);
  check(out.exit_code === 0, `\`${code}\` in ${env} exited ${out.exit_code}`, out);
  return out.stdout.trim();
}
async function runFails(env, code) {
  const out = await run(env, code);
  check(out.exit_code !== 0, `\`${code}\` in ${env} should have failed`, out);
}
async function toolNames() {
  return (await client.listTools()).tools.map((tool) => tool.name);
}

const steps = {
  async initialize() {
    check(client.getServerVersion()?.name === "nixshed", "server name", client.getServerVersion());
  },
  async toolsList() {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of ["run", "list_sessions", "read_content", "list_files", "nixpkgs_search", "nixpkgs_install_tool", "scan_packages"])
      check(names.includes(name), `tools/list lacks ${name}`, names);
    const envs = tools.find((tool) => tool.name === "run").inputSchema.properties.env.enum;
    for (const env of ["shell", "python", "node", "custom"]) check(envs.includes(env), `run does not offer ${env}`, envs);
  },
  async presets() {
    check((await runOk("shell", "echo hi | tr a-z A-Z")) === "HI", "shell preset", "");
    check((await runOk("python", "print(6 * 7)")) === "42", "python preset", "");
    check((await runOk("node", "console.log(6 * 7)")) === "42", "node preset", "");
  },
  async session() {
    await runOk("python", "import os\nx = 41\nos.chdir('/tmp')", { session: "vm" });
    check((await runOk("python", "print(x + 1, os.getcwd())", { session: "vm" })) === "42 /tmp", "session state", "");
    const sessions = (await call("list_sessions", {})).structuredContent;
    check(JSON.stringify(sessions).includes('"vm"'), "list_sessions shows the session", sessions);
  },
  async isolation() {
    await runFails("shell", "exec 3<>/dev/tcp/127.0.0.1/8000");
    await runFails("shell", "cat /etc/shadow");
    await runFails("shell", "cat ../secret.txt || cat /home/alice/secret.txt");
    check((await runOk("shell", "cat /project/README.md")) === "nixshed vm test", "project readable", "");
    await runFails("shell", "touch /project/new-file");
  },
  async fsConfinement() {
    const inside = await call("read_content", { paths: ["README.md"] });
    check(!inside.isError && JSON.stringify(inside).includes("nixshed vm test"), "read_content in the project", inside);
    for (const path of ["../secret.txt", "/home/alice/secret.txt", "/etc/shadow"]) {
      const outside = await call("read_content", { paths: [path] });
      check(outside.isError || !JSON.stringify(outside).includes("top secret"), `read_content ${path} escaped`, outside);
    }
    const written = await call("write_content", { items: [{ path: "../escape.txt", content: "x" }] });
    check(!existsSync("../escape.txt"), "write_content escaped the project", written);
  },
  async nixpkgsSearch() {
    const found = await call("nixpkgs_search", { query: pkg });
    check(!found.isError && found.structuredContent.results[0]?.attr === pkg, `nixpkgs_search ${pkg}`, found);
  },
  async customSandbox() {
    check((await runOk("custom", "hello")) === "Hello, world!", "custom mkSandbox with its package", "");
  },
  async nixpkgsExecute() {
    // A project file by its relative path, in one call, with no search first: jails start in the project.
    const ran = await call("nixpkgs_execute", { package: "jq", args: [".answer", "data.json"] });
    check(!ran.isError && JSON.stringify(ran).includes("42"), "nixpkgs_execute jq .answer data.json", ran);
  },
  async memoryLimit() {
    // 1 GiB in a jail of the python preset (512 MB): the user scope's MemoryMax stops it.
    const out = await run("python", "x = bytearray(1024 * 1024 * 1024)\nprint('allocated')");
    check(out.exit_code !== 0 && !out.stdout.includes("allocated"), "the memory limit held through systemd-run --user", out);
  },
  async installTool() {
    const before = listChanged;
    const installed = await call("nixpkgs_install_tool", { package: pkg });
    check(!installed.isError && !installed.structuredContent.already_installed, `nixpkgs_install_tool ${pkg}`, installed);
    for (let i = 0; i < 50 && listChanged === before; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    check(listChanged > before, "notifications/tools/list_changed after install", listChanged);
    check((await toolNames()).includes(installed.structuredContent.name), "installed tool listed", await toolNames());
    const used = await call(installed.structuredContent.name, {});
    check(!used.isError && JSON.stringify(used).includes("Hello, world!"), `the installed tool runs ${pkg}`, used);
  },
};

for (const [name, step] of Object.entries(steps)) {
  if (only && !only.includes(name)) continue;
  await step();
  console.log(`ok - ${name}`);
}
await client.close();
