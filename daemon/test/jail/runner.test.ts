// The jail runner against a stand-in artifact whose bin/run is a plain shell script: what the runner
// itself promises (code on its own descriptor, stdin, bounded output, the tree killed at the
// timeout with partial output kept, limit lines recognised), independent of Nix and bwrap.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { JailPolicy } from "../../src/jail/policy.js";
import { notStartedIn, prepareJail, runInJail } from "../../src/jail/runner.js";
import { CappedOutput } from "../../src/jail/output.js";
import { addToStore } from "../support/nix-store.js";

/** A stand-in artifact made by hand and added to the store (the host runs nothing else). */
function fakeArtifact(script: string): string {
  return addToStore(handMadeArtifact(script));
}

function handMadeArtifact(script: string): string {
  const dir = mkdtempSync(join(tmpdir(), "nixshed-jail-"));
  mkdirSync(join(dir, "bin"));
  writeFileSync(join(dir, "bin", "run"), `#!/bin/bash\n${script}\n`);
  chmodSync(join(dir, "bin", "run"), 0o755);
  return dir;
}

const policy = { cwd: "/workspace", network: false, timeoutMs: 10_000, maxOutputBytes: 1 << 20 } as const;
const base = { policy };

describe("runInJail", () => {
  it("passes code on its own descriptor and leaves stdin to the program", async () => {
    const artifact = fakeArtifact(
      `code=$(cat <&"$NIXSHED_JAIL_CODE_FD"); input=$(cat); echo "code=$code input=$input"; echo err >&2; exit 3`,
    );
    const result = await runInJail({ ...base, artifact, code: "print(1)", stdin: "hello" });
    expect(result).toMatchObject({ stdout: "code=print(1) input=hello\n", stderr: "err\n", exitCode: 3, timedOut: false });
    expect(result.truncated).toEqual({ stdout: 0, stderr: 0 });
  });

  it("runs argv after -- without a code descriptor", async () => {
    const artifact = fakeArtifact(`echo "args=$* fd=\${NIXSHED_JAIL_CODE_FD:-none}"`);
    const result = await runInJail({ ...base, artifact, argv: ["jq", "-n", "1"] });
    expect(result.stdout).toBe("args=-- jq -n 1 fd=none\n");
  });

  it("tells a program bwrap could not start from one that printed bwrap's words itself", async () => {
    const failedExec = fakeArtifact(`echo "bwrap: execvp $2: No such file or directory" >&2; exit 1`);
    expect(await runInJail({ ...base, artifact: failedExec, argv: ["jq", "."] })).toMatchObject({
      exitCode: 1,
      notStarted: "No such file or directory",
    });
    // A program that ran and wrote output, or code run by an interpreter, is no failed start.
    const printed = fakeArtifact(`echo out; echo "bwrap: execvp jq: No such file or directory" >&2; exit 1`);
    expect((await runInJail({ ...base, artifact: printed, argv: ["jq"] })).notStarted).toBeUndefined();
    expect((await runInJail({ ...base, artifact: failedExec, code: "" })).notStarted).toBeUndefined();
  });

  it("reads a failed start only from bwrap's exact line about the program asked for", () => {
    const failed = { exitCode: 1, stdout: "", stderr: "bwrap: execvp jq: Exec format error\n" };
    expect(notStartedIn(["jq"], policy, failed)).toBe("Exec format error");
    const not = (argv: string[], result: Partial<typeof failed>, network: JailPolicy["network"] = false) =>
      expect(notStartedIn(argv, { ...policy, network }, { ...failed, ...result })).toBeUndefined();
    not(["rg"], {}); // another program's name
    not(["jq"], { exitCode: 2 });
    not(["jq"], { stderr: `${failed.stderr}more\n` });
    not(["jq"], { stderr: "bwrap: execvp jq: anything the program wants said\n" });
    // With an allow-list the relay starts the program, so the line can only be the program's.
    not(["jq"], {}, { allow: ["example.org:443"] });
  });

  it("kills the whole process tree at the timeout and keeps the partial output", async () => {
    const marker = join(mkdtempSync(join(tmpdir(), "nixshed-jail-")), "survivor");
    const artifact = fakeArtifact(`(sleep 3; touch ${marker}) & echo started; sleep 30`);
    const result = await runInJail({ ...base, artifact, code: "", policy: { ...policy, timeoutMs: 300 } });
    expect(result.timedOut).toBe(true);
    expect(result.stdout).toBe("started\n");
    expect(result.durationMs).toBeLessThan(2500);
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(() => writeFileSync(marker, "", { flag: "wx" })).not.toThrow();
  }, 15_000);

  it("keeps head and tail of an oversized stream and counts what it dropped", async () => {
    const artifact = fakeArtifact(`head -c 100000 /dev/zero | tr '\\0' x; echo END`);
    const result = await runInJail({ ...base, artifact, code: "", policy: { ...policy, maxOutputBytes: 1000 } });
    expect(result.truncated.stdout).toBe(100_004 - 1000);
    expect(result.stdout.startsWith("x".repeat(500))).toBe(true);
    expect(result.stdout.endsWith(`${"x".repeat(496)}END\n`)).toBe(true);
  });

  it("stops on abort", async () => {
    const artifact = fakeArtifact(`sleep 30`);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await runInJail({ ...base, artifact, code: "", signal: controller.signal });
    expect(result.cancelled).toBe(true);
    expect(result.timedOut).toBe(false);
  });

  it("recognises the limit lines bin/run writes", async () => {
    const artifact = fakeArtifact(`echo "nixshed jail: memory limit reached (64 MiB): the kernel killed a process" >&2; exit 137`);
    expect((await runInJail({ ...base, artifact, code: "" })).limitHit).toBe("memory");
  });

  it("rejects a missing artifact with its path", async () => {
    await expect(runInJail({ ...base, artifact: "/nonexistent", code: "" })).rejects.toThrow("/nonexistent/bin/run");
  });

  it("runs nothing outside the store, not even through a link from inside it", async () => {
    const marker = join(mkdtempSync(join(tmpdir(), "nixshed-jail-")), "ran");
    const outside = handMadeArtifact(`touch ${marker}`);
    await expect(runInJail({ ...base, artifact: outside, code: "" })).rejects.toThrow(/jail program .*\/bin\/run is not in the Nix store/);
    const linking = mkdtempSync(join(tmpdir(), "nixshed-jail-"));
    mkdirSync(join(linking, "bin"));
    symlinkSync(join(outside, "bin", "run"), join(linking, "bin", "run"));
    await expect(runInJail({ ...base, artifact: addToStore(linking), code: "" })).rejects.toThrow(
      `(it resolves to ${join(outside, "bin", "run")})`,
    );
    expect(existsSync(marker)).toBe(false);
  });
});

describe("prepareJail", () => {
  it("passes the project only when the policy grants it, its cwd, and no other host variable", () => {
    const host = { PATH: "/bin", SECRET: "x" };
    expect(prepareJail({ ...policy, project: { dir: "/p", access: "ro", protect: [] }, cwd: "/project" }, host).env).toEqual({
      PATH: "/bin",
      NIXSHED_JAIL_CWD: "/project",
      NIXSHED_JAIL_PROJECT_DIR: "/p",
      NIXSHED_JAIL_PROJECT_ACCESS: "ro",
    });
    expect(prepareJail(policy, host).env).toEqual({ PATH: "/bin", NIXSHED_JAIL_CWD: "/workspace" });
  });
});

describe("CappedOutput", () => {
  it("keeps everything under the cap", () => {
    const out = new CappedOutput(10);
    out.push(Buffer.from("abc"));
    out.push(Buffer.from("defghij"));
    expect(out.text()).toBe("abcdefghij");
    expect(out.droppedBytes).toBe(0);
  });

  it("keeps exactly the first and last bytes for any chunking", () => {
    for (const max of [7, 64, 1000]) {
      const out = new CappedOutput(max);
      const all: Buffer[] = [];
      let seed = max;
      for (let i = 0; i < 200; i++) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        const chunk = Buffer.alloc(seed % 300, String.fromCharCode(97 + (i % 26)));
        all.push(chunk);
        out.push(Buffer.from(chunk));
      }
      const whole = Buffer.concat(all).toString();
      const head = whole.slice(0, Math.ceil(max / 2));
      const tail = whole.slice(whole.length - Math.floor(max / 2));
      expect(out.droppedBytes).toBe(whole.length - max);
      expect(out.text()).toBe(`${head}\n[… ${whole.length - max} bytes dropped …]\n${tail}`);
    }
  });

  it("describes binary output instead of dumping it, and keeps text with stray control bytes", () => {
    const binary = new CappedOutput(1000);
    binary.push(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01]));
    expect(binary.text()).toBe(
      "[binary output: 6 bytes, starting 7f 45 4c 46 00 01. Write it to a file and inspect it with file, xxd or od.]",
    );
    const controls = new CappedOutput(1000);
    controls.push(Buffer.alloc(100, 0x01));
    expect(controls.text()).toMatch(/^\[binary output: 100 bytes/);
    // All of what is kept is judged, not its first 8 KiB as a file's head is.
    const late = new CappedOutput(100_000);
    late.push(Buffer.concat([Buffer.alloc(8200, "a"), Buffer.alloc(20_000, 0)]));
    expect(late.text()).toMatch(/^\[binary output: 28200 bytes/);
    const coloured = new CappedOutput(1000);
    coloured.push(Buffer.from("\x1b[31mred\x1b[0m\tok\r\n\x07bell"));
    expect(coloured.text()).toBe("\x1b[31mred\x1b[0m\tok\r\n\x07bell");
  });

  it("shows a program's Latin-1 output as the text it is, and UTF-8 with a stray byte as UTF-8", () => {
    const latin1 = new CappedOutput(1000);
    latin1.push(Buffer.from("d\xe9j\xe0 vu\n", "latin1"));
    expect(latin1.text()).toBe("déjà vu\n");
    const stray = new CappedOutput(1000);
    stray.push(Buffer.concat([Buffer.from("naïve, then "), Buffer.from([0xff]), Buffer.from(" and more text after it\n")]));
    expect(stray.text()).toBe("naïve, then \uFFFD and more text after it\n");
  });

  it("keeps the first and last halves across many chunks", () => {
    const out = new CappedOutput(6);
    for (const chunk of ["ab", "cd", "ef", "gh", "ij"]) out.push(Buffer.from(chunk));
    expect(out.droppedBytes).toBe(4);
    expect(out.text()).toBe("abc\n[… 4 bytes dropped …]\nhij");
  });
});

describe("CappedOutput with a spool", () => {
  /** A spool in memory, capped like the real one. */
  function memorySpool(cap = Number.POSITIVE_INFINITY, showBytes = 4) {
    const chunks: Buffer[] = [];
    let opened = 0;
    const spool = {
      path: "/results/0001-run-stdout.txt",
      written: 0,
      stopped: undefined as string | undefined,
      showBytes,
      write(bytes: Uint8Array) {
        const piece = Buffer.from(bytes.subarray(0, Math.max(0, cap - spool.written)));
        chunks.push(piece);
        spool.written += piece.length;
        if (piece.length < bytes.length) spool.stopped = "its cap";
      },
      close() {},
    };
    return {
      open: () => {
        opened++;
        return spool;
      },
      whole: () => Buffer.concat(chunks).toString(),
      opened: () => opened,
    };
  }

  it("opens none while the output fits", () => {
    const spool = memorySpool();
    const out = new CappedOutput(10, 4, spool.open);
    out.push(Buffer.from("0123456789"));
    expect(spool.opened()).toBe(0);
    expect(out.text()).toBe("0123456789");
  });

  it("gets every byte, in order, for any chunking once the middle is dropped; the text names it first", () => {
    const spool = memorySpool();
    const out = new CappedOutput(8, 4, spool.open);
    const all = Array.from({ length: 50 }, (_, i) => String.fromCharCode(97 + (i % 26)).repeat(1 + (i % 7))).join("");
    for (let at = 0; at < all.length; at += 3) out.push(Buffer.from(all.slice(at, at + 3)));
    expect(spool.opened()).toBe(1);
    expect(spool.whole()).toBe(all);
    expect(out.text()).toBe(
      `${all.slice(0, 4)}\n[… line 1 of 1 omitted (${all.length - 8} bytes); all ${all.length} bytes are in /results/0001-run-stdout.txt: read_content it from start_line 1 …]\n${all.slice(-4)}`,
    );
  });

  it("shows as much of each end as an answer shows, numbering the file's lines between", () => {
    const spool = memorySpool(Number.POSITIVE_INFINITY, 8);
    const out = new CappedOutput(40, 4, spool.open);
    const lines = Array.from({ length: 30 }, (_, i) => `l${String(i + 1).padStart(2, "0")}\n`).join("");
    out.push(Buffer.from(lines));
    expect(out.text()).toBe(
      "l01\nl02\n[… lines 3-28 of 30 omitted (104 bytes); all 120 bytes are in /results/0001-run-stdout.txt: read_content it from start_line 3 …]\nl29\nl30\n",
    );
    expect(out.droppedBytes).toBe(104);
  });

  it("numbers the lines right when the answer shows all that is kept of the tail (a small sandbox.max_output_bytes)", () => {
    const spool = memorySpool(Number.POSITIVE_INFINITY, 100);
    const out = new CappedOutput(40, 4, spool.open);
    // 50 lines of 6 bytes: the last 20 kept start 4 bytes into line 47, which is omitted in part.
    out.push(Buffer.from(Array.from({ length: 50 }, (_, i) => `${String(i + 1).padStart(5, "0")}\n`).join("")));
    expect(out.text()).toContain("[… lines 4-47 of 50 omitted (260 bytes);");
    expect(out.text().endsWith(" …]\n7\n00048\n00049\n00050\n")).toBe(true);
  });

  it("cuts an end within a line between characters, counting that line as omitted", () => {
    const spool = memorySpool(Number.POSITIVE_INFINITY, 5);
    const out = new CappedOutput(40, 4, spool.open);
    out.push(Buffer.from("ééé\n".repeat(20)));
    expect(out.text()).toBe(
      "éé\n[… lines 1-20 of 20 omitted (131 bytes); all 140 bytes are in /results/0001-run-stdout.txt: read_content it from start_line 1 …]\néé\n",
    );
  });

  it("says how much it holds when its cap stopped it", () => {
    const spool = memorySpool(20);
    const out = new CappedOutput(8, 4, spool.open);
    out.push(Buffer.from("x".repeat(100)));
    expect(spool.whole()).toBe("x".repeat(20));
    expect(out.text()).toMatch(/^\[92 bytes dropped from the middle; its first 20 bytes are in \S+ \(its cap\)\]\n/);
  });

  it("is tried once: without one, the text says only what was dropped", () => {
    let tries = 0;
    const out = new CappedOutput(4, 4, () => {
      tries++;
      return undefined;
    });
    for (let i = 0; i < 10; i++) out.push(Buffer.from("abcd"));
    expect(tries).toBe(1);
    expect(out.text()).toBe("ab\n[… 36 bytes dropped …]\ncd");
  });
});
