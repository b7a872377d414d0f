import { describe, expect, it } from "vitest";
import type { CompactionSettings } from "../../../contracts/session.js";
import { compact } from "../../../plugins/session/compaction/compact.js";
import {
  NEW_SUMMARY_PROMPT,
  SUMMARY_SYSTEM_PROMPT,
  TURN_PREFIX_PROMPT,
  UPDATE_SUMMARY_PROMPT,
} from "../../../plugins/session/compaction/prompts.js";
import { fakeSummarizer, markersIn, PathBuilder } from "./harness.js";

const SETTINGS: CompactionSettings = { enabled: true, reserveTokens: 10_000, keepRecentTokens: 1_000 };

/** Sections and subsections every summary prompt must ask for, in order. */
const SIX_SECTIONS = [
  "## Goal",
  "## Constraints & Preferences",
  "## Progress",
  "### Done",
  "### In Progress",
  "### Blocked",
  "## Key Decisions",
  "## Next Steps",
  "## Critical Context",
];

/** Two whole turns of 600 tokens each: with a 1,000-token budget the first is summarized, the second kept. */
function twoTurns(): { session: PathBuilder; firstIds: string[]; secondUserId: string } {
  const session = new PathBuilder();
  const firstIds = [session.user(300).id, session.assistant(300).id];
  const secondUserId = session.user(600).id;
  session.assistant(600);
  return { session, firstIds, secondUserId };
}

function headingPositions(prompt: string): number[] {
  return SIX_SECTIONS.map((heading) => prompt.search(new RegExp(`^${heading.replace(/[&]/g, "\\$&")}$`, "m")));
}

describe("compact", () => {
  it("summarizes the old turn with the six-section prompt and keeps the recent one", async () => {
    const { session, firstIds, secondUserId } = twoTurns();
    const { summarize, requests } = fakeSummarizer(() => "## Goal\nShip it");
    const result = await compact(session.path, SETTINGS, summarize);

    expect(result).toEqual({
      summary: "## Goal\nShip it",
      firstKeptEntryId: secondUserId,
      tokensBefore: 1_800,
      details: { readFiles: [], modifiedFiles: [] },
    });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request!.systemPrompt).toBe(SUMMARY_SYSTEM_PROMPT);
    expect(request!.maxTokens).toBe(8_000); // 0.8 × reserveTokens
    expect(markersIn(request!.prompt)).toEqual(firstIds);
    expect(request!.prompt.startsWith("<conversation>\n[User]: ")).toBe(true);
    expect(request!.prompt).toContain("\n</conversation>\n\n");
    expect(request!.prompt.endsWith(NEW_SUMMARY_PROMPT)).toBe(true);
    expect(request!.prompt).not.toContain("<previous-summary>");
  });

  it("asks for the six section headings (Progress with Done / In Progress / Blocked), in order, in the new and the update prompt", () => {
    for (const prompt of [NEW_SUMMARY_PROMPT, UPDATE_SUMMARY_PROMPT]) {
      const positions = headingPositions(prompt);
      expect(positions.every((position) => position >= 0)).toBe(true);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    }
  });

  it("adds /compact instructions to the prompt as focus", async () => {
    const { session } = twoTurns();
    const { summarize, requests } = fakeSummarizer();
    await compact(session.path, SETTINGS, summarize, { instructions: "  the parser rewrite and its failing tests " });
    expect(
      requests[0]!.prompt.endsWith(
        `${NEW_SUMMARY_PROMPT}\n\nAdditional focus: the parser rewrite and its failing tests`,
      ),
    ).toBe(true);
  });

  it("splits a turn larger than keepRecentTokens: a history and a turn-prefix summary, merged", async () => {
    const session = new PathBuilder();
    const historyIds = [session.user(200).id, session.assistant(200).id];
    const prefixIds = [session.user(100).id];
    const steps = [
      { name: "read", arguments: { path: "src/step0.ts" } },
      { name: "read", arguments: { path: "src/step1.ts" } },
      { name: "edit", arguments: { path: "src/step1.ts", oldText: "a", newText: "b" } },
    ];
    for (const call of steps) {
      prefixIds.push(session.assistant(50, [call]).id);
      prefixIds.push(session.toolResult(400).id);
    }
    const firstKept = session.assistant(50, [{ name: "write", arguments: { path: "src/kept.ts", content: "x" } }]);
    session.toolResult(400);
    session.assistant(300);

    const { summarize, requests } = fakeSummarizer((request) =>
      request.prompt.includes(TURN_PREFIX_PROMPT) ? "PREFIX SUMMARY" : "HISTORY SUMMARY",
    );
    const result = await compact(session.path, SETTINGS, summarize, { instructions: "keep the step numbers" });

    expect(result!.firstKeptEntryId).toBe(firstKept.id);
    expect(requests).toHaveLength(2);
    const [history, prefix] = requests;
    expect(markersIn(history!.prompt)).toEqual(historyIds);
    expect(history!.prompt).toContain(NEW_SUMMARY_PROMPT);
    expect(history!.maxTokens).toBe(8_000);
    expect(markersIn(prefix!.prompt)).toEqual(prefixIds);
    expect(prefix!.prompt).toContain(TURN_PREFIX_PROMPT);
    expect(prefix!.prompt).toContain("Additional focus: keep the step numbers");
    expect(prefix!.maxTokens).toBe(5_000); // 0.5 × reserveTokens
    // Files touched in the summarized prefix are listed; the kept part's write is still in context.
    expect(result!.summary).toBe(
      "HISTORY SUMMARY\n\n---\n\n**Turn Context (split turn):**\n\nPREFIX SUMMARY" +
        "\n\n<read-files>\nsrc/step0.ts\n</read-files>" +
        "\n\n<modified-files>\nsrc/step1.ts\n</modified-files>",
    );
    expect(result!.details).toEqual({ readFiles: ["src/step0.ts"], modifiedFiles: ["src/step1.ts"] });
  });

  it("updates the previous summary on a repeated compaction: update prompt, <previous-summary>, span from the previous firstKeptEntryId", async () => {
    const { session, secondUserId } = twoTurns();
    const first = await compact(session.path, SETTINGS, fakeSummarizer(() => "FIRST SUMMARY").summarize);
    expect(first!.firstKeptEntryId).toBe(secondUserId);
    session.compaction(first!);
    const thirdUser = session.user(600);
    session.assistant(600);

    const { summarize, requests } = fakeSummarizer(() => "SECOND SUMMARY");
    const second = await compact(session.path, SETTINGS, summarize, { instructions: "mention the deadline" });

    expect(second!.firstKeptEntryId).toBe(thirdUser.id);
    expect(second!.summary).toBe("SECOND SUMMARY");
    expect(requests).toHaveLength(1);
    const prompt = requests[0]!.prompt;
    // The kept turn of the first compaction is summarized now; the turn it summarized is not re-sent.
    const secondTurnIds = session.path.slice(2, 4).map((entry) => entry.id);
    expect(secondTurnIds[0]).toBe(secondUserId);
    expect(markersIn(prompt)).toEqual(secondTurnIds);
    expect(prompt).toContain("\n</conversation>\n\n<previous-summary>\nFIRST SUMMARY\n</previous-summary>\n\n");
    expect(prompt.endsWith(`${UPDATE_SUMMARY_PROMPT}\n\nAdditional focus: mention the deadline`)).toBe(true);
    expect(prompt).not.toContain(NEW_SUMMARY_PROMPT);
  });

  it("falls back to the entry after the previous compaction when its firstKeptEntryId is not on the path", async () => {
    const session = new PathBuilder();
    session.user(300);
    session.assistant(300);
    session.compaction({ summary: "OLD", firstKeptEntryId: "deadbeef", tokensBefore: 600 });
    const afterIds = [session.user(300).id, session.assistant(300).id];
    const kept = session.user(600);
    session.assistant(600);
    const { summarize, requests } = fakeSummarizer();
    const result = await compact(session.path, SETTINGS, summarize);
    expect(result!.firstKeptEntryId).toBe(kept.id);
    expect(markersIn(requests[0]!.prompt)).toEqual(afterIds);
    expect(requests[0]!.prompt).toContain("<previous-summary>\nOLD\n</previous-summary>");
  });

  it("passes the previous summary without its file lists (they are rebuilt from details)", async () => {
    const session = new PathBuilder();
    session.user(300);
    session.assistant(300, [{ name: "read", arguments: { path: "a.ts" } }]);
    session.toolResult(10);
    session.user(600);
    session.assistant(600);
    const first = await compact(session.path, SETTINGS, fakeSummarizer(() => "FIRST").summarize);
    expect(first!.summary).toBe("FIRST\n\n<read-files>\na.ts\n</read-files>");
    session.compaction(first!);
    session.user(600);
    session.assistant(600);
    const { summarize, requests } = fakeSummarizer(() => "SECOND");
    const second = await compact(session.path, SETTINGS, summarize);
    expect(requests[0]!.prompt).toContain("<previous-summary>\nFIRST\n</previous-summary>");
    expect(second!.summary).toBe("SECOND\n\n<read-files>\na.ts\n</read-files>");
  });

  it("keeps the previous summary as the history part when a split turn has no new history before it", async () => {
    const session = new PathBuilder();
    session.user(300);
    session.assistant(300);
    const turnStart = session.user(300);
    session.assistant(50, [{ name: "read", arguments: { path: "x.ts" } }]);
    session.toolResult(700);
    const first = await compact(session.path, SETTINGS, fakeSummarizer(() => "FIRST").summarize);
    expect(first!.firstKeptEntryId).toBe(turnStart.id);
    session.compaction(first!);
    // The same turn goes on after the compaction and outgrows the budget.
    session.assistant(50, [{ name: "read", arguments: { path: "y.ts" } }]);
    session.toolResult(700);
    const kept = session.assistant(400);
    const { summarize, requests } = fakeSummarizer(() => "PREFIX");
    const second = await compact(session.path, SETTINGS, summarize);
    expect(second!.firstKeptEntryId).toBe(kept.id);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.prompt).toContain(TURN_PREFIX_PROMPT);
    expect(markersIn(requests[0]!.prompt)[0]).toBe(turnStart.id);
    expect(second!.summary).toBe(
      "FIRST\n\n---\n\n**Turn Context (split turn):**\n\nPREFIX\n\n<read-files>\nx.ts\ny.ts\n</read-files>",
    );
  });
});

describe("compact: file tracking", () => {
  it("lists read and modified files of the summarized tool calls, cumulative across compactions", async () => {
    const session = new PathBuilder();
    session.user(100);
    session.assistant(100, [
      { name: "read", arguments: { path: "src/a.ts" } },
      { name: "write", arguments: { path: "src/b.ts", content: "new" } },
      { name: "grep", arguments: { pattern: "TODO", path: "src" } },
      { name: "ls", arguments: { path: "docs" } },
    ]);
    session.toolResults(10);
    session.assistant(100);
    session.user(600);
    session.assistant(600);
    const first = await compact(session.path, SETTINGS, fakeSummarizer(() => "S1").summarize);
    expect(first!.details).toEqual({ readFiles: ["src/a.ts"], modifiedFiles: ["src/b.ts"] });
    expect(first!.summary).toBe(
      "S1\n\n<read-files>\nsrc/a.ts\n</read-files>\n\n<modified-files>\nsrc/b.ts\n</modified-files>",
    );
    session.compaction(first!);

    session.user(100);
    session.assistant(100, [
      { name: "read", arguments: { path: "src/c.ts" } },
      { name: "edit", arguments: { path: "src/a.ts", oldText: "x", newText: "y" } },
    ]);
    session.toolResults(10);
    session.user(600);
    session.assistant(600, [{ name: "read", arguments: { path: "src/kept.ts" } }]);
    session.toolResults(10);
    const second = await compact(session.path, SETTINGS, fakeSummarizer(() => "S2").summarize);
    // a.ts was read, then edited: modified only. b.ts comes from the first compaction's details.
    expect(second!.details).toEqual({ readFiles: ["src/c.ts"], modifiedFiles: ["src/a.ts", "src/b.ts"] });
    expect(second!.summary).toBe(
      "S2\n\n<read-files>\nsrc/c.ts\n</read-files>\n\n<modified-files>\nsrc/a.ts\nsrc/b.ts\n</modified-files>",
    );
  });

  it("takes file lists from branch summaries inside the span, but not from extension-made (fromHook) summaries", async () => {
    const session = new PathBuilder();
    session.compaction({
      summary: "BY HOOK",
      firstKeptEntryId: "deadbeef",
      tokensBefore: 1,
      details: { readFiles: ["hook.ts"], modifiedFiles: [] },
      fromHook: true,
    });
    session.branchSummary("branch work", { readFiles: ["branch-read.ts"], modifiedFiles: ["branch-mod.ts"] });
    session.branchSummary("hook branch", { readFiles: ["hook-branch.ts"], modifiedFiles: [] }, true);
    session.user(300);
    session.assistant(300);
    session.user(600);
    session.assistant(600);
    const result = await compact(session.path, SETTINGS, fakeSummarizer().summarize);
    expect(result!.details).toEqual({ readFiles: ["branch-read.ts"], modifiedFiles: ["branch-mod.ts"] });
  });
});

describe("compact: tokensBefore", () => {
  it("is the estimate of the current context: the previous summary, the kept part and what followed — not what was compacted before", async () => {
    const session = new PathBuilder();
    session.user(5_000);
    session.assistant(10);
    const keptUser = session.user(300);
    session.assistant(300);
    session.compaction({ summary: "S".repeat(400), firstKeptEntryId: keptUser.id, tokensBefore: 5_610 });
    session.user(600);
    session.assistant(600);
    const result = await compact(session.path, SETTINGS, fakeSummarizer().summarize);
    // 300 + 300 + 600 + 600 for the messages, plus the summary message (400 chars of summary and its frame).
    expect(result!.tokensBefore).toBeGreaterThan(1_800 + 100);
    expect(result!.tokensBefore).toBeLessThan(1_800 + 150);
  });

  it("is anchored on the last answered request's usage plus an estimate of what came after it", async () => {
    const session = new PathBuilder();
    session.user(300);
    session.assistant(300);
    session.user(600);
    session.assistant(600, [], 50_000);
    const anchored = await compact(session.path, SETTINGS, fakeSummarizer().summarize);
    expect(anchored!.tokensBefore).toBe(50_000);
    session.user(250);
    const withTrailing = await compact(session.path, SETTINGS, fakeSummarizer().summarize);
    expect(withTrailing!.tokensBefore).toBe(50_250);
  });
});

describe("compact: nothing to compact", () => {
  it("returns undefined without asking for a summary", async () => {
    const cases: Array<[string, PathBuilder]> = [];
    cases.push(["an empty path", new PathBuilder()]);
    const fits = new PathBuilder();
    fits.user(300);
    fits.assistant(300, [{ name: "read", arguments: { path: "a.ts" } }]);
    fits.toolResult(300);
    fits.assistant(99);
    cases.push(["everything fits in keepRecentTokens", fits]);
    const oneTurn = new PathBuilder();
    oneTurn.modelChange();
    oneTurn.user(5_000);
    cases.push(["one message over the budget, with nothing before it", oneTurn]);
    const justCompacted = twoTurns().session;
    justCompacted.compaction({ summary: "S", firstKeptEntryId: justCompacted.path[2]!.id, tokensBefore: 1_800 });
    cases.push(["the path ends with a compaction", justCompacted]);
    const noMessages = new PathBuilder();
    noMessages.modelChange();
    noMessages.label("00000001");
    cases.push(["no messages at all", noMessages]);

    for (const [name, session] of cases) {
      const { summarize, requests } = fakeSummarizer();
      expect(await compact(session.path, SETTINGS, summarize), name).toBeUndefined();
      expect(requests, name).toEqual([]);
    }
  });

  it("returns undefined when the span since the last compaction fits in keepRecentTokens", async () => {
    const { session } = twoTurns();
    const first = await compact(session.path, SETTINGS, fakeSummarizer().summarize);
    session.compaction(first!);
    session.user(50);
    const { summarize, requests } = fakeSummarizer();
    expect(await compact(session.path, SETTINGS, summarize)).toBeUndefined();
    expect(requests).toEqual([]);
  });
});

describe("compact: errors", () => {
  it("rejects with the abort reason when the signal is already aborted, without calling the summarizer", async () => {
    const { session } = twoTurns();
    const controller = new AbortController();
    controller.abort();
    const { summarize, requests } = fakeSummarizer();
    await expect(compact(session.path, SETTINGS, summarize, { signal: controller.signal })).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(requests).toEqual([]);
  });

  it("rejects when the caller aborts while the summary is being written", async () => {
    const { session } = twoTurns();
    const controller = new AbortController();
    const { summarize } = fakeSummarizer(() => {
      controller.abort();
      return "too late";
    });
    await expect(compact(session.path, SETTINGS, summarize, { signal: controller.signal })).rejects.toMatchObject({
      name: "AbortError",
    });
  });

  it("rejects an empty summary with a one-line error instead of erasing the history", async () => {
    const { session } = twoTurns();
    await expect(compact(session.path, SETTINGS, fakeSummarizer(() => "  \n ").summarize)).rejects.toThrow(
      /^compaction: the summarizer returned an empty summary$/,
    );
  });

  it("passes the summarizer's own failure through", async () => {
    const { session } = twoTurns();
    const failing = async (): Promise<string> => {
      throw new Error("Summarization failed: 529 overloaded");
    };
    await expect(compact(session.path, SETTINGS, failing)).rejects.toThrow("Summarization failed: 529 overloaded");
  });

  it("refuses bad settings with a clear message", async () => {
    const { session } = twoTurns();
    const { summarize } = fakeSummarizer();
    await expect(compact(session.path, { ...SETTINGS, keepRecentTokens: Number.NaN }, summarize)).rejects.toThrow(
      "compaction: settings.keepRecentTokens must be a non-negative number, got NaN",
    );
    await expect(compact(session.path, { ...SETTINGS, reserveTokens: -1 }, summarize)).rejects.toThrow(
      "compaction: settings.reserveTokens must be a non-negative number, got -1",
    );
    await expect(compact("nope" as never, SETTINGS, summarize)).rejects.toThrow(
      "compaction: path must be an array of session entries",
    );
  });
});
