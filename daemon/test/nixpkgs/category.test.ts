import { describe, expect, it } from "vitest";
import { categoryTerms } from "../../src/nixpkgs/index/category.js";
import { textTerms } from "../../src/nixpkgs/search/text.js";

describe("the folder nixpkgs files a package in", () => {
  it("gives a top-level package the words of its folders, not the generic ones", () => {
    expect(categoryTerms({ attr: "wireshark", position: "pkgs/applications/networking/sniffers/wireshark/default.nix:216" })).toEqual(
      textTerms("networking sniffers"),
    );
    expect(categoryTerms({ attr: "pass", position: "pkgs/tools/security/pass/default.nix:192" })).toEqual(textTerms("security"));
  });

  it("gives nothing for pkgs/by-name, a shared file, a set member or no position", () => {
    expect(categoryTerms({ attr: "jq", position: "pkgs/by-name/jq/jq/package.nix:125" })).toEqual([]);
    expect(categoryTerms({ attr: "hello", position: "pkgs/top-level/all-packages.nix:900" })).toEqual([]);
    expect(
      categoryTerms({ attr: "python313Packages.ocrmypdf", position: "pkgs/development/python-modules/ocrmypdf/default.nix:101" }),
    ).toEqual([]);
    expect(categoryTerms({ attr: "x", position: "" })).toEqual([]);
  });
});
