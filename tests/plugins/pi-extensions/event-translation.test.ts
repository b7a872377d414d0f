/** Session events as pi 1.6.0's extension events: compaction outcomes, thinking level, stream events. */
import { describe, expect, it } from "vitest";
import { SessionEventTranslator } from "../../../plugins/integrations/pi-extensions/events.js";

const model = { provider: "p", id: "m", api: "openai-completions" } as any;

describe("SessionEventTranslator", () => {
  it("a compaction that saved nothing is session_compact_failed with pi's fields; one that saved is session_compact", () => {
    const t = new SessionEventTranslator(model, "medium", undefined);
    const failed = {
      type: "compaction_end",
      reason: "overflow",
      result: null,
      aborted: false,
      willRetry: true,
      errorMessage: "too big",
    } as const;
    expect(t.translate(failed, () => undefined)).toEqual([
      {
        type: "session_compact_failed",
        reason: "overflow",
        aborted: false,
        willRetry: true,
        fromExtension: false,
        errorMessage: "too big",
      },
    ]);
    const entry = { type: "compaction", id: "c1", summary: "s" } as any;
    const done = {
      type: "compaction_end",
      reason: "manual",
      result: { summary: "s" },
      aborted: false,
      willRetry: false,
    } as any;
    expect(t.translate(done, () => entry)).toEqual([
      { type: "session_compact", compactionEntry: entry, fromExtension: false, reason: "manual", willRetry: false },
    ]);
  });

  it("thinking_level_changed is thinking_level_select with the previous level, once per change", () => {
    const t = new SessionEventTranslator(model, "medium", undefined);
    expect(t.translate({ type: "thinking_level_changed", level: "high" }, () => undefined)).toEqual([
      { type: "thinking_level_select", level: "high", previousLevel: "medium" },
    ]);
    expect(t.translate({ type: "thinking_level_changed", level: "high" }, () => undefined)).toEqual([]);
  });

  it("message_update also gives provider_stream_event with the model's provider, api and id", () => {
    const t = new SessionEventTranslator(model, "off", undefined);
    const data = { type: "text_delta", contentIndex: 0, delta: "x" };
    const update = { type: "message_update", message: {}, assistantMessageEvent: data } as any;
    expect(t.translate(update, () => undefined)).toEqual([
      update,
      { type: "provider_stream_event", provider: "p", api: "openai-completions", model: "m", data },
    ]);
  });
});
