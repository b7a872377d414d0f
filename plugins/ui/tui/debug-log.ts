/**
 * `/debug`, as pi 1.6.0 writes it: `<agentDir>/pi-debug.log` holding the terminal size, every row of
 * the current frame with its visible width (JSON-escaped, colour codes and all), then the agent
 * messages as JSONL. The file is replaced on each use.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { cellWidth } from "./text.js";

/** Where the log goes. */
export function debugLogPath(agentDir: string): string {
  return join(agentDir, "pi-debug.log");
}

/** The log's text. */
export function debugLogText(
  frame: { width: number; height: number; lines: readonly string[] },
  messages: readonly unknown[],
  now: Date = new Date(),
): string {
  return [
    `Debug output at ${now.toISOString()}`,
    `Terminal: ${frame.width}x${frame.height}`,
    `Total lines: ${frame.lines.length}`,
    "",
    "=== All rendered lines with visible widths ===",
    ...frame.lines.map((line, index) => `[${index}] (w=${cellWidth(line)}) ${JSON.stringify(line)}`),
    "",
    "=== Agent messages (JSONL) ===",
    ...messages.map((message) => JSON.stringify(message)),
    "",
  ].join("\n");
}

/** Writes the log; returns its path. */
export function writeDebugLog(agentDir: string, text: string): string {
  const path = debugLogPath(agentDir);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}
