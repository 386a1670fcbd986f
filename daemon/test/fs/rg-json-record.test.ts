// A record of rg --json is held within a bound: a line of tens of megabytes, or millions of submatches,
// come back as one record of the line's start, its number and its first submatch.
import { describe, expect, it } from "vitest";
import { MAX_RECORD_CHARS, RgJsonRecord } from "../../src/fs/rg-json-record.js";

/** rg's match record for `line` (text) with submatches at `starts`, each `length` long. */
function matchRecord(line: string, starts: number[], length = 1, lineNumber = 7): string {
  const submatches = starts.map(
    (start) => `{"match":{"text":${JSON.stringify(line.slice(start, start + length))}},"start":${start},"end":${start + length}}`,
  );
  return `{"type":"match","data":{"path":{"text":"big.log"},"lines":{"text":${JSON.stringify(line)}},"line_number":${lineNumber},"absolute_offset":120,"submatches":[${submatches.join(",")}]}}`;
}

/** Feeds `record` in pieces of `size`, as rg's output arrives, and takes it. */
function held(record: string, size = 65536): string {
  const holder = new RgJsonRecord();
  for (let at = 0; at < record.length; at += size) holder.add(record.slice(at, at + size));
  return holder.take();
}

describe("RgJsonRecord", () => {
  it("gives a record within the bound as it came, and is empty after", () => {
    const record = matchRecord("a NEEDLE b", [2], 6);
    const holder = new RgJsonRecord();
    holder.add(record.slice(0, 10));
    holder.add(record.slice(10));
    expect(holder.take()).toBe(record);
    expect(holder.take()).toBe("");
  });

  it("makes a line of 20 MB one record of its start, its number and its first submatch", () => {
    const line = `NEEDLE${"x".repeat(20_000_000)}`;
    const remade = JSON.parse(held(matchRecord(line, [0, 10_000_000], 6), 1 << 16));
    expect(remade.type).toBe("match");
    expect(remade.data.path).toEqual({ text: "big.log" });
    expect(remade.data.lines.text.startsWith("NEEDLExxx")).toBe(true);
    expect(remade.data.lines.text.length).toBeLessThanOrEqual(MAX_RECORD_CHARS);
    expect(remade.data).toMatchObject({ line_number: 7, absolute_offset: 120, submatches: [{ start: 0, end: 6 }] });
  });

  it("keeps the whole line and the first of millions of submatches (3 MB of repeats is 160 MB of record)", () => {
    const line = "x".repeat(3_000_000);
    const starts = Array.from({ length: 3_000_000 }, (_, i) => i);
    const remade = JSON.parse(held(matchRecord(line, starts)));
    expect(remade.data.lines.text).toBe(line);
    expect(remade.data.submatches).toEqual([{ start: 0, end: 1 }]);
  });

  it("cuts a line where its kept start ends, never inside an escape", () => {
    for (const filler of ["\\", "é", "\u0001", '"']) {
      const line = filler.repeat(MAX_RECORD_CHARS);
      const remade = JSON.parse(held(matchRecord(line, [5]), 4093));
      expect(remade.data.lines.text.length).toBeGreaterThan(MAX_RECORD_CHARS / 7);
      expect(line.startsWith(remade.data.lines.text)).toBe(true);
      expect(remade.data.submatches).toEqual([{ start: 5, end: 6 }]);
    }
  });

  it("makes valid JSON wherever the bound cuts what follows the line, its number kept", () => {
    const prefix = matchRecord("", []).indexOf('""},"line_number"') + 1;
    for (let short = 1; short <= 40; short++) {
      const line = "z".repeat(MAX_RECORD_CHARS - prefix - short);
      // Spaces after the record (JSON allows them) take it past the bound however short it is.
      const remade = JSON.parse(held(matchRecord(line, [0]).padEnd(MAX_RECORD_CHARS + 10, " ")));
      expect(remade.data.lines.text, `${short} short of the bound`).toBe(line);
      expect(remade.data.line_number).toBe(7);
    }
  });

  it("takes a submatch's text ending in ']' for no end of the submatches", () => {
    const line = `${"x".repeat(100)}${"]".repeat(MAX_RECORD_CHARS)}`;
    const remade = JSON.parse(held(matchRecord(line, [100], MAX_RECORD_CHARS), 9));
    expect(remade.data.submatches).toEqual([{ start: 100, end: 100 + MAX_RECORD_CHARS }]);
  });

  it("finds the line's number and the submatch however the pieces split them", () => {
    const line = "y".repeat(MAX_RECORD_CHARS + 10);
    const record = matchRecord(line, [MAX_RECORD_CHARS], 1, 1234567);
    for (const size of [1, 7, 23, 4096]) {
      const holder = new RgJsonRecord();
      holder.add(record.slice(0, MAX_RECORD_CHARS + 100));
      for (let at = MAX_RECORD_CHARS + 100; at < record.length; at += size) holder.add(record.slice(at, at + size));
      expect(JSON.parse(holder.take()).data, `pieces of ${size}`).toMatchObject({
        line_number: 1234567,
        submatches: [{ start: MAX_RECORD_CHARS, end: MAX_RECORD_CHARS + 1 }],
      });
    }
  });
});
