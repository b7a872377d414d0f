/**
 * The command context's session operations (pi's ExtensionCommandContext): newSession, switchSession,
 * fork, navigateTree, with their `session_before_*` gates, and `ctx.compact` with
 * `session_before_compact`. A command that changes the session lets its prompt end first.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionHarness } from "../agent-session/harness.js";
import { bootWithExtensions, notices, recordingUi } from "./ext-harness.js";

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

const SOURCE = `
export default function (pi) {
  let cancel = false;
  pi.registerCommand("cancel-next", { handler: async () => { cancel = true; } });
  for (const name of ["session_before_switch", "session_before_fork", "session_before_tree"])
    pi.on(name, (event, ctx) => { ctx.ui.notify("gate " + JSON.stringify(event, (k, v) => (k === "signal" ? undefined : v))); if (cancel) { cancel = false; return { cancel: true }; } });
  pi.on("session_tree", (event, ctx) => ctx.ui.notify("tree " + (event.oldLeafId !== event.newLeafId)));
  pi.registerCommand("fresh", { handler: async (_a, ctx) => {
    const result = await ctx.newSession({ withSession: async (fresh) => fresh.ui.notify("with " + fresh.sessionManager.getEntries().filter((e) => e.type === "message").length) });
    ctx.ui.notify("new " + JSON.stringify(result));
  } });
  pi.registerCommand("back", { handler: async (args, ctx) => ctx.ui.notify("switch " + JSON.stringify(await ctx.switchSession(args))) });
  pi.registerCommand("fork-first", { handler: async (_a, ctx) => {
    const first = ctx.sessionManager.getEntries().find((e) => e.type === "message" && e.message.role === "user");
    ctx.ui.notify("fork " + JSON.stringify(await ctx.fork(first.id)));
  } });
  pi.registerCommand("to-first", { handler: async (_a, ctx) => {
    const first = ctx.sessionManager.getEntries().find((e) => e.type === "message" && e.message.role === "user");
    ctx.ui.notify("nav " + JSON.stringify(await ctx.navigateTree(first.id, { label: "start" })));
  } });
  pi.registerCommand("squash", { handler: async (_a, ctx) => ctx.compact({ onComplete: (r) => ctx.ui.notify("compacted " + r.summary), onError: (e) => ctx.ui.notify("compact error " + e.message) }) });
  pi.on("session_before_compact", (event) => (event.customInstructions === "mine" ? { compaction: { summary: "extension summary", firstKeptEntryId: event.preparation.firstKeptEntryId, tokensBefore: 7 } } : { cancel: true }));
  pi.registerCommand("squash-mine", { handler: async (_a, ctx) => ctx.compact({ customInstructions: "mine", onComplete: (r) => ctx.ui.notify("compacted " + r.summary), onError: (e) => ctx.ui.notify("compact error " + e.message) }) });
  pi.on("session_compact", (event, ctx) => ctx.ui.notify("session_compact " + event.fromExtension + " " + event.compactionEntry.summary));
}`;

function extension(): string {
  const file = join(mkdtempSync(join(tmpdir(), "pi-ext-cmdsession-")), "ext.ts");
  writeFileSync(file, SOURCE);
  return file;
}

/** Resolves once the recording UI got a notification starting with `prefix`. */
async function noted(notes: () => string[], prefix: string): Promise<string> {
  for (;;) {
    const found = notes().find((n) => n.startsWith(prefix));
    if (found !== undefined) return found;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe("command context session operations", () => {
  it("newSession runs after the command's prompt, with session_before_switch first and withSession after", async () => {
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([extension()], {
      extra: [ui.plugin],
      faux: { responses: [{ content: "hi" }] },
    }));
    await h.session.call("prompt", "hello");
    const first = h.session.call("state").sessionFile!;
    await h.session.call("prompt", "/fresh");
    expect(await noted(ui.notes, "new ")).toBe('new {"cancelled":false}');
    expect(ui.notes()).toContain('gate {"type":"session_before_switch","reason":"new"}');
    expect(ui.notes()).toContain("with 0");
    expect(h.session.call("state").sessionFile).not.toBe(first);
    await h.session.call("prompt", `/back ${first}`);
    expect(await noted(ui.notes, "switch ")).toBe('switch {"cancelled":false}');
    expect(h.session.call("state").sessionFile).toBe(first);
    // The gates fire for typed, sent and automatic operations alike: no warning about any of them.
    expect(notices(h.events)).toEqual([]);
  });

  it("a handler's { cancel: true } stops the operation: the session stays", async () => {
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([extension()], {
      extra: [ui.plugin],
      faux: { responses: [{ content: "hi" }] },
    }));
    await h.session.call("prompt", "hello");
    const file = h.session.call("state").sessionFile;
    await h.session.call("prompt", "/cancel-next");
    await h.session.call("prompt", "/fresh");
    expect(await noted(ui.notes, "new ")).toBe('new {"cancelled":true}');
    expect(h.session.call("state").sessionFile).toBe(file);
  });

  it("fork and navigateTree: gates with pi's fields, then the session forks / moves, and session_tree follows", async () => {
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([extension()], {
      extra: [ui.plugin],
      faux: { responses: [{ content: "one" }, { content: "two" }] },
    }));
    await h.session.call("prompt", "first question");
    await h.session.call("prompt", "second question");
    const file = h.session.call("state").sessionFile;
    await h.session.call("prompt", "/to-first");
    expect(await noted(ui.notes, "nav ")).toBe('nav {"cancelled":false}');
    expect(await noted(ui.notes, "tree ")).toBe("tree true");
    expect(ui.notes().find((n) => n.includes("session_before_tree"))).toContain('"userWantsSummary":false');
    await h.session.call("prompt", "/fork-first");
    expect(await noted(ui.notes, "fork ")).toBe('fork {"cancelled":false}');
    expect(ui.notes().find((n) => n.includes("session_before_fork"))).toContain('"position":"before"');
    expect(h.session.call("state").sessionFile).not.toBe(file);
  });

  it("ctx.compact: session_before_compact cancels, or supplies the summary saved as the compaction", async () => {
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([extension()], {
      extra: [ui.plugin],
      faux: { responses: [{ content: "one" }, { content: "two" }] },
    }));
    await h.session.call("prompt", "first question");
    await h.session.call("prompt", "/squash");
    expect(await noted(ui.notes, "compact error")).toBe("compact error Compaction cancelled by an extension");
    await h.session.call("prompt", "/squash-mine");
    expect(await noted(ui.notes, "compacted")).toBe("compacted extension summary");
    expect(await noted(ui.notes, "session_compact")).toBe("session_compact true extension summary");
    expect(h.session.call("entries").filter((e) => e.type === "compaction")).toHaveLength(1);
  });
});
