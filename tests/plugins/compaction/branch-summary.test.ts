import { describe, expect, it } from "vitest";
import {
  BRANCH_SUMMARY_MAX_TOKENS,
  BRANCH_TOKEN_BUDGET,
  summarizeBranch,
} from "../../../plugins/session/compaction/branch-summary.js";
import {
  BRANCH_SUMMARY_PREAMBLE,
  BRANCH_SUMMARY_PROMPT,
  SUMMARY_SYSTEM_PROMPT,
} from "../../../plugins/session/compaction/prompts.js";
import { fakeSummarizer, markersIn, PathBuilder } from "./harness.js";

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

describe("summarizeBranch", () => {
  it("summarizes the branch in the six-section format, with the preamble and its file lists", async () => {
    const branch = new PathBuilder();
    const userId = branch.user(50).id;
    const callId = branch.assistant(20, [
      { name: "read", arguments: { path: "lib/x.ts" } },
      { name: "edit", arguments: { path: "lib/y.ts", oldText: "1", newText: "2" } },
    ]).id;
    const resultIds = [branch.toolResult(30).id, branch.toolResult(30).id];
    const answerId = branch.assistant(40).id;

    const { summarize, requests } = fakeSummarizer(() => "## Goal\nTry the other parser");
    const result = await summarizeBranch(branch.path, summarize);

    expect(result).toEqual({
      summary: `${BRANCH_SUMMARY_PREAMBLE}## Goal\nTry the other parser\n\n<read-files>\nlib/x.ts\n</read-files>\n\n<modified-files>\nlib/y.ts\n</modified-files>`,
      details: { readFiles: ["lib/x.ts"], modifiedFiles: ["lib/y.ts"] },
    });
    expect(requests).toHaveLength(1);
    const request = requests[0]!;
    expect(request.systemPrompt).toBe(SUMMARY_SYSTEM_PROMPT);
    expect(request.maxTokens).toBe(BRANCH_SUMMARY_MAX_TOKENS);
    expect(request.prompt.endsWith(BRANCH_SUMMARY_PROMPT)).toBe(true);
    // The calls say what was done; tool results are left out of a branch summary (as pi does).
    expect(markersIn(request.prompt)).toEqual([userId, callId, answerId]);
    for (const id of resultIds) expect(request.prompt).not.toContain(id);
    expect(request.prompt).toContain(
      '[Assistant tool calls]: read(path="lib/x.ts"); edit(path="lib/y.ts", oldText="1", newText="2")',
    );
  });

  it("asks for the same six section headings as a compaction", () => {
    for (const heading of SIX_SECTIONS) expect(BRANCH_SUMMARY_PROMPT.split("\n")).toContain(heading);
  });

  it("adds instructions as focus", async () => {
    const branch = new PathBuilder();
    branch.user(10);
    const { summarize, requests } = fakeSummarizer();
    await summarizeBranch(branch.path, summarize, { instructions: "what failed" });
    expect(requests[0]!.prompt.endsWith(`${BRANCH_SUMMARY_PROMPT}\n\nAdditional focus: what failed`)).toBe(true);
  });

  it("carries file lists over from summaries inside the branch (nested branches, compactions), not from fromHook ones", async () => {
    const branch = new PathBuilder();
    branch.branchSummary("earlier branch", { readFiles: ["old-read.ts"], modifiedFiles: ["old-mod.ts"] });
    branch.compaction({
      summary: "compacted",
      firstKeptEntryId: "00000001",
      tokensBefore: 10,
      details: { readFiles: ["c-read.ts", "old-mod.ts"], modifiedFiles: [] },
    });
    branch.branchSummary("hook", { readFiles: ["hook.ts"], modifiedFiles: ["hook.ts"] }, true);
    branch.user(10);
    branch.assistant(10, [{ name: "write", arguments: { path: "new.ts", content: "" } }]);
    branch.toolResult(5);
    const { summarize, requests } = fakeSummarizer();
    const result = await summarizeBranch(branch.path, summarize);
    expect(result!.details).toEqual({
      readFiles: ["c-read.ts", "old-read.ts"],
      modifiedFiles: ["new.ts", "old-mod.ts"],
    });
    // Earlier summaries are part of what the summarizer reads.
    expect(requests[0]!.prompt).toContain("earlier branch");
    expect(requests[0]!.prompt).toContain("compacted");
  });

  it("reads a very long branch newest first within the budget; files of the dropped part are still listed", async () => {
    const branch = new PathBuilder();
    const oldId = branch.user(10).id;
    const callId = branch.assistant(10, [{ name: "read", arguments: { path: "early.ts" } }]).id;
    branch.toolResult(5);
    const hugeId = branch.assistant(BRANCH_TOKEN_BUDGET - 16).id;
    const recentId = branch.user(10).id;
    const { summarize, requests } = fakeSummarizer();
    const result = await summarizeBranch(branch.path, summarize);
    expect(markersIn(requests[0]!.prompt)).toEqual([hugeId, recentId]);
    expect(requests[0]!.prompt).not.toContain(oldId);
    expect(requests[0]!.prompt).not.toContain(callId);
    expect(result!.details.readFiles).toEqual(["early.ts"]);
  });

  it("lets an earlier summary in past the budget while less than 90% of it is used", async () => {
    const branch = new PathBuilder();
    branch.branchSummary("EARLIER WORK ".repeat(20_000)); // 65,000 tokens
    branch.assistant(50_000);
    const { summarize, requests } = fakeSummarizer();
    await summarizeBranch(branch.path, summarize);
    expect(requests[0]!.prompt).toContain("EARLIER WORK");
  });

  it("returns undefined, without a call, when the branch has no messages", async () => {
    const branch = new PathBuilder();
    branch.modelChange();
    branch.label("00000001");
    const { summarize, requests } = fakeSummarizer();
    expect(await summarizeBranch(branch.path, summarize)).toBeUndefined();
    expect(await summarizeBranch([], summarize)).toBeUndefined();
    expect(requests).toEqual([]);
  });

  it("rejects when aborted and on an empty summary", async () => {
    const branch = new PathBuilder();
    branch.user(10);
    const controller = new AbortController();
    controller.abort();
    await expect(
      summarizeBranch(branch.path, fakeSummarizer().summarize, { signal: controller.signal }),
    ).rejects.toMatchObject({ name: "AbortError" });
    await expect(summarizeBranch(branch.path, fakeSummarizer(() => "").summarize)).rejects.toThrow(
      "compaction: the summarizer returned an empty summary",
    );
  });
});
