/**
 * Where the entries extensions appended (pi's `appendEntry`) go when the view rebuilds its transcript:
 * after the last message before them on the branch, first when none is, and not at all when a
 * compaction summarised them away (pi renders the compaction-aware branch the same way).
 */
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../../contracts/agent.js";
import type { SessionEntry } from "../../../contracts/session.js";
import { placeEntries } from "../../../plugins/ui/tui/transcript-rebuild.js";

const entry = (id: string, type: string, extra: Record<string, unknown> = {}) =>
  ({ id, type, parentId: null, timestamp: "", ...extra }) as unknown as SessionEntry;
const message = (role: string) => ({ role }) as unknown as AgentMessage;

describe("placeEntries", () => {
  it("places each custom entry after the message before it on the branch; one before all goes first", () => {
    const path = [
      entry("c0", "custom", { customType: "early" }),
      entry("u1", "message"),
      entry("a1", "message"),
      entry("c1", "custom", { customType: "card" }),
      entry("m1", "model_change"),
      entry("u2", "message"),
    ];
    const placed = placeEntries(
      { messages: [message("user"), message("assistant"), message("user")], entryIds: ["u1", "a1", "u2"] },
      path,
    );
    expect(placed.map((p) => [p.entry.id, p.after])).toEqual([
      ["c0", -1],
      ["c1", 1],
    ]);
  });

  it("after a compaction: entries it summarised are left out; kept and later ones follow the kept messages", () => {
    const path = [
      entry("u1", "message"),
      entry("gone", "custom", { customType: "card" }),
      entry("u2", "message"),
      entry("kept", "custom", { customType: "card" }),
      entry("a2", "message"),
      entry("k", "compaction"),
      entry("late", "custom", { customType: "card" }),
      entry("u3", "message"),
    ];
    const placed = placeEntries(
      {
        messages: [message("compactionSummary"), message("user"), message("assistant"), message("user")],
        entryIds: ["k", "u2", "a2", "u3"],
      },
      path,
    );
    expect(placed.map((p) => [p.entry.id, p.after])).toEqual([
      ["kept", 1],
      ["late", 2],
    ]);
  });
});
