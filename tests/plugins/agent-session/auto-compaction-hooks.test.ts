/**
 * Automatic compaction (threshold, overflow) asks the hooks first, as pi asks `session_before_compact`:
 * the hook sees the reason and willRetry, a cancel ends it as aborted with nothing saved, and a hook that
 * saves a compaction itself stands in for the summary.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HooksContract, type SessionChange } from "../../../contracts/hooks.js";
import { SettingsContract, type Settings } from "../../../contracts/resources.js";
import { SessionStoreContract } from "../../../contracts/session.js";
import { definePlugin } from "../../../kernel/index.js";
import { bootWithExtensions, recordingUi } from "../pi-extensions/ext-harness.js";
import { bootSession, type SessionHarness } from "./harness.js";

function settingsPlugin(settings: Settings) {
  return definePlugin({
    id: "test-settings",
    version: "1.0.0",
    provides: [SettingsContract],
    setup: (ctx) => ctx.provide(SettingsContract, { get: async () => settings, set: async () => {} }),
  });
}

/** A hooks provider that records each session change and answers with `answer`. */
function gatePlugin(seen: SessionChange[], answer: "cancel" | "save" | "go") {
  return definePlugin({
    id: "test-gate",
    version: "1.0.0",
    provides: [HooksContract],
    requires: [{ contract: SessionStoreContract }],
    setup(ctx) {
      const store = ctx.use(SessionStoreContract);
      ctx.provide(HooksContract, {
        beforeSessionChange: async (change) => {
          seen.push(change);
          if (answer === "cancel") return { cancel: true };
          if (answer === "save") {
            const first = store.api.path()[0]!.id;
            store.api.appendCompaction("summary from the hook", first, 1234, undefined, true);
            return { handled: true };
          }
          return undefined;
        },
      });
    },
  });
}

const big = (label: string): string => `${label} ${"lorem ipsum dolor sit amet ".repeat(120)}`;
const smallWindow = { models: [{ id: "faux-1", contextWindow: 4_000, maxTokens: 1_000 }] };
const tight = { compaction: { reserveTokens: 1_000, keepRecentTokens: 800 } };
const thresholdRun = [
  { content: big("a1"), usage: { input: 900, output: 800 } },
  { content: big("a2"), usage: { input: 2_500, output: 800 } },
  { content: "## Goal\nsummary text" },
  { content: "## Goal\nturn prefix" },
];

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

describe("automatic compaction asks the hooks", () => {
  it("at the threshold: the hook sees reason threshold; cancel ends it aborted and saves nothing", async () => {
    const seen: SessionChange[] = [];
    const h = (harness = await bootSession({
      faux: { ...smallWindow, responses: thresholdRun },
      extra: [settingsPlugin(tight), gatePlugin(seen, "cancel")],
    }));
    await h.session.call("prompt", big("u1"));
    await h.session.call("prompt", big("u2"));
    expect(seen).toEqual([{ kind: "compact", reason: "threshold", willRetry: false }]);
    expect(h.events.find((e) => e.type === "compaction_end")).toMatchObject({
      reason: "threshold",
      aborted: true,
      result: null,
      willRetry: false,
    });
    expect(h.session.call("messages").some((m) => m.role === "compactionSummary")).toBe(false);
    expect(h.faux.requests).toHaveLength(2);
  });

  it("a hook that saves the compaction itself replaces the summary request", async () => {
    const seen: SessionChange[] = [];
    const h = (harness = await bootSession({
      faux: { ...smallWindow, responses: thresholdRun },
      extra: [settingsPlugin(tight), gatePlugin(seen, "save")],
    }));
    await h.session.call("prompt", big("u1"));
    await h.session.call("prompt", big("u2"));
    const end = h.events.find((e) => e.type === "compaction_end") as any;
    expect(end).toMatchObject({ reason: "threshold", aborted: false });
    expect(end.result.summary).toBe("summary from the hook");
    expect(h.faux.requests).toHaveLength(2);
    expect(h.session.call("messages")[0]!.role).toBe("compactionSummary");
  });

  it("on overflow: the hook sees willRetry true; when it lets it go, the run compacts and retries", async () => {
    const seen: SessionChange[] = [];
    const h = (harness = await bootSession({
      faux: {
        ...smallWindow,
        responses: [
          { content: big("a1") },
          { stopReason: "error", errorMessage: "prompt is too long: 213462 tokens > 200000 maximum" },
          { content: "## Goal\ncompacted" },
          { content: "answer after compaction" },
        ],
      },
      extra: [settingsPlugin({ compaction: { reserveTokens: 100, keepRecentTokens: 50 } }), gatePlugin(seen, "go")],
    }));
    await h.session.call("prompt", big("u1"));
    await h.session.call("prompt", "u2");
    expect(seen).toEqual([{ kind: "compact", reason: "overflow", willRetry: true }]);
    expect(h.session.call("lastAssistantText")).toBe("answer after compaction");
  });

  it("a pi extension's session_before_compact gets pi's payload for an automatic compaction and may cancel it", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "pi-auto-compact-ext-")), "ext.ts");
    writeFileSync(
      file,
      `export default function (pi) {
  pi.on("session_before_compact", (event, ctx) => {
    ctx.ui.notify("before " + JSON.stringify({ reason: event.reason, willRetry: event.willRetry, custom: event.customInstructions ?? null, entries: event.branchEntries.length > 0, tokens: typeof event.preparation.tokensBefore, signal: event.signal instanceof AbortSignal }));
    return { cancel: true };
  });
}`,
    );
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([file], {
      faux: { ...smallWindow, responses: thresholdRun },
      extra: [settingsPlugin(tight), ui.plugin],
    }));
    await h.session.call("prompt", big("u1"));
    await h.session.call("prompt", big("u2"));
    expect(ui.notes()).toContain(
      'before {"reason":"threshold","willRetry":false,"custom":null,"entries":true,"tokens":"number","signal":true}',
    );
    expect(h.events.find((e) => e.type === "compaction_end")).toMatchObject({ aborted: true, result: null });
    expect(h.session.call("messages").some((m) => m.role === "compactionSummary")).toBe(false);
  });
});
