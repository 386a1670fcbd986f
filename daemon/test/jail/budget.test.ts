// The global jail budget: first come first served up to max_jails, a bounded queue beyond, and a
// waiting call that obeys its cancellation and its time limit and hears where it stands.
import { describe, expect, it } from "vitest";
import { JailBudget, JailBudgetError } from "../../src/jail/budget.js";

const LONG = 60_000;

describe("JailBudget", () => {
  it("runs up to max_jails at once; the next waits and starts when one ends, in arrival order", async () => {
    const budget = new JailBudget(2, 10);
    const releases = await Promise.all([budget.acquire({ timeoutMs: LONG }), budget.acquire({ timeoutMs: LONG })]);
    const started: string[] = [];
    const startedAs = (name: string) => (release: () => void) => {
      started.push(name);
      return release;
    };
    const third = budget.acquire({ timeoutMs: LONG }).then(startedAs("third"));
    const fourth = budget.acquire({ timeoutMs: LONG }).then(startedAs("fourth"));
    expect(budget.usage).toEqual({ running: 2, waiting: 2 });
    releases[0]!();
    const thirdRelease = await third;
    expect(started).toEqual(["third"]);
    expect(budget.usage).toEqual({ running: 2, waiting: 1 });
    thirdRelease();
    (await fourth)();
    releases[1]!();
    expect(budget.usage).toEqual({ running: 0, waiting: 0 });
  });

  it("tells a waiting call where it stands, and again as it moves up", async () => {
    const budget = new JailBudget(1, 10);
    const release = await budget.acquire({ timeoutMs: LONG });
    const heard: [number, number][] = [];
    const first = budget.acquire({ timeoutMs: LONG });
    const second = budget.acquire({ timeoutMs: LONG, onWait: (ahead, running) => heard.push([ahead, running]) });
    expect(heard).toEqual([[1, 1]]);
    release();
    (await first)();
    (await second)();
    expect(heard).toEqual([
      [1, 1],
      [0, 1],
    ]);
  });

  it("refuses at once, in one line, when the queue is full", async () => {
    const budget = new JailBudget(1, 1);
    const release = await budget.acquire({ timeoutMs: LONG });
    const waiting = budget.acquire({ timeoutMs: LONG });
    const refused = budget.acquire({ timeoutMs: LONG });
    await expect(refused).rejects.toThrow(JailBudgetError);
    await expect(refused).rejects.toThrow("too many jails: 1 running and 1 waiting (sandbox.max_jails = 1, sandbox.max_queued_jails = 1)");
    release();
    (await waiting)();
  });

  it("lets a cancelled call leave the queue, and the ones behind it move up", async () => {
    const budget = new JailBudget(1, 10);
    const release = await budget.acquire({ timeoutMs: LONG });
    const controller = new AbortController();
    const cancelled = budget.acquire({ timeoutMs: LONG, signal: controller.signal });
    const heard: number[] = [];
    const behind = budget.acquire({ timeoutMs: LONG, onWait: (ahead) => heard.push(ahead) });
    controller.abort();
    await expect(cancelled).rejects.toThrow("cancelled while waiting for a free jail");
    expect(heard).toEqual([1, 0]);
    expect(budget.usage).toEqual({ running: 1, waiting: 1 });
    release();
    (await behind)();
    await expect(budget.acquire({ timeoutMs: LONG, signal: AbortSignal.abort() })).rejects.toThrow("cancelled before a jail started");
  });

  it("gives up on a call whose own time limit passes while it waits", async () => {
    const budget = new JailBudget(1, 10);
    const release = await budget.acquire({ timeoutMs: LONG });
    await expect(budget.acquire({ timeoutMs: 20 })).rejects.toThrow("no jail became free within 0.02 s (all 1 of sandbox.max_jails busy)");
    expect(budget.usage).toEqual({ running: 1, waiting: 0 });
    release();
  });

  it("counts a release once, however often it is called", async () => {
    const budget = new JailBudget(1, 10);
    const release = await budget.acquire({ timeoutMs: LONG });
    release();
    release();
    expect(budget.usage).toEqual({ running: 0, waiting: 0 });
  });
});
