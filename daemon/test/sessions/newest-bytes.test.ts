import { describe, expect, it } from "vitest";
import { NewestBytes } from "../../src/sandbox/sessions/newest-bytes.js";

describe("NewestBytes", () => {
  it("keeps the newest bytes in order across the ring's wrap, a byte at a time or a chunk over the capacity", () => {
    const kept = new NewestBytes(5);
    for (const byte of Buffer.from("abcdefgh")) kept.push(Buffer.of(byte));
    expect([kept.length, kept.peek().toString()]).toEqual([5, "defgh"]);
    kept.push(Buffer.from("ij"));
    expect(kept.peek().toString()).toBe("fghij");
    kept.push(Buffer.from("0123456789"));
    expect(kept.take().toString()).toBe("56789");
    expect([kept.length, kept.take().length]).toEqual([0, 0]);
  });

  it("keeps nothing at a capacity of none", () => {
    const kept = new NewestBytes(0);
    kept.push(Buffer.from("abc"));
    expect(kept.take().length).toBe(0);
  });
});
