/**
 * A session file with pi 1.6's `usage` and `context_edit` entries opens: the edits shape the store's
 * context, the usage entries and the summaries' usage count in the session stats (over every entry, as
 * pi 1.6's getSessionStats sums them), an entry of an unknown type loads and stays out of the context,
 * and a broken usage or edit entry is skipped with one line saying so.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sessionStats } from "../../../plugins/session/agent-session/stats.js";
import { assistant, bootStore, brief, tempDir, user, type BootedStore } from "./harness.js";

const booted: BootedStore[] = [];
afterEach(async () => {
  for (const b of booted.splice(0)) await b.kernel.shutdown();
});

const T = "2025-03-01T10:00:01.000Z";
const HEADER = { type: "session", version: 3, id: "01944f2a-0000-7000-8000-000000000000", timestamp: T, cwd: "/p" };
const usage = (input: number, cost: number) => ({
  input,
  output: 0,
  cacheRead: 1000,
  cacheWrite: 0,
  totalTokens: input + 1000,
  cost: { input: 0, output: 0, cacheRead: cost, cacheWrite: 0, total: cost },
});
const message = (id: string, parentId: string | null, m: unknown) => ({
  type: "message",
  id,
  parentId,
  timestamp: T,
  message: m,
});

describe("pi 1.6 usage and context_edit entries", () => {
  it("shape the context, count in the stats, and a broken one is skipped with one line", async () => {
    const lines = [
      HEADER,
      message("0000000a", null, user("q1")),
      message("0000000b", "0000000a", assistant("a1")),
      {
        type: "usage",
        id: "0000000c",
        parentId: "0000000b",
        timestamp: T,
        kind: "cache_warm",
        provider: "anthropic",
        model: "m",
        usage: usage(5, 0.5),
      },
      {
        type: "context_edit",
        id: "0000000d",
        parentId: "0000000c",
        timestamp: T,
        targetId: "0000000b",
        replacement: { content: "a1, shorter" },
      },
      { type: "future_kind", id: "0000000e", parentId: "0000000d", timestamp: T, anything: 1 },
      { type: "usage", id: "0000000f", parentId: "0000000e", timestamp: T, kind: "x", provider: "p", model: "m" },
      {
        type: "context_edit",
        id: "00000010",
        parentId: "0000000f",
        timestamp: T,
        targetId: "0000000a",
        replacement: { content: 7 },
      },
      {
        type: "branch_summary",
        id: "00000011",
        parentId: "00000010",
        timestamp: T,
        fromId: "0000000b",
        summary: "B",
        usage: usage(7, 0.25),
      },
      message("00000012", "00000011", user("q2")),
      // Another branch from q1: its answer and its usage entry count in the stats but not in the context.
      message("00000020", "0000000a", assistant("other")),
      {
        type: "usage",
        id: "00000021",
        parentId: "00000020",
        timestamp: T,
        kind: "cache_warm",
        provider: "anthropic",
        model: "m",
        usage: usage(3, 0.125),
      },
      { type: "session_info", id: "00000022", parentId: "00000012", timestamp: T, name: "n" },
    ];
    const dir = tempDir();
    const path = join(dir, "pi16.jsonl");
    writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
    const b = await bootStore(dir);
    booted.push(b);

    const report = await b.store.open(path);
    expect(report.problems).toEqual([
      `${path}: entry 0000000f is a usage entry without usage; skipped`,
      `${path}: entry 00000010 is a context edit whose replacement is neither null nor text or a list of blocks; skipped`,
    ]);
    expect(b.store.entry("0000000e")).toMatchObject({ type: "future_kind" });
    const context = b.store.buildContext();
    expect(brief(context.messages)).toEqual(["user: q1", "assistant: a1, shorter", "branchSummary: B", "user: q2"]);
    expect(context.entryIds).toEqual(["0000000a", "0000000b", "00000011", "00000012"]);

    const stats = sessionStats(b.handle, undefined);
    // Two answers (100 in, 20 out, $0.0006 each), two usage entries and one branch summary.
    expect(stats.tokens).toEqual({ input: 200 + 5 + 3 + 7, output: 40, cacheRead: 3000, cacheWrite: 0, total: 3255 });
    expect(stats.cost).toBeCloseTo(0.0012 + 0.5 + 0.125 + 0.25, 10);
    expect(stats).toMatchObject({ userMessages: 2, assistantMessages: 2, totalMessages: 4 });
  });
});
