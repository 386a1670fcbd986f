import { describe, expect, it } from "vitest";
import { BuildSlots } from "../../src/nixpkgs/execute/build-slots.js";

/** Work that runs until `finish` is called. */
function work() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const state = { started: false, finish: () => finish() };
  const run = () => {
    state.started = true;
    return done;
  };
  return { state, run };
}

describe("BuildSlots", () => {
  it("runs at most its number at once, the rest in turn as slots free, each told it waits", async () => {
    const slots = new BuildSlots(2);
    const jobs = Array.from({ length: 5 }, work);
    const waits: number[] = [];
    const held = jobs.map((job) => slots.hold(job.run, undefined, (ahead) => waits.push(ahead)));
    await Promise.resolve();
    expect(jobs.map((job) => job.state.started)).toEqual([true, true, false, false, false]);
    expect([waits, slots.queued]).toEqual([[0, 1, 2], 3]);
    jobs[0]!.state.finish();
    await held[0];
    // The freed slot went to the next in line, not to a call arriving now.
    const late = work();
    const lateHeld = slots.hold(late.run);
    await Promise.resolve();
    expect(jobs.map((job) => job.state.started)).toEqual([true, true, true, false, false]);
    expect(late.state.started).toBe(false);
    for (const job of [...jobs, late]) job.state.finish();
    await Promise.all([...held, lateHeld]);
    expect(late.state.started).toBe(true);
  });

  it("lets a waiting call be cancelled, and gives its turn to the next", async () => {
    const slots = new BuildSlots(1);
    const first = work();
    const second = work();
    const third = work();
    const controller = new AbortController();
    const held = [slots.hold(first.run), slots.hold(second.run, controller.signal), slots.hold(third.run)];
    controller.abort(new Error("cancelled"));
    await expect(held[1]).rejects.toThrow("cancelled");
    first.state.finish();
    await held[0];
    await Promise.resolve();
    expect([second.state.started, third.state.started]).toEqual([false, true]);
    third.state.finish();
    await held[2];
  });
});
