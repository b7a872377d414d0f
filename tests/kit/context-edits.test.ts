/**
 * pi 1.6's `context_edit` entries in the model context, as its `buildSessionProjection` applies them:
 * `null` leaves the target out, a replacement swaps only the content (a string becomes one text block for
 * assistant and tool-result messages), the latest edit of a target wins, an edit on another branch or
 * one a compaction summarized away has no effect, and older entries stay as they were.
 */
import { describe, expect, it } from "vitest";
import type { ContextEditEntry, SessionEntry } from "../../contracts/session.js";
import { buildSessionContext } from "../../kit/index.js";
import { assistant, brief, toolResult, user } from "../plugins/session-jsonl/harness.js";

const T = "2025-03-01T10:00:00.000Z";
const msg = (id: string, parentId: string | null, message: any): SessionEntry => ({
  type: "message",
  id,
  parentId,
  timestamp: T,
  message,
});
const edit = (id: string, parentId: string, targetId: string, replacement: ContextEditEntry["replacement"]) =>
  ({ type: "context_edit", id, parentId, timestamp: T, targetId, replacement }) as SessionEntry;
const compaction = (id: string, parentId: string, firstKeptEntryId: string): SessionEntry => ({
  type: "compaction",
  id,
  parentId,
  timestamp: T,
  summary: "S",
  firstKeptEntryId,
  tokensBefore: 10,
});

describe("context_edit entries in the model context", () => {
  const base = [
    msg("u1", null, user("q1")),
    msg("a1", "u1", assistant("a1")),
    msg("u2", "a1", user("q2")),
    msg("a2", "u2", assistant("a2")),
  ];

  it("null leaves the target out; the entry ids follow the messages", () => {
    const context = buildSessionContext([...base, edit("e1", "a2", "a1", null)]);
    expect(brief(context.messages)).toEqual(["user: q1", "user: q2", "assistant: a2"]);
    expect(context.entryIds).toEqual(["u1", "u2", "a2"]);
  });

  it("a replacement swaps only the content; a string becomes a text block for assistant and tool results", () => {
    const result = toolResult("c1", "long output");
    const path = [
      ...base,
      msg("t1", "a2", result),
      edit("e1", "t1", "a1", { content: "short a1" }),
      edit("e2", "e1", "u1", { content: "short q1" }),
      edit("e3", "e2", "t1", { content: "short output" }),
    ];
    const context = buildSessionContext(path);
    expect(context.messages[0]).toEqual({ ...(base[0] as any).message, content: "short q1" });
    expect(context.messages[1]).toEqual({ ...(base[1] as any).message, content: [{ type: "text", text: "short a1" }] });
    expect(context.messages[4]).toEqual({ ...result, content: [{ type: "text", text: "short output" }] });
    // The entries themselves are not changed.
    expect((path[1] as any).message.content).toEqual([{ type: "text", text: "a1" }]);
  });

  it("the latest edit of a target wins, and an edit replaced by null stays out", () => {
    const replaced = buildSessionContext([
      ...base,
      edit("e1", "a2", "u2", null),
      edit("e2", "e1", "u2", { content: "back again" }),
    ]);
    expect(brief(replaced.messages)).toEqual(["user: q1", "assistant: a1", "user: back again", "assistant: a2"]);
    const hidden = buildSessionContext([
      ...base,
      edit("e1", "a2", "u2", { content: "x" }),
      edit("e2", "e1", "u2", null),
    ]);
    expect(brief(hidden.messages)).toEqual(["user: q1", "assistant: a1", "assistant: a2"]);
  });

  it("edits are branch-relative: a path that ends before the edit sees the original", () => {
    const withEdit = [...base, edit("e1", "a2", "u1", null)];
    expect(brief(buildSessionContext(withEdit).messages)).toHaveLength(3);
    expect(brief(buildSessionContext(base).messages)).toEqual([
      "user: q1",
      "assistant: a1",
      "user: q2",
      "assistant: a2",
    ]);
  });

  it("with a compaction: edits among the kept and later entries apply; summarized ones and their edits are gone", () => {
    const path = [
      msg("u1", null, user("q1")),
      edit("e0", "u1", "u1", { content: "never seen" }),
      msg("a1", "e0", assistant("a1")),
      edit("e1", "a1", "a1", { content: "kept edit" }),
      msg("u2", "e1", user("q2")),
      compaction("c1", "u2", "a1"),
      msg("a2", "c1", assistant("a2")),
      edit("e2", "a2", "u2", null),
      edit("e3", "e2", "u1", { content: "edit of a summarized entry" }),
    ];
    const context = buildSessionContext(path);
    expect(brief(context.messages)).toEqual(["compactionSummary: S", "assistant: kept edit", "assistant: a2"]);
    expect(context.entryIds).toEqual(["c1", "a1", "a2"]);
  });

  it("an edit can hide the compaction summary; a replacement leaves a summary as it is", () => {
    const path = [msg("u1", null, user("q1")), compaction("c1", "u1", "c1"), msg("u2", "c1", user("q2"))];
    expect(brief(buildSessionContext([...path, edit("e1", "u2", "c1", null)]).messages)).toEqual(["user: q2"]);
    expect(brief(buildSessionContext([...path, edit("e1", "u2", "c1", { content: "x" })]).messages)).toEqual([
      "compactionSummary: S",
      "user: q2",
    ]);
  });
});
