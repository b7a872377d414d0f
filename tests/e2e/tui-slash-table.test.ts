/**
 * Every slash command of pi 1.6.0 runs in the built CLI's terminal UI: one tmux test per command, from one
 * table. Each test starts pi on a fresh user with one finished exchange in the session, types the command
 * and waits for what the command shows (its picker, its notice, its file), then leaves it the way a person
 * would. The table's names must be exactly those of pi 1.6.0's docs/slash-commands.md, so a command pi adds
 * fails here until it has a row. The deeper behaviour of each command has its own tests (tui-commands,
 * tui-more-commands, tui-commands-rest, tui-tree, tui-export, tui-quit, tui-llama...).
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { PI16_CLI, pi16Missing } from "../compat/pi16.js";
import { completionsText } from "./agent-home.js";
import { askAndWait, command, type TuiPane, type TuiSuite, tuiSuite } from "./tui-suite.js";

const suite = tuiSuite("the table of pi 1.6.0's slash commands");

/** One command: the line typed, what must show, and the keys that close it (Escape for a picker). */
interface SlashRow {
  name: string;
  line: string;
  shows: string | RegExp;
  leave?: string[];
  /** Extra model answers the command itself asks for (a compaction's summary). */
  answers?: string[];
  /** A check on disk after the command showed its result. */
  check?: (suite: TuiSuite) => void;
  /** Environment for pi's process. */
  env?: () => Record<string, string>;
  /** Exchanges in the session before the command (default 1). */
  exchanges?: number;
  /** Read the scrollback too (output taller than the screen; with `tuiMode: "regular"`). */
  scrollback?: true;
  /** The user's settings.json. */
  settings?: Record<string, unknown>;
}

/** A PATH whose `gh` says it is not logged in, so /share never reaches a real account. */
function loggedOutGh(): Record<string, string> {
  const bin = mkdtempSync(join(tmpdir(), "pi-table-gh-"));
  writeFileSync(join(bin, "gh"), "#!/bin/sh\nexit 1\n");
  chmodSync(join(bin, "gh"), 0o755);
  return { PATH: `${bin}:/usr/bin:/bin` };
}

const TABLE: SlashRow[] = [
  { name: "settings", line: "/settings", shows: "steeringMode", leave: ["Escape"] },
  { name: "model", line: "/model", shows: "Select a model", leave: ["Escape"] },
  { name: "thinking", line: "/thinking", shows: "Thinking level", leave: ["Escape"] },
  { name: "scoped-models", line: "/scoped-models", shows: "Model Configuration", leave: ["Escape"] },
  { name: "login", line: "/login", shows: "Select a provider to log in to", leave: ["Escape"] },
  { name: "logout", line: "/logout", shows: "No provider is logged in." },
  { name: "llama", line: "/llama", shows: "Configure llama.cpp: set LLAMA_BASE_URL" },
  { name: "new", line: "/new", shows: /^(?![\s\S]*first answer)/ },
  { name: "resume", line: "/resume", shows: "Resume a session", leave: ["Escape"] },
  { name: "name", line: "/name table row", shows: "Session name set: table row" },
  { name: "session", line: "/session", shows: "tokens:" },
  { name: "tree", line: "/tree", shows: "Session Tree", leave: ["Escape"] },
  { name: "fork", line: "/fork", shows: "Fork from a message", leave: ["Escape"] },
  {
    name: "clone",
    line: "/clone",
    shows: "Cloned into a new session",
    check: (s) => expect(s.user.sessionFiles()).toHaveLength(2),
  },
  {
    name: "compact",
    line: "/compact",
    shows: "Compacted",
    answers: ["## Goal\nthe table summary", "## Goal\nthe turn summary"],
    exchanges: 3,
    settings: { compaction: { keepRecentTokens: 1 } },
  },
  { name: "import", line: "/import", shows: "Usage: /import <path.jsonl>" },
  { name: "copy", line: "/copy", shows: "Copied the last assistant message" },
  {
    name: "export",
    line: "/export table.html",
    shows: "Session exported to: table.html",
    check: (s) => expect(readFileSync(join(s.user.project, "table.html"), "utf8")).toContain("first question"),
  },
  { name: "share", line: "/share", shows: "GitHub CLI is not logged in. Run 'gh auth login' first.", env: loggedOutGh },
  { name: "bug", line: "/bug", shows: "Include the session transcript?", leave: ["Escape"] },
  { name: "trust", line: "/trust", shows: "Saved decision:", leave: ["Escape"] },
  { name: "mcp", line: "/mcp", shows: "No MCP servers are configured" },
  { name: "reload", line: "/reload", shows: "Reloading plugins" },
  { name: "hotkeys", line: "/hotkeys", shows: "Keyboard Shortcuts" },
  { name: "changelog", line: "/changelog", shows: "What's New", settings: { tuiMode: "regular" }, scrollback: true },
  { name: "quit", line: "/quit", shows: /\[pi exited 0\]/ },
];

/** The command names of pi 1.6.0's slash command table (`| \`/name [args]\` | description |`). */
function pi16SlashCommands(): string[] {
  const doc = readFileSync(join(dirname(PI16_CLI), "..", "docs", "slash-commands.md"), "utf8");
  return [...doc.matchAll(/^\| `\/([\w-]+)[^`]*` \|/gm)].map((m) => m[1]!);
}

/** Whether the screen shows `shows` (a regular expression is tested against the whole screen). */
function showing(screen: string, shows: string | RegExp): boolean {
  return typeof shows === "string" ? screen.includes(shows) : shows.test(screen);
}

describe.skipIf(!suite.hasTmux)("each pi 1.6.0 slash command runs in tmux", { timeout: 90_000 }, () => {
  it.skipIf(pi16Missing !== undefined)("the table holds exactly pi 1.6.0's commands", () => {
    expect(TABLE.map((row) => row.name).sort()).toEqual(pi16SlashCommands().sort());
  });

  it.each(TABLE.map((row) => [row.name, row] as const))("/%s", async (_name, row) => {
    if (row.settings) writeFileSync(join(suite.user.agent, "settings.json"), JSON.stringify(row.settings));
    const pane: TuiPane = suite.start({ width: 120, height: 40, env: row.env?.() });
    await pane.waitFor("mock-1");
    for (let i = 1; i <= (row.exchanges ?? 1); i++) {
      await askAndWait(
        suite,
        pane,
        i === 1 ? "first question" : `question ${i}`,
        i === 1 ? "first answer" : `answer ${i}`,
      );
    }
    for (const answer of row.answers ?? []) suite.server.enqueue({ sse: completionsText(answer) });
    command(pane, row.line);
    const all = row.name === "quit" || row.scrollback === true;
    await pane.waitFor((screen) => showing(screen, row.shows) && !screen.includes("Working…"), { all });
    row.check?.(suite);
    if (row.name === "quit") {
      expect(pane.exitCode()).toBe(0);
      return;
    }
    if (row.leave !== undefined) {
      // The picker or dialog closes before anything else is typed (an Escape followed at once by a letter
      // reads as Alt+letter).
      pane.keys(...row.leave);
      await pane.waitFor((screen) => !showing(screen, row.shows), { all: false });
    }
    // pi is still there and takes a prompt after the command.
    await askAndWait(suite, pane, "after the command", `answer after /${row.name}`);
    expect(existsSync(suite.user.agent)).toBe(true);
  });
});
