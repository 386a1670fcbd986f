// What the server says about itself in its initialize reply. Shared by the early reply
// (./early-stdio.ts) and the McpServer (../server.ts), so both say the same.
import { VERSION } from "../version.js";

export const SERVER_INFO = { name: "nixshed", version: VERSION };

export const SERVER_CAPABILITIES = { tools: { listChanged: true } };

/** The SDK's SUPPORTED_PROTOCOL_VERSIONS, newest first (a test keeps this equal to the SDK's). */
export const PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"];

/** The initialize result, negotiated as the SDK's Server does: the client's version if supported, else the newest. */
export function initializeResult(requestedVersion: unknown, instructions: string): Record<string, unknown> {
  const protocolVersion = PROTOCOL_VERSIONS.includes(requestedVersion as string) ? requestedVersion : PROTOCOL_VERSIONS[0];
  return { protocolVersion, capabilities: SERVER_CAPABILITIES, serverInfo: SERVER_INFO, ...(instructions && { instructions }) };
}
