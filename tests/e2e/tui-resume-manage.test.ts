/**
 * pi 1.6.0's /resume session management in the built CLI's terminal UI, in tmux: `app.session.toggleSort`
 * (threaded: a fork under the session it came from; recent; fuzzy relevance), `app.session.rename` (a
 * `session_info` line appended to a session that is not open), `app.session.delete` (after "Delete
 * session?", never the open session) and `app.session.deleteNoninvasive` (only with an empty query), the
 * last rebound in keybindings.json by pi's action name. Fullscreen and regular mode.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { askAndWait, command, type TuiPane, tuiSuite } from "./tui-suite.js";

const suite = tuiSuite("the /resume management tests", [{ id: "alpha-1" }]);

/** The session folder of the user's project, as pi names it. */
function sessionDir(): string {
  const cwd = suite.user.project;
  return join(suite.user.agent, "sessions", `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`);
}

/** Writes a session file with one question and answer at `minute` past 10:00 on 2025-03-01. */
function writeSession(name: string, question: string, minute: number, parentSession?: string): string {
  const dir = sessionDir();
  mkdirSync(dir, { recursive: true });
  const time = `2025-03-01T10:${String(minute).padStart(2, "0")}:00.000Z`;
  const id = `0195${String(minute).padStart(4, "0")}-0000-7000-8000-00000000000${minute % 10}`;
  const path = join(dir, `${time.replace(/[:.]/g, "-")}_${id}.jsonl`);
  const header: Record<string, unknown> = { type: "session", version: 3, id, timestamp: time, cwd: suite.user.project };
  if (parentSession !== undefined) header.parentSession = parentSession;
  const ms = Date.parse(time);
  const lines = [
    header,
    {
      type: "message",
      id: "a1b2c3d4",
      parentId: null,
      timestamp: time,
      message: { role: "user", content: [{ type: "text", text: question }], timestamp: ms },
    },
    {
      type: "message",
      id: "b2c3d4e5",
      parentId: "a1b2c3d4",
      timestamp: time,
      message: {
        role: "assistant",
        content: [{ type: "text", text: `answer to ${name}` }],
        api: "openai-completions",
        provider: "mock",
        model: "alpha-1",
        usage: {
          input: 1,
          output: 1,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: 2,
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        },
        stopReason: "stop",
        timestamp: ms,
      },
    },
  ];
  writeFileSync(path, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
  return path;
}

/** The row numbers of `texts` on the screen, in the order given. */
function rowsOf(screen: string, texts: string[]): number[] {
  const rows = screen.split("\n");
  return texts.map((text) => rows.findIndex((row) => row.includes(text)));
}

/** Three stored sessions (a parent, its fork, another) and an open one with an answer; the picker open. */
async function openPicker(
  mode: "fullscreen" | "regular",
): Promise<{ pane: TuiPane; parent: string; fork: string; other: string }> {
  const parent = writeSession("parent", "parent chat", 0);
  const fork = writeSession("fork", "fork of parent", 5, parent);
  const other = writeSession("other", "unrelated chat", 3);
  writeFileSync(
    join(suite.user.agent, "keybindings.json"),
    JSON.stringify({ "app.session.deleteNoninvasive": "alt+x" }),
  );
  const pane = suite.tmux.start({
    cwd: suite.user.project,
    env: { ...suite.user.env, DISPLAY: "", WAYLAND_DISPLAY: "" },
    args: ["--model", "mock/alpha-1", "--tui-mode", mode],
    width: 120,
    height: 30,
  });
  await pane.waitFor("alpha-1");
  await askAndWait(suite, pane, "open chat", "open answer");
  command(pane, "/resume");
  await pane.waitFor(
    (s) => s.includes("Sort: Threaded") && s.includes("unrelated chat") && s.includes("└─ fork of parent"),
  );
  return { pane, parent, fork, other };
}

describe.skipIf(!suite.hasTmux)("/resume: sort, rename and delete sessions in tmux", { timeout: 90_000 }, () => {
  for (const mode of ["fullscreen", "regular"] as const) {
    it(`${mode}: ctrl+s cycles threaded (forks under their parent), recent and fuzzy order`, async () => {
      const { pane } = await openPicker(mode);
      let screen = pane.capture();
      // Threaded: the open session (newest), then the parent with its fork under it, then the other.
      const [open, parentRow, forkRow, otherRow] = rowsOf(screen, [
        "open chat",
        "parent chat",
        "└─ fork of parent",
        "unrelated chat",
      ]);
      expect(open).toBeLessThan(parentRow!);
      expect(forkRow).toBe(parentRow! + 1);
      expect(otherRow).toBeGreaterThan(forkRow!);
      pane.keys("C-s");
      screen = await pane.waitFor("Sort: Recent", { all: false });
      // Recent: newest activity first, no connectors.
      const recent = rowsOf(screen, ["open chat", "fork of parent", "unrelated chat", "parent chat"]);
      expect(recent).toEqual([...recent].sort((a, b) => a - b));
      expect(screen).not.toContain("└─");
      pane.keys("C-s");
      await pane.waitFor("Sort: Fuzzy", { all: false });
      pane.type("parent");
      // Relevance: both match in their text; ties newest first.
      screen = await pane.waitFor((s) => s.includes("filter: parent") && !s.includes("unrelated chat"), { all: false });
      const [forkMatch, parentMatch] = rowsOf(screen, ["fork of parent", "parent chat"]);
      expect(forkMatch).toBeLessThan(parentMatch!);
      pane.keys("C-s");
      await pane.waitFor("Sort: Threaded", { all: false });
    });

    it(`${mode}: ctrl+r renames a session that is not open; ctrl+d deletes one after confirming, never the open one`, async () => {
      const { pane, parent, fork, other } = await openPicker(mode);
      const before = readFileSync(other, "utf8");
      // The open session is selected first: it cannot be deleted.
      pane.keys("C-d");
      await pane.waitFor("Cannot delete the currently active session", { all: false });
      pane.type("unrelated");
      await pane.waitFor((s) => s.includes("filter: unrelated") && !s.includes("parent chat"), { all: false });
      pane.keys("C-r");
      await pane.waitFor("Rename Session:", { all: false });
      pane.type("Renamed one");
      pane.keys("Enter");
      await pane.waitFor("Session renamed: Renamed one", { all: false });
      const after = readFileSync(other, "utf8");
      expect(after.startsWith(before)).toBe(true);
      const added = after
        .slice(before.length)
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(added).toHaveLength(1);
      expect(added[0]).toMatchObject({ type: "session_info", name: "Renamed one", parentId: "b2c3d4e5" });
      // The delete asks first; Esc keeps the session.
      for (let i = 0; i < "unrelated".length; i++) pane.keys("BSpace");
      pane.type("fork of");
      await pane.waitFor((s) => s.includes("filter: fork of") && s.includes("› fork of parent"), { all: false });
      pane.keys("C-d");
      await pane.waitFor("Delete session? enter confirm", { all: false });
      pane.keys("Escape");
      await pane.waitFor((s) => !s.includes("Delete session?"), { all: false });
      expect(existsSync(fork)).toBe(true);
      pane.keys("C-d");
      await pane.waitFor("Delete session? enter confirm", { all: false });
      pane.keys("Enter");
      await pane.waitFor((s) => s.includes("Session deleted") || s.includes("Session moved to trash"), { all: false });
      expect(existsSync(fork)).toBe(false);
      expect(existsSync(parent)).toBe(true);
      // deleteNoninvasive (bound to alt+x): with a query it edits the query, with none it asks to delete.
      for (let i = 0; i < "fork of".length; i++) pane.keys("BSpace");
      pane.type("parent chat");
      await pane.waitFor("filter: parent chat", { all: false });
      pane.keys("M-x");
      await pane.waitFor((s) => s.includes("filter: parent cha") && !s.includes("filter: parent chat"), { all: false });
      for (let i = 0; i < "parent cha".length; i++) pane.keys("BSpace");
      await pane.waitFor((s) => !s.includes("filter:"), { all: false });
      pane.keys("M-x");
      await pane.waitFor("Cannot delete the currently active session", { all: false });
      pane.keys("Down");
      pane.keys("M-x");
      await pane.waitFor("Delete session? enter confirm", { all: false });
      pane.keys("Escape");
      await pane.waitFor((s) => !s.includes("Delete session?"), { all: false });
      // The open session was never touched and still answers.
      pane.keys("Escape");
      await askAndWait(suite, pane, "still here", "second open answer");
      expect(existsSync(parent)).toBe(true);
    });
  }
});
