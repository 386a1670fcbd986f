// A realisation's progress rises with every notification, as MCP asks, however long a step goes on.
import { describe, expect, it } from "vitest";
import { BuildProgress } from "../../src/nixpkgs/execute/build-progress.js";

describe("BuildProgress", () => {
  it("rises with each step and each beat between, a beat never reaching the next step, however many", () => {
    const said: { done: number; total?: number; message: string }[] = [];
    const progress = new BuildProgress((done, total, message) => said.push({ done, total, message }));
    progress.step("evaluating hello");
    for (let i = 0; i < 3; i++) progress.beat();
    progress.step("building hello-2.12", 2);
    for (let i = 0; i < 10_000; i++) progress.beat();
    progress.step("building hello-env", 2);
    progress.beat();
    expect(said.every((each, i) => i === 0 || each.done > said[i - 1]!.done)).toBe(true);
    expect(said[1]).toEqual({ done: 0.5, total: undefined, message: "evaluating hello (0 s)" });
    expect(said.filter((each) => Number.isInteger(each.done)).map(({ done, total }) => [done, total])).toEqual([
      [0, undefined],
      [1, 2],
      [2, 2],
    ]);
  });
});
