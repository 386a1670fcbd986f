// Which addresses count as non-public (reachable only when listed exactly), IPv6 forms that carry
// an IPv4 address included, and the canonical form listed addresses are compared in.
import { describe, expect, it } from "vitest";
import { canonicalAddress, nonPublicKind } from "../../src/config/addresses.js";

describe("nonPublicKind", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.1.2", "loopback"],
    ["0.0.0.0", "unspecified"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "shared"],
    ["169.254.169.254", "metadata"],
    ["100.100.100.200", "metadata"],
    ["169.254.10.1", "link-local"],
    ["224.0.0.251", "multicast"],
    ["255.255.255.255", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link-local"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["fd00:ec2::254", "metadata"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:169.254.169.254", "metadata"],
    ["::ffff:10.0.0.1", "private"],
    ["::127.0.0.1", "loopback"],
    ["64:ff9b::10.0.0.1", "private"],
    ["64:ff9b::7f00:1", "loopback"],
    ["2002:7f00:1::", "loopback"],
    ["2002:c0a8:0101::1", "private"],
    ["fe80::1%eth0", "link-local"],
  ])("%s is %s", (address, kind) => {
    expect(nonPublicKind(address)).toContain(kind);
  });

  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700::1111",
    "::ffff:8.8.8.8",
    "2002:0808:0808::1",
    "64:ff9b::8.8.8.8",
  ])("%s is public", (address) => {
    expect(nonPublicKind(address)).toBeUndefined();
  });

  it("calls anything else not an IP address", () => {
    expect(nonPublicKind("localhost")).toBe("not an IP address");
  });
});

describe("canonicalAddress", () => {
  it("writes IPv6 in its shortest lowercase form and IPv4 as is", () => {
    expect(canonicalAddress("0:0:0:0:0:0:0:1")).toBe("::1");
    expect(canonicalAddress("FD00:EC2:0:0:0:0:0:254")).toBe("fd00:ec2::254");
    expect(canonicalAddress("::ffff:127.0.0.1")).toBe("::ffff:7f00:1");
    expect(canonicalAddress("2001:db8:0:0:1:0:0:1")).toBe("2001:db8::1:0:0:1");
    expect(canonicalAddress("127.0.0.1")).toBe("127.0.0.1");
    expect(canonicalAddress("example.org")).toBeUndefined();
  });
});
