import { describe, expect, it } from "vitest";
import { encodeRequest, newMarker, ReplyParser, type KernelReply } from "../../src/sandbox/sessions/protocol.js";

describe("session protocol", () => {
  it("frames a request as a header line, then code and stdin each ended by a NUL byte", () => {
    const frame = encodeRequest({ id: 7, marker: "M", code: Buffer.from("print('é')"), stdin: Buffer.from("in") });
    expect(frame.toString()).toBe("7 M 11 2\nprint('é')\0in\0");
  });

  it("makes a different marker for every call", () => {
    expect(newMarker()).not.toBe(newMarker());
    expect(newMarker()).toMatch(/^__nixshed_end_[0-9a-f]{32}__$/);
  });

  it("parses replies split anywhere across reads", () => {
    const replies: KernelReply[] = [];
    const parser = new ReplyParser((reply) => replies.push(reply));
    parser.push(Buffer.from("ready 12\ndone 1 0 -\ndo"));
    parser.push(Buffer.from("ne 2 130 interrupted\n"));
    expect(replies).toEqual([
      { kind: "ready", pid: 12 },
      { kind: "done", id: 1, exitCode: 0, interrupted: false },
      { kind: "done", id: 2, exitCode: 130, interrupted: true },
    ]);
  });

  it("refuses bytes longer than any reply before their line ends, holding none of them", () => {
    const parser = new ReplyParser(() => {});
    expect(() => parser.push(Buffer.alloc(1 << 20, "A"))).toThrow(/malformed reply: "A{80}"/);
    const split = new ReplyParser(() => {});
    split.push(Buffer.from("done 1 0 "));
    expect(() => split.push(Buffer.alloc(100, "-"))).toThrow(/malformed reply/);
  });

  it("refuses a line that is not a reply", () => {
    const parser = new ReplyParser(() => {});
    expect(() => parser.push(Buffer.from("hello from user code\n"))).toThrow(/malformed reply/);
  });
});
