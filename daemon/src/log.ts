// Logs go to stderr only: stdout carries the MCP protocol.
export type LogLevel = "error" | "warn" | "info" | "debug";

const rank: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

export interface Logger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
}

export function createLogger(level: LogLevel, write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  const at = (lineLevel: LogLevel) => (message: string) => {
    if (rank[lineLevel] <= rank[level]) write(`nixshed ${lineLevel}: ${message}\n`);
  };
  return { error: at("error"), warn: at("warn"), info: at("info"), debug: at("debug") };
}
