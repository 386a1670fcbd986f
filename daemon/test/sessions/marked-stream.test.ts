import { describe, expect, it } from "vitest";
import { CappedOutput } from "../../src/jail/output.js";
import { MarkedStream } from "../../src/sandbox/sessions/marked-stream.js";

const MARKER = "__nixshed_end_0123456789abcdef__";

/** A stream fed the way the socket reader feeds it: one read at a time, into a reused buffer. */
function setup(maxBytes = 1024) {
  const stream = new MarkedStream(maxBytes);
  const area = Buffer.alloc(256);
  const source = {
    write(text: string) {
      const length = area.write(text);
      stream.feed(area.subarray(0, length));
      area.fill(0x23);
    },
    end(text: string) {
      this.write(text);
      stream.end();
    },
  };
  return { source, stream };
}

describe("MarkedStream", () => {
  it("cuts a call's output at its marker, even when the marker is split across reads", async () => {
    const { source, stream } = setup();
    const output = new CappedOutput(1024);
    const found = stream.begin(MARKER, output);
    source.write("hello __nixshed_end_0123");
    source.write("456789abcdef__ trailing");
    await found;
    expect(output.text()).toBe("hello ");
  });

  it("gives bytes that arrived between calls to the next call, and only those", async () => {
    const { source, stream } = setup();
    const first = new CappedOutput(1024);
    const firstFound = stream.begin(MARKER, first);
    source.write(`one${MARKER}late `);
    await firstFound;
    source.write("later ");
    expect(stream.waitingBytes).toBe("late later ".length);
    const second = new CappedOutput(1024);
    const secondFound = stream.begin(MARKER.replace("0123", "9999"), second);
    source.write(`two${MARKER.replace("0123", "9999")}`);
    await secondFound;
    expect(first.text()).toBe("one");
    expect(second.text()).toBe("late later two");
    expect(stream.waitingBytes).toBe(0);
  });

  it("ignores another call's marker, and keeps only the newest reads between calls within the cap", async () => {
    const { source, stream } = setup(8);
    for (const chunk of ["old-", "older-bytes-", "newest"]) {
      source.write(chunk);
    }
    const output = new CappedOutput(1024);
    const found = stream.begin(MARKER, output);
    const other = MARKER.replace("0123", "0000");
    source.write(`${other}!${MARKER}`);
    await found;
    expect(output.text()).toBe(`s-newest${other}!`);
  });

  it("ends the open call with what arrived when the stream closes", async () => {
    const { source, stream } = setup();
    const output = new CappedOutput(1024);
    const found = stream.begin(MARKER, output);
    source.end("partial __nixshed");
    await found;
    await stream.closed();
    expect(output.text()).toBe("partial __nixshed");
  });
});
