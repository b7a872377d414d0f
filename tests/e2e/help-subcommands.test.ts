/**
 * `pi --help` lists every subcommand: each `pi <word>` of pi 1.6.0's own `--help` (the committed
 * tests/fixtures/pi16-help.txt) is listed in ours, and each word our Commands section lists is a real
 * subcommand of the built CLI: `pi <word> --help` exits 0 and prints its usage.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { agentHome } from "./agent-home.js";

const pi16Help = readFileSync(new URL("../fixtures/pi16-help.txt", import.meta.url), "utf8");

/** The subcommand words of a help text's "Commands:" section (`  pi <word> ...`), `<command>` left out. */
function commandWords(help: string): string[] {
  const start = help.indexOf("\nCommands:\n");
  const section = help.slice(start, help.indexOf("\n\n", start + 1));
  return [...section.matchAll(/^ {2}pi ([a-z][\w-]*)/gm)].map((m) => m[1]!);
}

describe("pi --help and the subcommands (built CLI)", () => {
  it("lists every subcommand of pi 1.6.0's --help, and each listed word runs its own --help", async () => {
    const user = agentHome();
    const help = await user.pi(["--help"]);
    expect(help.code).toBe(0);
    const ours = commandWords(help.stdout);
    const pi16 = commandWords(pi16Help);
    expect(pi16).toEqual(["install", "remove", "uninstall", "update", "list", "config", "auth", "mcp"]);
    expect(pi16.filter((word) => !ours.includes(word))).toEqual([]);
    const broken: string[] = [];
    for (const word of new Set(ours)) {
      const run = await user.pi([word, "--help"]);
      if (run.code !== 0 || !/usage/i.test(run.stdout)) broken.push(`${word}: exit ${run.code} ${run.stderr}`);
    }
    expect(broken).toEqual([]);
  }, 120_000);
});
