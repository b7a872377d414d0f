import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SessionStoreContract } from "../../../contracts/session.js";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import settingsPlugin from "../../../plugins/config/settings/index.js";
import { testTool } from "../agent-session/harness.js";
import { bootTui, type TuiHarness } from "./harness.js";

let h: TuiHarness | undefined;
afterEach(async () => {
  await h?.stop();
  await h?.kernel.shutdown();
  h = undefined;
});

const CTRL_O = "\x0f";
const CTRL_T = "\x14";
const CTRL_U = "\x15";
const CTRL_D = "\x04";

/** A session with a tool turn, then a second branch from the first answer; `settings` in the agent folder. */
async function branched(
  settings: Record<string, unknown> = {},
  summary = "Summary of the left branch.",
  tokensPerSecond = 0,
): Promise<TuiHarness> {
  const agentDir = mkdtempSync(join(tmpdir(), "pi-tree-agent-"));
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify(settings));
  const harness = await bootTui({
    agentDir,
    width: 100,
    height: 40,
    tools: [testTool("probe", async () => "probe output")],
    faux: {
      tokensPerSecond,
      responses: [
        { content: [fauxToolCall("probe", { path: "a.txt" })] },
        { content: "first answer" },
        { content: "second answer" },
        { content: summary },
      ],
    },
    entries: [
      {
        id: settingsPlugin.id,
        source: { kind: "inline", label: "settings", definition: settingsPlugin },
        config: { agentDir },
      },
    ],
  });
  await harness.waitFor((s) => s.includes("pi-host") && s.includes("faux-1"));
  harness.type("use the probe\r");
  await harness.waitFor("first answer");
  harness.type("another question\r");
  await harness.waitFor("second answer");
  return harness;
}

/** The tree's list rows (the lines between pi's help rows and the position row). */
function treeRows(screen: string): string[] {
  const lines = screen.split("\n");
  const start = lines.findIndex((l) => l.includes("filters ctrl+d/t/u/l/a"));
  const end = lines.findIndex((l, i) => i > start && /\(\d+\/\d+\)/.test(l));
  return lines.slice(start + 1, end).map((l) => l.trim());
}

describe("/tree filters and branch summaries (in-process)", () => {
  it("Ctrl+O cycles pi's filters, Ctrl+T/Ctrl+U toggle theirs, Ctrl+D goes back to default; the status names the filter", async () => {
    h = await branched();
    h.type("/tree\r");
    const initial = await h.waitFor((s) => s.includes("Session Tree") && /\(\d+\/\d+\)/.test(s));
    const rows = treeRows(initial);
    // default: user, tool result (named after its call), answers; the tool-only assistant turn is hidden.
    expect(rows.some((r) => r.includes(`[probe: {"path":"a.txt"}]`))).toBe(true);
    expect(rows.some((r) => r.includes("user: another question"))).toBe(true);
    expect(rows.some((r) => r.includes("assistant: (no content)"))).toBe(false);
    expect(rows.some((r) => r.includes("[model:"))).toBe(false);
    expect(initial).toMatch(/\(5\/5\) ·/);

    h.type(CTRL_O);
    const noTools = await h.waitFor("[no-tools]");
    expect(treeRows(noTools).some((r) => r.includes("[probe"))).toBe(false);
    h.type(CTRL_O);
    const userOnly = await h.waitFor("[user]");
    expect(treeRows(userOnly).every((r) => r.includes("user:"))).toBe(true);
    expect(treeRows(userOnly)).toHaveLength(2);
    h.type(CTRL_O);
    const labeled = await h.waitFor("[labeled]");
    expect(labeled).toMatch(/\(0\/0\) \[labeled\]/);
    h.type(CTRL_O);
    const all = await h.waitFor("[all]");
    // Everything: the bookkeeping entries too (the model the session started with).
    expect(treeRows(all).some((r) => r.includes("[model: faux-1]"))).toBe(true);
    h.type(CTRL_O);
    await h.waitFor((s) => !/\[(all|labeled|user|no-tools)\]/.test(s) && /\(\d+\/5\) ·/.test(s));
    // A toggle turns its filter on, and off again; Ctrl+D sets the default.
    h.type(CTRL_U);
    await h.waitFor("[user]");
    h.type(CTRL_U);
    await h.waitFor((s) => !s.includes("[user]") && /\(\d+\/5\) ·/.test(s));
    h.type(CTRL_T);
    await h.waitFor("[no-tools]");
    h.type(CTRL_D);
    await h.waitFor((s) => !s.includes("[no-tools]") && /\(\d+\/5\) ·/.test(s));
  });

  it("treeFilterMode picks the first filter; leaving a branch asks pi's question and Summarize writes a branch_summary", async () => {
    h = await branched({ treeFilterMode: "user-only" });
    const store = h.kernel.use(SessionStoreContract);
    const oldLeaf = store.call("leafId");
    h.type("/tree\r");
    await h.waitFor((s) => s.includes("[user]") && s.includes("(2/2)"));
    // The first user message: moving there leaves the branch of both turns.
    h.type("use the probe\r");
    await h.waitFor((s) => s.includes("Summarize branch?") && s.includes("Summarize with custom prompt"));
    // Esc goes back to the tree with the entry still selected.
    h.type("\x1b");
    await h.waitFor((s) => s.includes("Session Tree") && s.includes("(1/2) [user]"));
    h.type("\r");
    await h.waitFor("Summarize branch?");
    h.type("\x1b[B\r");
    const moved = await h.waitFor("Navigated to selected point");
    // As pi does: the user message's text back in the editor, the transcript before it.
    expect(moved).toMatch(/^use the probe$/m);
    expect(moved).not.toContain("first answer");
    const summaries = store.call("entries").filter((e) => e.type === "branch_summary");
    expect(summaries).toHaveLength(1);
    const entry = summaries[0] as { id: string; fromId: string; summary: string };
    expect(entry.fromId).toBe(oldLeaf);
    expect(entry.summary).toContain("Summary of the left branch.");
    expect(store.call("leafId")).toBe(entry.id);
  });

  it("custom instructions reach the summarizer; branchSummary.skipPrompt moves without asking or summarizing", async () => {
    h = await branched();
    h.type("/tree\r");
    await h.waitFor("user: another question");
    h.type("another question\r");
    await h.waitFor("Summarize branch?");
    h.type("\x1b[B\x1b[B\r");
    await h.waitFor("Custom summarization instructions:");
    h.type("focus on the probe\r");
    await h.waitFor("Navigated to selected point");
    const request = h.faux.requests.at(-1)!;
    expect(JSON.stringify(request.context.messages)).toContain("focus on the probe");
    await h.stop();
    await h.kernel.shutdown();

    h = await branched({ branchSummary: { skipPrompt: true } });
    const store = h.kernel.use(SessionStoreContract);
    h.type("/tree\r");
    await h.waitFor("user: another question");
    h.type("another question\r");
    const moved = await h.waitFor("Navigated to selected point");
    expect(moved).not.toContain("Summarize branch?");
    expect(store.call("entries").some((e) => e.type === "branch_summary")).toBe(false);
    expect(h.faux.requests).toHaveLength(3);
  });

  it("Esc while the summary is written cancels it: pi's line, the tree again, nothing written, the point kept", async () => {
    h = await branched({}, `${"summary words ".repeat(400)}END`, 100);
    const store = h.kernel.use(SessionStoreContract);
    const leaf = store.call("leafId");
    h.type("/tree\r");
    await h.waitFor("user: another question");
    h.type("another question\r");
    await h.waitFor("Summarize branch?");
    h.type("\x1b[B\r");
    await h.waitFor("Summarizing branch... (esc to cancel)");
    h.type("\x1b");
    const cancelled = await h.waitFor(
      (s) => s.includes("Branch summarization cancelled") && s.includes("Session Tree"),
    );
    expect(cancelled).not.toContain("Summarizing branch...");
    // The entry chosen is still the selected one.
    expect(cancelled).toMatch(/› • user: another question/);
    expect(store.call("leafId")).toBe(leaf);
    expect(store.call("entries").some((e) => e.type === "branch_summary")).toBe(false);
  });

  it("choosing the current point says so and moves nowhere", async () => {
    h = await branched();
    h.type("/tree\r");
    await h.waitFor((s) => s.includes("Session Tree") && s.includes("← current"));
    h.type("\r");
    await h.waitFor("Already at this point");
    expect(h.screen()).not.toContain("Summarize branch?");
  });
});
