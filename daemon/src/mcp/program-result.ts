// How the result of a jailed program is shown to the agent: shared by `run` (one-off and session
// calls) and the nixpkgs tools, so they report output, limits and truncation in the same words.
import { z } from "zod";
import { egressReportShape } from "../jail/egress/report.js";
import type { JailResult } from "../jail/runner.js";

export type ProgramResult = Pick<
  JailResult,
  "stdout" | "stderr" | "exitCode" | "durationMs" | "waitedMs" | "timedOut" | "truncated" | "outputIn" | "limitHit" | "network"
>;

export const programResultShape = {
  stdout: z.string(),
  stderr: z.string(),
  exit_code: z.number().int().nullable().describe("The program's exit code; 128+N when signal N killed it"),
  duration_ms: z.number().int(),
  waited_ms: z.number().int().optional().describe("How long the call waited for a free jail, part of its timeout"),
  timed_out: z.boolean(),
  truncated: z.object({ stdout: z.number().int(), stderr: z.number().int() }).describe("Bytes dropped from the middle of each stream"),
  output_in: z
    .object({ stdout: z.string().optional(), stderr: z.string().optional() })
    .optional()
    .describe("Files holding all of a stream shown only in part (read_content pages them)"),
  limit_hit: z.enum(["memory", "processes"]).optional().describe("A jail limit the program ran into"),
  network: egressReportShape.optional(),
};

export type ProgramResultOutput = z.infer<z.ZodObject<typeof programResultShape>>;

export function programResultOutput(result: ProgramResult): ProgramResultOutput {
  return {
    stdout: result.stdout,
    stderr: result.stderr,
    exit_code: result.exitCode,
    duration_ms: result.durationMs,
    ...(result.waitedMs !== undefined ? { waited_ms: result.waitedMs } : {}),
    timed_out: result.timedOut,
    truncated: result.truncated,
    ...(result.outputIn ? { output_in: result.outputIn } : {}),
    ...(result.limitHit ? { limit_hit: result.limitHit } : {}),
    ...(result.network ? { network: result.network } : {}),
  };
}

/** Timeout, limit and truncation, in words (empty when none happened). */
export function programFacts(
  output: Pick<ProgramResultOutput, "timed_out" | "limit_hit" | "truncated" | "network" | "waited_ms">,
  timeoutWords: string,
): string[] {
  const facts: string[] = [];
  if (output.waited_ms !== undefined) facts.push(`waited ${output.waited_ms} ms for a free jail`);
  if (output.timed_out) facts.push(`${timeoutWords} (timeout_seconds gives it longer)`);
  if (output.limit_hit) facts.push(`${output.limit_hit} limit reached`);
  if (output.network?.allowed.length) facts.push(`network allowed: ${output.network.allowed.join(" ")}`);
  for (const { destination, reason } of output.network?.blocked ?? []) facts.push(`network blocked ${destination}: ${reason}`);
  for (const stream of ["stdout", "stderr"] as const) {
    if (output.truncated[stream] > 0) facts.push(`${stream}: ${output.truncated[stream]} bytes dropped from the middle`);
  }
  return facts;
}

/** The heading lines, then each non-empty stream under its name: parts of the text, each cut on its own when the answer is too long. */
export function renderStreams(lines: string[], output: { stdout: string; stderr: string }): string[] {
  const sections = (["stdout", "stderr"] as const).filter((stream) => output[stream]).map((stream) => `--- ${stream}\n${output[stream]}`);
  return [lines.join("\n"), ...sections];
}
