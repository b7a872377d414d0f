import { describe, expect, it } from "vitest";
import {
  DEFAULT_COMPACTION,
  SessionCompactorContract,
  type SessionEntry,
  type Summarize,
} from "../../../contracts/session.js";
import { Kernel } from "../../../kernel/index.js";
import compactionPlugin from "../../../plugins/session/compaction/index.js";
import { PathBuilder } from "./harness.js";

describe("compaction plugin", () => {
  it("boots (declare-only setup) and serves shouldCompact, compact and summarizeBranch through a handle", async () => {
    const kernel = new Kernel();
    try {
      const boot = await kernel.boot([
        { id: "compaction", source: { kind: "inline", label: "compaction", definition: compactionPlugin } },
      ]);
      expect(boot.errors).toEqual([]);
      const compactor = kernel.use(SessionCompactorContract);
      expect(compactor.call("shouldCompact", 183_617, 200_000, DEFAULT_COMPACTION)).toBe(true);
      expect(compactor.call("shouldCompact", 183_616, 200_000, DEFAULT_COMPACTION)).toBe(false);

      const session = new PathBuilder();
      session.user(15_000);
      session.assistant(10);
      const kept = session.user(20_000);
      session.assistant(10);
      const summarize: Summarize = async () => "SUMMARY";
      const result = await compactor.call("compact", session.path as SessionEntry[], DEFAULT_COMPACTION, summarize, {});
      expect(result).toMatchObject({ summary: "SUMMARY", firstKeptEntryId: kept.id, tokensBefore: 35_020 });
      const branch = await compactor.call("summarizeBranch", session.path as SessionEntry[], summarize, {});
      expect(branch!.summary.endsWith("SUMMARY")).toBe(true);
    } finally {
      await kernel.shutdown();
    }
  });
});
