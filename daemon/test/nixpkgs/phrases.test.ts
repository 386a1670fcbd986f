// Phrases become one term only where they mean the one thing: an abbreviation that means others too stays a word.
import { describe, expect, it } from "vitest";
import { joinPhrases } from "../../src/nixpkgs/search/phrases.js";

describe("joining phrases", () => {
  it("reads symbolic mathematics as computer algebra, but not 'CAs', which are certificate authorities", () => {
    expect(joinPhrases("Do symbolic algebra and calculus")).toBe("do computeralgebra and calculus");
    expect(joinPhrases("Free computer algebra system (CAS)")).toBe("free computeralgebra (cas)");
    expect(joinPhrases("Tools to bootstrap CAs, certificate requests")).toBe("tools to bootstrap cas, certificate requests");
  });
});
