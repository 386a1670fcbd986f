import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, constants, linkSync, mkdirSync, openSync, renameSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { releaseIgnoreFifos } from "../../src/fs/ignore-fifos.js";
import { fixture, never } from "./fixture.js";
import { mkfifoSync } from "./mkfifo.js";

/** A process reading `path` (a FIFO) until end of file: it waits in open until something opens the other end. */
const reader = (path: string) => spawn("cat", [path], { stdio: "ignore" });
const ended = (child: ChildProcess) => new Promise<void>((resolve) => child.once("exit", () => resolve()));

describe("releasing ignore FIFOs", () => {
  it("releases the FIFO it found, never what takes its name later", async () => {
    const f = await fixture();
    for (const dir of ["x", "y"]) {
      mkdirSync(join(f.root, dir));
      mkfifoSync(join(f.root, dir, ".ignore"));
    }
    const root = openSync(f.root, constants.O_RDONLY | constants.O_DIRECTORY);
    const release = releaseIgnoreFifos({ rootFd: root, below: "" }, undefined, never);
    try {
      // Found and released: a reader of x/.ignore (as rg would be) reads to its end.
      await ended(reader(join(f.root, "x/.ignore")));
      // Another FIFO, with a reader of its own, takes x/.ignore's name.
      mkfifoSync(join(f.root, "other"));
      // Read through a second name, which stays: the reader may open it before or after the swap.
      linkSync(join(f.root, "other"), join(f.root, "other-too"));
      const other = reader(join(f.root, "other-too"));
      let otherEnded = false;
      other.once("exit", () => {
        otherEnded = true;
      });
      renameSync(join(f.root, "other"), join(f.root, "x/.ignore"));
      // Rounds of releases that began after the swap (each opens x/.ignore before y/.ignore): time
      // enough for the other reader, had it been released in the first, to have ended.
      for (let round = 0; round < 5; round++) await ended(reader(join(f.root, "y/.ignore")));
      expect(otherEnded).toBe(false);
      other.kill();
    } finally {
      release.stop();
      closeSync(root);
    }
  });
});
