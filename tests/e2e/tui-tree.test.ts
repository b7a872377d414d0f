/**
 * `/tree` in the built CLI under tmux, as a user meets it: pi 1.6.0's filters (Ctrl+O cycles them, the
 * status row names the one shown, `treeFilterMode` picks the first) and, on moving to another branch,
 * pi's "Summarize branch?" question; "Summarize" asks the model for a summary of the branch left and
 * writes it to the session file as a `branch_summary` entry after the point moved to.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, completionsText, completionsToolCall, sessionLines } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";
import { HAS_TMUX, TmuxServer } from "./tmux-pane.js";

if (!HAS_TMUX) console.log("tui-tree tests skipped: tmux is not installed");

let tmux: TmuxServer | undefined;
let server: MockLlmServer | undefined;
beforeAll(() => {
  if (!existsSync(PI_BIN)) throw new Error(`${PI_BIN} is missing; run "npm run build" first`);
  if (HAS_TMUX) tmux = new TmuxServer();
});
afterAll(() => tmux?.close());
afterEach(async () => {
  tmux?.killPanes();
  await server?.close();
  server = undefined;
});

describe.skipIf(!HAS_TMUX)("/tree filters and branch summaries (built CLI in tmux)", { timeout: 120_000 }, () => {
  it("Ctrl+O cycles the filters from treeFilterMode; Summarize writes the branch summary the model gave", async () => {
    server = await new MockLlmServer().start();
    server.enqueue({ sse: completionsToolCall("call-1", "ls", { path: "." }) });
    server.enqueue({ sse: completionsText("first answer") });
    server.enqueue({ sse: completionsText("second answer") });
    server.enqueue({ sse: completionsText("## Goal\nThe branch left behind listed files.") });
    const user = agentHome();
    user.useMockServer(server.url);
    writeFileSync(
      join(user.agent, "settings.json"),
      JSON.stringify({ defaultProvider: "mock", defaultModel: "mock-1", treeFilterMode: "no-tools" }),
    );
    const pane = tmux!.start({ cwd: user.project, env: user.env, width: 100, height: 36, watch: "screen" });
    await pane.waitFor("mock-1");
    pane.type("list the files");
    pane.keys("Enter");
    await pane.waitFor("first answer");
    pane.type("another question");
    pane.keys("Enter");
    await pane.waitFor("second answer");

    pane.type("/tree");
    pane.keys("Enter");
    // The setting's filter first: no tool results.
    const noTools = await pane.waitFor((s) => s.includes("Session Tree") && s.includes("[no-tools]"));
    expect(noTools).toContain("user: list the files");
    expect(noTools).not.toContain("[ls: .]");
    pane.keys("C-o");
    const userOnly = await pane.waitFor("[user]");
    expect(userOnly).toContain("(2/2) [user]");
    expect(userOnly).not.toContain("assistant: first answer");
    pane.keys("C-o");
    await pane.waitFor("(0/0) [labeled]");
    pane.keys("C-o");
    const all = await pane.waitFor("[all]");
    expect(all).toContain("[ls: .]");
    expect(all).toContain("[model: mock-1]");
    pane.keys("C-o");
    const back = await pane.waitFor((s) => !s.includes("[all]") && s.includes("[ls: .]"));
    expect(back).toContain("assistant: second answer");

    // Move back to the first answer: pi asks about the branch being left.
    pane.type("first answer");
    pane.keys("Enter");
    const asked = await pane.waitFor("Summarize branch?");
    expect(asked).toContain("No summary");
    expect(asked).toContain("Summarize with custom prompt");
    pane.keys("Down");
    pane.keys("Enter");
    const moved = await pane.waitFor("Navigated to selected point");
    expect(moved).not.toContain("second answer");
    expect(moved).toContain("first answer");

    const [file] = user.sessionFiles();
    const entries = sessionLines(file!);
    const summary = entries.find((e) => e.type === "branch_summary");
    expect(summary?.summary).toContain("The branch left behind listed files.");
    const secondAnswer = entries.find(
      (e) => e.type === "message" && JSON.stringify(e.message.content).includes("second answer"),
    );
    const firstAnswer = entries.find(
      (e) => e.type === "message" && JSON.stringify(e.message.content).includes("first answer"),
    );
    expect(summary.fromId).toBe(secondAnswer.id);
    expect(summary.parentId).toBe(firstAnswer.id);
    // The summary request carried the branch left, not the kept path's answer alone.
    const request = JSON.stringify(server.requests.at(-1));
    expect(request).toContain("another question");
  });

  /** A session file with two branches off the first answer, and two more off branch A's answer; the leaf in branch B. */
  function branchedSession(dir: string, cwd: string): string {
    const t0 = Date.parse("2026-01-01T00:00:00Z");
    const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 };
    const lines: unknown[] = [
      {
        type: "session",
        version: 3,
        id: "11111111-1111-4111-8111-111111111111",
        timestamp: new Date(t0).toISOString(),
        cwd,
      },
    ];
    const add = (id: string, parentId: string | null, role: "user" | "assistant", text: string): void => {
      const at = t0 + lines.length * 1000;
      const message =
        role === "user"
          ? { role, content: text, timestamp: at }
          : {
              role,
              content: [{ type: "text", text }],
              api: "openai-completions",
              provider: "mock",
              model: "mock-1",
              usage,
              stopReason: "stop",
              timestamp: at,
            };
      lines.push({ type: "message", id, parentId, timestamp: new Date(at).toISOString(), message });
    };
    add("u1", null, "user", "first question");
    add("a1", "u1", "assistant", "first answer");
    add("u2", "a1", "user", "branch A question");
    add("a2", "u2", "assistant", "branch A answer");
    add("u3", "a2", "user", "A deeper one");
    add("a3", "u3", "assistant", "A deeper answer");
    add("u3b", "a2", "user", "A other one");
    add("a3b", "u3b", "assistant", "A other answer");
    add("u4", "a1", "user", "branch B question");
    add("a4", "u4", "assistant", "branch B answer");
    add("u5", "a4", "user", "B follow up");
    add("a5", "u5", "assistant", "B follow answer");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "branched.jsonl");
    writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    return file;
  }

  /** The selected tree row and the position row. */
  const selection = (screen: string): string =>
    screen
      .split("\n")
      .filter((l) => l.includes("› ") || /\(\d+\/\d+\)/.test(l))
      .map((l) => l.trim())
      .join(" | ");

  /** The tree's rows: between pi's help rows and the position row. */
  const treeRows = (screen: string): string => {
    const lines = screen.split("\n");
    const start = lines.findIndex((l) => l.includes("filters ctrl+d/t/u/l/a"));
    const end = lines.findIndex((l, i) => i > start && /\(\d+\/\d+\)/.test(l));
    return lines.slice(start + 1, end).join("\n");
  };

  for (const mode of ["fullscreen", "regular"] as const) {
    it(`${mode}: ctrl/alt+left folds a segment or jumps to the segment start above; ctrl/alt+right unfolds or jumps down`, async () => {
      const user = agentHome();
      const file = branchedSession(join(user.home, "sessions"), user.project);
      const pane = tmux!.start({
        cwd: user.project,
        env: user.env,
        width: 100,
        height: 36,
        watch: "screen",
        args: ["--session", file, "--tui-mode", mode],
      });
      await pane.waitFor("B follow answer");
      pane.type("/tree");
      pane.keys("Enter");
      // pi's layout: the current branch first, connectors with ⊟ on each foldable segment start.
      const tree = await pane.waitFor((s) => s.includes("Session Tree") && s.includes("(6/12)"));
      expect(tree).toContain("ctrl+←/→ branch");
      expect(tree).toContain("├⊟ • user: branch B question");
      expect(tree).toContain("│     • assistant: branch B answer");
      expect(tree).toContain("└⊟ user: branch A question");
      expect(tree).toContain("├⊟ user: A deeper one");
      expect(tree).toContain("└⊟ user: A other one");
      expect(selection(tree)).toContain("› │     • assistant: B follow answer");
      // Not a segment start: jump up to branch B's start; there, fold it.
      pane.keys("C-Left");
      let screen = await pane.waitFor((s) => s.includes("(3/12)"));
      expect(selection(screen)).toContain("› ├⊟ • user: branch B question");
      pane.keys("C-Left");
      screen = await pane.waitFor((s) => s.includes("(3/9)"));
      expect(selection(screen)).toContain("› ├⊞ • user: branch B question");
      expect(treeRows(screen)).not.toContain("B follow up");
      expect(treeRows(screen)).toContain("assistant: A other answer");
      // Alt+Left jumps to the root, then folds it: one row left.
      pane.keys("M-Left");
      screen = await pane.waitFor((s) => s.includes("(1/9)"));
      pane.keys("M-Left");
      screen = await pane.waitFor((s) => s.includes("(1/1)"));
      expect(selection(screen)).toContain("› ⊞ • user: first question");
      expect(treeRows(screen).trim()).toBe("› ⊞ • user: first question");
      // Right: unfold the root; again: jump down to the next segment start; again: unfold it; again: the branch end.
      pane.keys("M-Right");
      await pane.waitFor((s) => s.includes("(1/9)"));
      pane.keys("C-Right");
      screen = await pane.waitFor((s) => s.includes("(3/9)"));
      expect(selection(screen)).toContain("› ├⊞ • user: branch B question");
      pane.keys("C-Right");
      screen = await pane.waitFor((s) => s.includes("(3/12)"));
      expect(treeRows(screen)).toContain("B follow up");
      pane.keys("C-Right");
      screen = await pane.waitFor((s) => s.includes("(6/12)"));
      expect(selection(screen)).toContain("› │     • assistant: B follow answer");
      // A filter change unfolds everything, as in pi.
      pane.keys("Up", "Up", "Up", "C-Left");
      await pane.waitFor((s) => s.includes("(3/9)"));
      pane.keys("C-t");
      screen = await pane.waitFor((s) => s.includes("[no-tools]"));
      expect(treeRows(screen)).toContain("B follow up");
    });
  }

  it("keybindings.json rebinds the list keys (tui.select.*), app.tree.editLabel and app.tree.toggleLabelTimestamp", async () => {
    const user = agentHome();
    const file = branchedSession(join(user.home, "sessions"), user.project);
    writeFileSync(
      join(user.agent, "keybindings.json"),
      JSON.stringify({
        "tui.select.up": ["ctrl+k"],
        "app.tree.editLabel": ["ctrl+e"],
        "app.tree.toggleLabelTimestamp": ["ctrl+y"],
      }),
    );
    const pane = tmux!.start({
      cwd: user.project,
      env: user.env,
      width: 100,
      height: 36,
      watch: "screen",
      args: ["--session", file],
    });
    await pane.waitFor("B follow answer");
    pane.type("/tree");
    pane.keys("Enter");
    await pane.waitFor((s) => s.includes("Session Tree") && s.includes("(6/12)"));
    pane.keys("C-k");
    await pane.waitFor((s) => s.includes("(5/12)"));
    // Up is no longer bound to tui.select.up: only the next Ctrl+K moves.
    pane.keys("Up", "C-k");
    await pane.waitFor((s) => s.includes("(4/12)"));
    pane.keys("C-e");
    await pane.waitFor("label:");
    pane.type("mark");
    pane.keys("Enter");
    let screen = await pane.waitFor((s) => treeRows(s).includes("[mark]"));
    expect(treeRows(screen)).not.toMatch(/\[mark\] \d\d:\d\d/);
    pane.keys("C-y");
    screen = await pane.waitFor((s) => /\[mark\] \d\d:\d\d/.test(treeRows(s)));
    expect(treeRows(screen)).toMatch(/\[mark\] \d\d:\d\d/);
  });
});
