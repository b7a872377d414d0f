import { describe, expect, it } from "vitest";
import type { Message } from "../../../contracts/ai/index.js";
import type { CompactionEntry, CompactionSettings, SessionEntry } from "../../../contracts/session.js";
import { compact } from "../../../plugins/session/compaction/compact.js";
import { estimateEntryTokens } from "../../../plugins/session/compaction/messages.js";
import { TURN_PREFIX_PROMPT } from "../../../plugins/session/compaction/prompts.js";
import { fakeSummarizer, markersIn, PathBuilder, randomInt, seededRandom } from "./harness.js";

/** The test's own reading of the rules, independent of the plugin's helpers. */
function isToolResult(entry: SessionEntry): boolean {
  return entry.type === "message" && entry.message.role === "toolResult";
}
function isContext(entry: SessionEntry): boolean {
  return entry.type === "message" || entry.type === "custom_message" || entry.type === "branch_summary";
}
function isValidCut(entry: SessionEntry): boolean {
  return isContext(entry) && !isToolResult(entry);
}
function isTurnStart(entry: SessionEntry): boolean {
  if (entry.type === "custom_message" || entry.type === "branch_summary") return true;
  return entry.type === "message" && (entry.message.role === "user" || entry.message.role === "bashExecution");
}
/** Tokens of the context entries of path[from, end). */
function tokensFrom(path: SessionEntry[], from: number): number {
  let total = 0;
  for (let i = from; i < path.length; i++) if (isContext(path[i]!)) total += estimateEntryTokens(path[i]!);
  return total;
}
/** Ids of the context entries of path[from, to), which must be the markers the summarizer saw. */
function contextIds(path: SessionEntry[], from: number, to: number): string[] {
  return path
    .slice(from, to)
    .filter(isContext)
    .map((entry) => entry.id);
}
/** Where the next compaction's span starts: the last compaction's first kept entry, else the entry after it. */
function spanStartOf(path: SessionEntry[]): number {
  let last = -1;
  for (let i = path.length - 1; i >= 0; i--) {
    if (path[i]!.type === "compaction") {
      last = i;
      break;
    }
  }
  if (last < 0) return 0;
  const kept = path.findIndex((entry) => entry.id === (path[last] as CompactionEntry).firstKeptEntryId);
  return kept >= 0 && kept < last ? kept : last + 1;
}

const TOOLS = ["read", "write", "edit", "bash", "grep"];

/** One random turn: a user-side opener, tool-call steps with results, usually a closing answer. */
function randomTurn(session: PathBuilder, random: () => number): void {
  const opener = random();
  if (opener < 0.1) session.bash(randomInt(random, 1, 300));
  else if (opener < 0.18) session.customMessage(randomInt(random, 1, 300));
  else session.user(randomInt(random, 1, 400));
  if (random() < 0.15) session.modelChange();
  const steps = randomInt(random, 0, 5);
  for (let step = 0; step < steps; step++) {
    const calls = Array.from({ length: randomInt(random, 1, 3) }, () => ({
      name: TOOLS[randomInt(random, 0, TOOLS.length - 1)]!,
      arguments: { path: `src/f${randomInt(random, 0, 9)}.ts` },
    }));
    session.assistant(randomInt(random, 0, 200), calls);
    for (let i = 0; i < calls.length; i++) session.toolResult(randomInt(random, 1, 1_500));
    if (random() < 0.1) session.label(session.path[session.path.length - 1]!.id);
  }
  // Some sessions are compacted mid-turn, right after a tool result.
  if (steps === 0 || random() < 0.8) session.assistant(randomInt(random, 1, 300));
}

describe("cut point", () => {
  it("never cuts at a tool result, keeps the budget, and summarizes exactly the span (property test over 300 seeded sessions)", async () => {
    let compactions = 0;
    let splitTurns = 0;
    let repeated = 0;
    let wholeTurns = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const random = seededRandom(seed);
      const session = new PathBuilder();
      const settings: CompactionSettings = {
        enabled: true,
        reserveTokens: 4_000,
        keepRecentTokens: randomInt(random, 100, 4_000),
      };
      const keep = settings.keepRecentTokens;
      const turns = randomInt(random, 3, 25);
      for (let turn = 0; turn < turns; turn++) {
        randomTurn(session, random);
        const path = session.path;
        const spanStart = spanStartOf(path);
        const { summarize, requests } = fakeSummarizer();
        const result = await compact(path, settings, summarize);
        const where = `seed ${seed}, turn ${turn}, keep ${keep}`;

        if (!result) {
          expect(requests, where).toHaveLength(0);
          // Nothing to compact: no cut that leaves an earlier message to summarize keeps the budget.
          const firstContext = path.findIndex((entry, index) => index >= spanStart && isContext(entry));
          for (let i = firstContext + 1; i < path.length; i++) {
            if (isValidCut(path[i]!)) expect(tokensFrom(path, i), where).toBeLessThan(keep);
          }
          continue;
        }

        compactions++;
        if (spanStart > 0) repeated++;
        const firstKept = path.findIndex((entry) => entry.id === result.firstKeptEntryId);
        expect(firstKept, where).toBeGreaterThan(spanStart);
        // The kept part starts with entries the model never sees, then a valid cut point.
        let cut = firstKept;
        while (!isContext(path[cut]!)) cut++;
        expect(isToolResult(path[cut]!), where).toBe(false);
        expect(isValidCut(path[cut]!), where).toBe(true);
        // Every kept tool result still has its call in the kept part.
        const keptCallIds = new Set<string>();
        for (const entry of path.slice(firstKept)) {
          if (entry.type !== "message") continue;
          const message = entry.message as Message;
          if (message.role === "assistant")
            for (const block of message.content) if (block.type === "toolCall") keptCallIds.add(block.id);
          if (message.role === "toolResult") expect(keptCallIds.has(message.toolCallId), where).toBe(true);
        }
        // The cut is the first valid point at or after the entry where the budget is reached: the
        // entries after it stay under the budget (unless no valid cut point follows it), and the
        // entries after the previous valid point already hold the whole budget.
        const validCuts = path
          .map((entry, index) => (index >= spanStart && isValidCut(entry) ? index : -1))
          .filter((index) => index >= 0);
        const position = validCuts.indexOf(cut);
        if (position < validCuts.length - 1) expect(tokensFrom(path, cut + 1), where).toBeLessThan(keep);
        if (position > 0) expect(tokensFrom(path, validCuts[position - 1]! + 1), where).toBeGreaterThanOrEqual(keep);

        // The summarizer saw exactly the context entries of [spanStart, firstKept).
        let turnStart = -1;
        if (!isTurnStart(path[cut]!))
          for (let i = cut - 1; i >= spanStart && turnStart < 0; i--) if (isTurnStart(path[i]!)) turnStart = i;
        if (turnStart >= 0 && contextIds(path, turnStart, firstKept).length > 0) {
          splitTurns++;
          const prefixRequest = requests.find((request) => request.prompt.includes(TURN_PREFIX_PROMPT))!;
          expect(markersIn(prefixRequest.prompt), where).toEqual(contextIds(path, turnStart, firstKept));
          const history = requests
            .filter((request) => request !== prefixRequest)
            .flatMap((request) => markersIn(request.prompt));
          expect(history, where).toEqual(contextIds(path, spanStart, turnStart));
        } else {
          wholeTurns++;
          expect(requests, where).toHaveLength(1);
          expect(markersIn(requests[0]!.prompt), where).toEqual(contextIds(path, spanStart, firstKept));
        }
        session.compaction(result);
      }
    }
    // The generator really exercised compaction, split turns and repeated compactions.
    expect(compactions).toBeGreaterThan(1_000);
    expect(splitTurns).toBeGreaterThan(300);
    expect(wholeTurns).toBeGreaterThan(300);
    expect(repeated).toBeGreaterThan(1_000);
  });

  it("keeps about keepRecentTokens: at least the budget, less than the budget plus one message", async () => {
    for (const keep of [1_000, 1_050, 1_099, 20_000]) {
      const session = new PathBuilder();
      for (let turn = 0; turn < 60; turn++) {
        session.user(500);
        session.assistant(500);
      }
      const { summarize } = fakeSummarizer();
      const result = await compact(
        session.path,
        { enabled: true, reserveTokens: 16_384, keepRecentTokens: keep },
        summarize,
      );
      const firstKept = session.path.findIndex((entry) => entry.id === result!.firstKeptEntryId);
      const kept = tokensFrom(session.path, firstKept);
      expect(kept).toBeGreaterThanOrEqual(keep);
      expect(kept).toBeLessThan(keep + 500);
    }
  });

  it("moves a cut that lands on a tool result forward to the next valid point", async () => {
    const session = new PathBuilder();
    session.user(100);
    session.assistant(100);
    session.user(100);
    session.assistant(10, [{ name: "read", arguments: { path: "a.ts" } }]);
    const result = session.toolResult(1_000); // the budget is reached here
    const answer = session.assistant(50);
    const { summarize } = fakeSummarizer();
    const compacted = await compact(
      session.path,
      { enabled: true, reserveTokens: 1_000, keepRecentTokens: 500 },
      summarize,
    );
    expect(compacted!.firstKeptEntryId).not.toBe(result.id);
    expect(compacted!.firstKeptEntryId).toBe(answer.id);
  });

  it("when the newest entries are one huge tool result, cuts back at the call that produced it", async () => {
    const session = new PathBuilder();
    session.user(100);
    session.assistant(100);
    session.user(100);
    const call = session.assistant(10, [{ name: "read", arguments: { path: "big.log" } }]);
    session.toolResult(5_000);
    const { summarize, requests } = fakeSummarizer();
    const compacted = await compact(
      session.path,
      { enabled: true, reserveTokens: 1_000, keepRecentTokens: 500 },
      summarize,
    );
    expect(compacted!.firstKeptEntryId).toBe(call.id);
    expect(requests).toHaveLength(2); // the history, and the prefix of the split turn (its user message)
  });

  it("keeps settings changes and labels just before the cut with the kept part", async () => {
    const session = new PathBuilder();
    session.user(300);
    session.assistant(300);
    const change = session.modelChange();
    const label = session.label(change.id);
    session.user(300);
    session.assistant(300);
    const { summarize } = fakeSummarizer();
    const compacted = await compact(
      session.path,
      { enabled: true, reserveTokens: 1_000, keepRecentTokens: 600 },
      summarize,
    );
    expect(compacted!.firstKeptEntryId).toBe(change.id);
    expect(label.id).not.toBe(compacted!.firstKeptEntryId);
  });

  it("cuts before bash runs and extension messages as before user messages", async () => {
    for (const opener of ["bash", "custom"] as const) {
      const session = new PathBuilder();
      session.user(300);
      session.assistant(300);
      const start = opener === "bash" ? session.bash(300) : session.customMessage(300);
      session.assistant(300);
      const { summarize, requests } = fakeSummarizer();
      const compacted = await compact(
        session.path,
        { enabled: true, reserveTokens: 1_000, keepRecentTokens: 600 },
        summarize,
      );
      expect(compacted!.firstKeptEntryId).toBe(start.id);
      expect(requests).toHaveLength(1); // a whole turn kept: not a split turn
    }
  });
});
