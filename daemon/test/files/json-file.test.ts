// JSON another program wrote is read through its schema: a file that is not what the schema says is
// an error naming the file and the problem, never a value trusted by a cast.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InvalidJson, parseJson, readJsonFile } from "../../src/files/json-file.js";

const schema = z.object({ artifact: z.string() });
const file = (text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), "json-file-")), "data.json");
  writeFileSync(path, text);
  return path;
};

describe("readJsonFile", () => {
  it("returns the checked value", () => {
    expect(readJsonFile(file('{"artifact": "/nix/store/x", "extra": 1}'), schema)).toEqual({ artifact: "/nix/store/x" });
  });

  it("is undefined for a file that is not there", () => {
    expect(readJsonFile("/nonexistent/data.json", schema)).toBeUndefined();
  });

  it("names the file and the field for a value of the wrong shape", () => {
    const path = file('{"artifact": 42}');
    expect(() => readJsonFile(path, schema)).toThrow(InvalidJson);
    expect(() => readJsonFile(path, schema)).toThrow(`${path}: artifact:`);
  });

  it("names the file for text that is not JSON", () => {
    const path = file("{not json");
    expect(() => readJsonFile(path, schema)).toThrow(`${path}: not JSON`);
  });

  it("checks text from elsewhere the same way", () => {
    expect(() => parseJson("[]", schema, "rg output")).toThrow(/^rg output: \(top level\)/);
  });
});
