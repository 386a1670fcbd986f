// The fs tools against a symlink swapper: another process keeps replacing a directory inside the
// project with a symlink to a directory outside it (what jailed code with a read-write project, or
// any local process, can do). Thousands of writes, reads, edits, moves, deletes, listings and
// searches go through the real tool functions, then a smaller run through the MCP server; every
// effect that lands outside the project, and every outside byte read, is counted. There must be none.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Confinement, makeRoot } from "../../daemon/src/fs/confine.js";
import { editFile } from "../../daemon/src/fs/edit.js";
import { listFiles } from "../../daemon/src/fs/list.js";
import { deleteItems, moveItems } from "../../daemon/src/fs/manage.js";
import { readContent } from "../../daemon/src/fs/read.js";
import { searchFiles } from "../../daemon/src/fs/search.js";
import { statItems } from "../../daemon/src/fs/stat.js";
import { createDirectories, writeContent } from "../../daemon/src/fs/write.js";
import { startServer, textOf, ONLY_FS } from "../../daemon/test/support/mcp-client.js";

const never = new AbortController().signal;
const SECRET = "OUTSIDE-SECRET";

// Swaps project/d between the real directory and a symlink to the outside directory, forever.
// Each step is one rename(2), so d is always the directory, the symlink, or briefly absent. A tool
// that fills the gap with a new directory (mkdir -p) has it moved aside, so the swapping goes on.
const RACER = `
const { lstatSync, renameSync, writeSync } = require("node:fs");
const [project] = process.argv.slice(1);
const at = (name) => project + "/" + name;
let strays = 0;
let calmAt = process.hrtime.bigint();
writeSync(1, "ready\\n");
for (;;) {
  // Stay a directory for a moment, and every 20 ms of swapping for 10 ms, so that tools also get to
  // succeed inside however fast this machine is and however slow its renames (timed, not counted in
  // loop turns: a chance per turn gave a slow machine's edits no calm at all).
  const now = process.hrtime.bigint();
  const calm = now >= calmAt;
  if (calm) calmAt = now + 30_000_000n;
  const until = now + (calm ? 10_000_000n : BigInt(Math.round(Math.random() * 2e4)));
  while (process.hrtime.bigint() < until);
  try { renameSync(at("d"), at("real")); } catch {}
  try { renameSync(at("evil"), at("d")); } catch {}
  try { renameSync(at("d"), at("evil")); } catch {}
  try { renameSync(at("real"), at("d")); } catch {
    try {
      if (lstatSync(at("d")).isDirectory()) renameSync(at("d"), at("stray-" + strays++));
      renameSync(at("real"), at("d"));
    } catch {}
  }
}`;

interface Arena {
  project: string;
  outside: string;
  racer?: ChildProcess;
}

/** project/d (a real directory) and project/evil (a symlink to outside/), each holding the same names. */
function arena(names: string[]): Arena {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "nixshed-race-")));
  const project = join(base, "project");
  const outside = join(base, "outside");
  mkdirSync(join(project, "d"), { recursive: true });
  mkdirSync(outside);
  for (const name of names) {
    writeFileSync(join(project, "d", name), `inside ${name}\n`);
    writeFileSync(join(outside, name), `${SECRET} ${name}\n`);
  }
  writeFileSync(join(outside, "only-outside"), `${SECRET}\n`);
  symlinkSync(outside, join(project, "evil"));
  return { project, outside };
}

async function startRacer(arena: Arena): Promise<void> {
  const racer = spawn(process.execPath, ["-e", RACER, arena.project], { stdio: ["ignore", "pipe", "inherit"] });
  arena.racer = racer;
  await new Promise<void>((resolve, reject) => {
    racer.once("error", reject);
    racer.stdout!.once("data", () => resolve());
  });
}

function stopRacer(arena: Arena): void {
  arena.racer?.kill("SIGKILL");
  arena.racer = undefined;
}

let current: Arena | undefined;
afterEach(() => {
  if (current) stopRacer(current);
  current = undefined;
});

const range = (count: number, prefix: string) => Array.from({ length: count }, (_, index) => `${prefix}${index}`);
const outsideHas = (arena: Arena, name: string) => existsSync(join(arena.outside, name));
const outsideText = (arena: Arena, name: string) => readFileSync(join(arena.outside, name), "utf8");

describe("fs tools against a symlink swapper", () => {
  it("core: no write, edit, create, move, delete, read, stat, listing or search reaches outside the project", async () => {
    const N = { write: 1000, read: 1000, edit: 300, mkdir: 300, move: 500, delete: 500, stat: 300, list: 100, search: 50 };
    const edits = range(N.edit, "e");
    const moves = range(N.move, "m");
    const deletes = range(N.delete, "x");
    const a = arena(["secret", ...edits, ...moves, ...deletes]);
    current = a;
    const confinement = new Confinement(await makeRoot(a.project));
    await startRacer(a);

    const hits: Record<string, number> = {};
    const done: Record<string, number> = {};
    const count = (kind: string, hit: boolean, ok: boolean) => {
      hits[kind] = (hits[kind] ?? 0) + (hit ? 1 : 0);
      done[kind] = (done[kind] ?? 0) + (ok ? 1 : 0);
    };

    for (const name of range(N.write, "w")) {
      const [item] = await writeContent(confinement, [{ path: `d/${name}`, content: "written\n" }], 1 << 20, never);
      count("write", false, !item!.error);
    }
    for (let i = 0; i < N.read; i++) {
      const [item] = await readContent(confinement, { paths: ["d/secret"] }, 65536, never);
      count("read", item!.content?.includes(SECRET) ?? false, item!.content !== undefined);
    }
    for (const name of edits) {
      const ok = await editFile(confinement, `d/${name}`, [{ old_text: name, new_text: `${name} edited` }], false, 1 << 20).then(
        () => true,
        () => false,
      );
      count("edit", false, ok);
    }
    for (const name of range(N.mkdir, "c")) {
      const [item] = await createDirectories(confinement, [`d/${name}/sub`]);
      count("mkdir", false, !item!.error);
    }
    for (const name of moves) {
      const [item] = await moveItems(confinement, [{ source: `d/${name}`, destination: `d/${name}-moved` }], never);
      count("move", false, !item!.error);
    }
    for (const name of deletes) {
      const [item] = await deleteItems(confinement, [`d/${name}`], false, never);
      count("delete", false, !item!.error);
    }
    for (let i = 0; i < N.stat; i++) {
      const [item] = await statItems(confinement, ["d/only-outside"], AbortSignal.timeout(10_000));
      count("stat", !item!.error, false);
    }
    for (let i = 0; i < N.list; i++) {
      const listed = await listFiles(confinement, { path: "d" }, { entries: 100_000, bytes: Number.POSITIVE_INFINITY }, never).catch(
        () => undefined,
      );
      count("list", listed?.entries.some((entry) => entry.path.endsWith("only-outside")) ?? false, listed !== undefined);
    }
    for (let i = 0; i < N.search; i++) {
      const found = await searchFiles(confinement, { pattern: SECRET, path: "d", maxResults: 10 }, never).catch(() => undefined);
      count("search", (found?.matches ?? 0) > 0, found !== undefined);
      // From the root, rg itself walks into d while it is being swapped.
      const deep = await searchFiles(confinement, { pattern: SECRET, path: ".", maxResults: 10 }, never).catch(() => undefined);
      count("search", (deep?.matches ?? 0) > 0, deep !== undefined);
      const tree = await listFiles(
        confinement,
        { path: ".", recursive: true },
        { entries: 100_000, bytes: Number.POSITIVE_INFINITY },
        never,
      ).catch(() => undefined);
      count("list", tree?.entries.some((entry) => entry.path.endsWith("only-outside")) ?? false, tree !== undefined);
    }
    stopRacer(a);

    // What landed outside: new entries, changed or missing files.
    hits.write = range(N.write, "w").filter((name) => outsideHas(a, name)).length;
    hits.edit = edits.filter((name) => outsideText(a, name).includes("edited")).length;
    hits.mkdir = range(N.mkdir, "c").filter((name) => outsideHas(a, name)).length;
    hits.move = moves.filter((name) => !outsideHas(a, name) || outsideHas(a, `${name}-moved`)).length;
    hits.delete = deletes.filter((name) => !outsideHas(a, name)).length;
    const stray = readdirSync(a.outside).filter((name) => !/^(secret|only-outside|[emx]\d+|[wc]\d+|m\d+-moved)$/.test(name));
    console.log("race hits outside:", JSON.stringify(hits), "succeeded inside:", JSON.stringify(done), "stray:", stray.slice(0, 5));

    // The racer really raced: every kind of operation also succeeded inside some of the time.
    for (const kind of ["write", "read", "edit", "mkdir", "move", "delete"]) expect(done[kind], kind).toBeGreaterThan(0);
    expect(hits).toEqual({ write: 0, read: 0, edit: 0, mkdir: 0, move: 0, delete: 0, stat: 0, list: 0, search: 0 });
    expect(stray).toEqual([]);
  }, 600_000);

  it("through the MCP server: writes, reads, moves and deletes stay inside", async () => {
    const moves = range(100, "m");
    const deletes = range(100, "x");
    const a = arena(["secret", ...moves, ...deletes]);
    current = a;
    const server = await startServer({
      cwd: a.project,
      args: ["--project", a.project, "--set", "fs.allow_move=true", "--set", "fs.allow_delete=true", ...ONLY_FS],
    });
    try {
      await startRacer(a);
      let readHits = 0;
      for (const name of range(200, "w")) await server.call("write_content", { items: [{ path: `d/${name}`, content: "written\n" }] });
      for (let i = 0; i < 200; i++) if (textOf(await server.call("read_content", { paths: ["d/secret"] })).includes(SECRET)) readHits++;
      for (const name of moves) await server.call("move_items", { operations: [{ source: `d/${name}`, destination: `d/${name}-moved` }] });
      for (const name of deletes) await server.call("delete_items", { paths: [`d/${name}`] });
      stopRacer(a);
      const hits = {
        write: range(200, "w").filter((name) => outsideHas(a, name)).length,
        read: readHits,
        move: moves.filter((name) => !outsideHas(a, name)).length,
        delete: deletes.filter((name) => !outsideHas(a, name)).length,
      };
      console.log("race hits outside through MCP:", JSON.stringify(hits));
      expect(hits).toEqual({ write: 0, read: 0, move: 0, delete: 0 });
    } finally {
      await server.close();
    }
  }, 600_000);
});
