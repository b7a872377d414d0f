import { cpSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { AssistantMessage, ToolResultMessage } from "../../../contracts/ai/index.js";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { bootSession, type SessionHarness } from "../agent-session/harness.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const ALT_LOOP = fileURLToPath(new URL("../../fixtures/plugins/alt-loop/index.ts", import.meta.url));
const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

describe("the loop is a plugin", () => {
  it("a distribution whose agent-loop is replaced by a small alternative loop runs a prompt end to end", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "pi-swap-"));
    writeFileSync(join(cwd, "notes.txt"), "the answer is 42\n");
    const h = (harness = await bootSession({
      cwd,
      sources: { "agent-loop": { kind: "file", path: ALT_LOOP } },
      faux: {
        responses: [{ content: [fauxToolCall("read", { path: "notes.txt" }, "r1")] }, { content: "it says 42" }],
      },
      entries: [{ id: "tool-read", source: { kind: "file", path: join(ROOT, "plugins/tools/tool-read/index.ts") } }],
    }));
    expect(h.kernel.describe().plugins.find((p) => p.id === "agent-loop")).toMatchObject({
      name: "alt-loop",
      status: "active",
    });
    await h.session.call("prompt", "what do the notes say?");
    const messages = h.session.call("messages");
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect((messages[1] as AssistantMessage).responseId).toBe("alt-loop");
    expect(JSON.stringify((messages[2] as ToolResultMessage).content)).toContain("the answer is 42");
    expect(h.session.call("lastAssistantText")).toBe("it says 42");
  });
});

describe("live edit of tool-read while a session runs", () => {
  it("the call in flight finishes on the old code; the next call runs the new code", async () => {
    // A copy of the source tree, so the test can edit tool-read on disk without touching the repository.
    const tree = mkdtempSync(join(tmpdir(), "pi-live-"));
    for (const dir of ["kernel", "contracts", "plugins/tools/tool-read"])
      cpSync(join(ROOT, dir), join(tree, dir), { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(tree, "node_modules"));
    const toolFile = join(tree, "plugins/tools/tool-read/read-tool.ts");
    const cwd = mkdtempSync(join(tmpdir(), "pi-live-cwd-"));
    writeFileSync(join(cwd, "a.txt"), "alpha\n");

    // The first read waits at a gate inside the tool's code, so the edit lands while it runs.
    const original = readFileSync(toolFile, "utf8");
    const execute = "execute: (_toolCallId, params, signal, _onUpdate, ctx) => readPath(params, signal, ctx),";
    expect(original).toContain(execute);
    // The edit a user might make: wrap execute to tag its results (and, for the test, wait at a gate).
    const marked = (marker: string): string =>
      original.replace(
        execute,
        `execute: async (_toolCallId, params, signal, _onUpdate, ctx) => {
      const gate = (globalThis as { __readGate?: Promise<void> }).__readGate;
      if (gate) await gate;
      const result = await readPath(params, signal, ctx);
      return { ...result, details: { ...result.details, marker: ${JSON.stringify(marker)} } as never };
    },`,
      );
    writeFileSync(toolFile, marked("old"));
    expect(readFileSync(toolFile, "utf8")).toContain('marker: "old"');

    let openGate!: () => void;
    (globalThis as Record<string, unknown>).__readGate = new Promise<void>((resolve) => (openGate = resolve));
    const h = (harness = await bootSession({
      cwd,
      faux: {
        responses: [
          { content: [fauxToolCall("read", { path: "a.txt" }, "first")] },
          { content: [fauxToolCall("read", { path: "a.txt" }, "second")] },
          { content: "done" },
        ],
      },
      entries: [{ id: "tool-read", source: { kind: "file", path: join(tree, "plugins/tools/tool-read/index.ts") } }],
    }));
    const running = h.session.call("prompt", "read it twice");
    while (!h.events.some((e) => e.type === "tool_execution_start")) await flush();

    // Edit on disk and reload while the first call is still inside the old code.
    writeFileSync(toolFile, marked("new"));
    const committed = new Promise<void>((resolve) =>
      h.kernel.on("kernel:commit", (e: { pluginId: string }) => e.pluginId === "tool-read" && resolve()),
    );
    const reloaded = h.kernel.reload("tool-read");
    await committed;
    // Committed while the old call still runs: retire waits for it, then the old generation goes.
    (globalThis as Record<string, unknown>).__readGate = undefined;
    openGate();
    expect((await reloaded).status).toBe("committed");
    await running;

    const results = h.session.call("messages").filter((m): m is ToolResultMessage => m.role === "toolResult");
    expect(results.map((r) => (r.details as { marker?: string } | undefined)?.marker)).toEqual(["old", "new"]);
    expect(h.kernel.activeGeneration("tool-read")).toBe(2);
  });
});
