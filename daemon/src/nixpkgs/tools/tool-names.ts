// MCP tool names for installed packages: `nixpkgs_` + the attribute path in [A-Za-z0-9_-], encoded
// so that it decodes back: "." → "__", any other character but a letter, digit or "-" → "_x" + hex
// code + "_", except a "_" that reads back as itself (ghostscript_headless stays as it is).
// The registry of installed tools is the source of truth; a name too long for clients (64
// characters) is shortened with a hash, and a taken name gets a numeric suffix.
import { createHash } from "node:crypto";

export const TOOL_PREFIX = "nixpkgs_";
const MAX_TOOL_NAME = 64;

const PLAIN = /[A-Za-z0-9-]/;
const ESCAPE = /__|_x([0-9a-f]+)_/g;

export function encodeAttr(attr: string): string {
  let encoded = "";
  const chars = [...attr];
  for (const [i, char] of chars.entries()) {
    const after = chars.slice(i + 1).join("");
    // A "_" before a plain character is itself, unless what follows would read as an escape ("_x41_").
    const literal = char === "_" && PLAIN.test(after.charAt(0)) && !/^x[0-9a-f]+_/.test(after);
    if (PLAIN.test(char) || literal) encoded += char;
    else if (char === ".") encoded += "__";
    else encoded += `_x${char.codePointAt(0)!.toString(16)}_`;
  }
  return encoded;
}

export function decodeAttr(encoded: string): string {
  return encoded.replace(ESCAPE, (match, hex: string | undefined) => (match === "__" ? "." : String.fromCodePoint(parseInt(hex!, 16))));
}

/** The tool name for an attribute, unique among `taken`. */
export function toolNameFor(attr: string, taken: ReadonlySet<string>): string {
  let base = `${TOOL_PREFIX}${encodeAttr(attr)}`;
  if (base.length > MAX_TOOL_NAME)
    base = `${base.slice(0, MAX_TOOL_NAME - 9)}-${createHash("sha256").update(attr).digest("hex").slice(0, 8)}`;
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const name = `${base.slice(0, MAX_TOOL_NAME - suffix.length)}${suffix}`;
    if (!taken.has(name)) return name;
  }
}
