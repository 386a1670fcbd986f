// The queue under the jail budget and package builds (daemon/test/jail/budget.test.ts covers its order and moves):
// a slot let go goes to the next in line, not to a caller arriving meanwhile, and a caller that leaves is told why
// in its user's words.
import { describe, expect, it } from "vitest";
import { SlotQueue } from "../src/slot-queue.js";

const LONG = 60_000;
const reasons = { timedOut: (ms: number) => new Error(`waited ${ms} ms`), cancelled: () => new Error("cancelled") };

describe("SlotQueue", () => {
  it("hands a slot let go to the next in line, not to a caller arriving meanwhile", async () => {
    const queue = new SlotQueue(1);
    const release = await queue.acquire({ timeoutMs: LONG }, reasons);
    const next = queue.acquire({ timeoutMs: LONG }, reasons);
    release();
    expect(queue.full).toBe(true);
    const late = queue.acquire({ timeoutMs: LONG }, reasons);
    expect(queue.usage).toEqual({ running: 1, waiting: 1 });
    (await next)();
    (await late)();
    expect(queue.usage).toEqual({ running: 0, waiting: 0 });
  });

  it("tells a caller whose wait runs out, or that is cancelled, why in the words it was given", async () => {
    const queue = new SlotQueue(1);
    const release = await queue.acquire({ timeoutMs: LONG }, reasons);
    await expect(queue.acquire({ timeoutMs: 1 }, reasons)).rejects.toThrow("waited 1 ms");
    const controller = new AbortController();
    const cancelled = queue.acquire({ timeoutMs: LONG, signal: controller.signal }, reasons);
    controller.abort();
    await expect(cancelled).rejects.toThrow("cancelled");
    expect(queue.usage).toEqual({ running: 1, waiting: 0 });
    release();
  });

  it("refuses a caller cancelled before it asks at once, free slot or not, and holds no place for it", async () => {
    // A build cancelled before its turn waited out its whole time limit in the queue: an aborted signal fires no more.
    const queue = new SlotQueue(1);
    const release = await queue.acquire({ timeoutMs: LONG }, reasons);
    const late = queue.acquire({ timeoutMs: LONG, signal: AbortSignal.abort() }, reasons);
    expect(queue.usage).toEqual({ running: 1, waiting: 0 });
    await expect(late).rejects.toThrow("cancelled");
    release();
    await expect(queue.acquire({ timeoutMs: LONG, signal: AbortSignal.abort() }, reasons)).rejects.toThrow("cancelled");
    expect(queue.usage).toEqual({ running: 0, waiting: 0 });
  });
});
