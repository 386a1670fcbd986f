// Allow-list entries: what each form means, what is refused with a reason, and how requests match.
import { describe, expect, it } from "vitest";
import { AllowList, destinationProblem, normalHost, parseDestination } from "../../src/config/destinations.js";

describe("parseDestination", () => {
  it.each([
    ["example.org", { kind: "name", host: "example.org" }],
    ["Example.ORG.", { kind: "name", host: "example.org" }],
    ["api.example.com:8443", { kind: "name", host: "api.example.com", port: 8443 }],
    ["*.example.net", { kind: "subdomains", host: "example.net" }],
    ["localhost", { kind: "name", host: "localhost" }],
    ["127.0.0.1:5432", { kind: "address", host: "127.0.0.1", port: 5432 }],
    ["[::1]:8080", { kind: "address", host: "::1", port: 8080 }],
    ["[0:0::1]", { kind: "address", host: "::1" }],
    ["fd00:ec2::254", { kind: "address", host: "fd00:ec2::254" }],
  ])("%s", (text, expected) => {
    expect(parseDestination(text)).toEqual({ text, ...expected });
  });

  it.each([
    ["https://example.org", "not a URL"],
    ["*", "network = true"],
    ["example.org:0", "1-65535"],
    ["example.org:70000", "1-65535"],
    ["py*.org", "leading"],
    ["*.com", "two labels"],
    ["example.org/simple", "not a host name"],
    ["", "not a host name"],
    ["[example.org]:443", "IPv6"],
    ["1.2.3", "not a host name"],
  ])("refuses %j", (text, why) => {
    expect(destinationProblem(text)).toContain(why);
    expect(destinationProblem(text)).toContain('e.g. "example.org"');
  });
});

describe("AllowList", () => {
  const list = new AllowList(["example.org", "*.example.net", "api.example.com:8443", "127.0.0.1:5432", "[::1]"]);

  it("matches names exactly, wildcards below their domain and ports where given", () => {
    expect(list.allowsHost("example.org", 443)).toBe(true);
    expect(list.allowsHost("example.org", 22)).toBe(true);
    expect(list.allowsHost("files.example.org", 443)).toBe(false);
    expect(list.allowsHost("raw.example.net", 443)).toBe(true);
    expect(list.allowsHost("a.b.example.net", 443)).toBe(true);
    expect(list.allowsHost("example.net", 443)).toBe(false);
    expect(list.allowsHost("evilexample.net", 443)).toBe(false);
    expect(list.allowsHost("api.example.com", 8443)).toBe(true);
    expect(list.allowsHost("api.example.com", 443)).toBe(false);
  });

  it("matches addresses only as addresses, in canonical form", () => {
    expect(list.allowsHost("127.0.0.1", 5432)).toBe(true);
    expect(list.allowsHost("127.0.0.1", 5433)).toBe(false);
    expect(list.allowsHost(normalHost("[0:0:0:0:0:0:0:1]"), 9)).toBe(true);
    expect(list.allowsHost(normalHost("::ffff:127.0.0.1"), 5432)).toBe(false);
    expect(list.listsAddress("127.0.0.1", 5432)).toBe(true);
    expect(list.listsAddress("127.0.0.1", 80)).toBe(false);
    expect(new AllowList(["localhost"]).listsAddress("127.0.0.1", 80)).toBe(false);
  });

  it("has no wildcard over addresses", () => {
    expect(destinationProblem("*.0.0.1")).toContain("wildcard");
    expect(new AllowList(["*.example.com"]).allowsHost("127.0.0.1", 80)).toBe(false);
  });
});
