import { describe, expect, it } from "vitest";
import { DEFAULT_COMPACTION } from "../../../contracts/session.js";
import { shouldCompact } from "../../../plugins/session/compaction/trigger.js";

describe("shouldCompact", () => {
  const window = 200_000;
  const threshold = window - DEFAULT_COMPACTION.reserveTokens; // 183,616

  it("is false exactly at contextWindow − reserveTokens and true one token above", () => {
    expect(shouldCompact(threshold - 1, window, DEFAULT_COMPACTION)).toBe(false);
    expect(shouldCompact(threshold, window, DEFAULT_COMPACTION)).toBe(false);
    expect(shouldCompact(threshold + 1, window, DEFAULT_COMPACTION)).toBe(true);
  });

  it("uses the reserveTokens of the settings it is given", () => {
    const settings = { ...DEFAULT_COMPACTION, reserveTokens: 1_000 };
    expect(shouldCompact(9_000, 10_000, settings)).toBe(false);
    expect(shouldCompact(9_001, 10_000, settings)).toBe(true);
  });

  it("never triggers when compaction is disabled, however full the context", () => {
    const disabled = { ...DEFAULT_COMPACTION, enabled: false };
    expect(shouldCompact(threshold + 1, window, disabled)).toBe(false);
    expect(shouldCompact(window * 10, window, disabled)).toBe(false);
  });
});
