// MCP tool names for installed packages: `nixpkgs_` + the attribute path in [A-Za-z0-9_-], encoded
// so that it decodes back ("." → "__", "_" → "_u", anything else → "_x" + hex code + "_").
// The registry of installed tools is the source of truth; a name too long for clients (64
// characters) is shortened with a hash, and a taken name gets a numeric suffix.
import { createHash } from "node:crypto";

export const TOOL_PREFIX = "nixpkgs_";
const MAX_TOOL_NAME = 64;

export function encodeAttr(attr: string): string {
  let encoded = "";
  for (const char of attr) {
    if (/[A-Za-z0-9-]/.test(char)) encoded += char;
    else if (char === ".") encoded += "__";
    else if (char === "_") encoded += "_u";
    else encoded += `_x${char.codePointAt(0)!.toString(16)}_`;
  }
  return encoded;
}

export function decodeAttr(encoded: string): string {
  return encoded.replace(/__|_u|_x([0-9a-f]+)_/g, (match, hex: string | undefined) =>
    match === "__" ? "." : match === "_u" ? "_" : String.fromCodePoint(parseInt(hex!, 16)),
  );
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
