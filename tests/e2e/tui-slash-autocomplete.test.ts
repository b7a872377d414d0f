/**
 * Every slash command of pi 1.6.0 (the table of its installed docs/slash-commands.md) is in the built
 * CLI's `/` autocomplete with a one-line description: in tmux, for each command, the editor gets the
 * command's name and the completion row for it must read `/<name>` followed by its description on the
 * same line. Built-in commands and those plugins register (/login, /logout, /llama, /mcp) alike.
 * Skipped with the install command when pi 1.6.0 is missing.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { PI16_CLI, pi16Missing } from "../compat/pi16.js";
import { tuiSuite } from "./tui-suite.js";

const suite = tuiSuite("the slash command autocomplete test");

/** The command names of pi 1.6.0's slash command table (`| \`/name [args]\` | description |`). */
function pi16SlashCommands(): string[] {
  const doc = readFileSync(join(dirname(PI16_CLI), "..", "docs", "slash-commands.md"), "utf8");
  return [...doc.matchAll(/^\| `\/([\w-]+)[^`]*` \|/gm)].map((m) => m[1]!);
}

describe.skipIf(!suite.hasTmux || pi16Missing !== undefined)(
  "pi 1.6.0's slash commands in the / autocomplete",
  { timeout: 120_000 },
  () => {
    it("lists each with a one-line description", async () => {
      const names = pi16SlashCommands();
      expect(names.length).toBeGreaterThanOrEqual(26);
      const pane = suite.start({ height: 40, width: 140 });
      await pane.waitFor("mock-1");
      const missing: string[] = [];
      for (const name of names) {
        // All but the last letter: the whole name alone is a complete match, which closes the list.
        pane.type(`/${name.slice(0, -1)}`);
        const row = new RegExp(`/${name}\\s{2,}\\S.{3,}`);
        try {
          await pane.waitFor((screen) => screen.split("\n").some((line) => row.test(line)), {
            timeoutMs: 5_000,
            all: false,
          });
        } catch {
          missing.push(`/${name}:\n${pane.capture()}`);
        }
        pane.keys("C-u");
        await pane.waitFor((screen) => !screen.split("\n").some((line) => /^\s*\/\w/.test(line)), {
          timeoutMs: 5_000,
          all: false,
        });
      }
      expect(missing).toEqual([]);
    });
  },
);
