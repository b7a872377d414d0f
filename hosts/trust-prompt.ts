/**
 * The startup question of the interactive mode, asked once before the session starts when a folder holds
 * protected project resources and nothing decided about it yet (pi's "ask"). A plain line on the
 * terminal, so it works before any plugin (the TUI) runs.
 */
import { createInterface } from "node:readline/promises";
import type { TrustAnswer } from "./trust-decision.js";

/** Asks on the process's terminal; anything but a clear yes or "once" is no. */
export async function askOnTerminal(cwd: string, resources: string[]): Promise<TrustAnswer> {
  const readline = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  // Ctrl+C at the question ends pi before anything loaded or was saved, as shells expect (128 + SIGINT).
  readline.on("SIGINT", () => {
    process.stdout.write("\n");
    process.exit(130);
  });
  try {
    process.stdout.write(
      `This folder has project files that can run code or steer the agent:\n  ${cwd}\n  ${resources.join(", ")}\n` +
        `Trust it? [y] trust (saved)  [o] trust this time only  [n] do not trust (saved)\n`,
    );
    const answer = (await readline.question("> ")).trim().toLowerCase();
    return parseTrustAnswer(answer);
  } finally {
    readline.close();
  }
}

/** The answer a typed line stands for. */
export function parseTrustAnswer(line: string): TrustAnswer {
  const word = line.trim().toLowerCase();
  if (word === "y" || word === "yes" || word === "trust") return "trust";
  if (word === "o" || word === "once" || word === "t" || word === "this time") return "once";
  return "no";
}
