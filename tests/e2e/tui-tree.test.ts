/**
 * `/tree` in the built CLI under tmux, as a user meets it: pi 1.6.0's filters (Ctrl+O cycles them, the
 * status row names the one shown, `treeFilterMode` picks the first) and, on moving to another branch,
 * pi's "Summarize branch?" question; "Summarize" asks the model for a summary of the branch left and
 * writes it to the session file as a `branch_summary` entry after the point moved to.
 */
import { existsSync, writeFileSync } from "node:fs";
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
});
