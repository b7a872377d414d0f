import { afterEach, describe, expect, it } from "vitest";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { testTool, type SessionHarness } from "../agent-session/harness.js";
import { bootWithExtensions, fixture, notices, recordingUi } from "./ext-harness.js";

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

const PIRATE = "\n\nIMPORTANT: You are now in PIRATE MODE.";

describe("before_agent_start", () => {
  it("changes the system prompt for every request of the run and adds its message after the prompt, saved in the session", async () => {
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([fixture("pirate.ts")], {
      extra: [ui.plugin],
      tools: [testTool("look", async () => "a chest")],
      faux: {
        responses: [
          { content: [fauxToolCall("look", {}, "l1")] },
          { content: "Arrr, a chest!" },
          { content: "plain answer" },
        ],
      },
    }));
    await h.session.call("prompt", "what is there?");
    const [first, second] = h.faux.requests;
    expect(first!.context.systemPrompt!.endsWith(PIRATE)).toBe(true);
    expect(second!.context.systemPrompt).toBe(first!.context.systemPrompt);
    const base = first!.context.systemPrompt!.slice(0, -PIRATE.length);
    expect(base.length).toBeGreaterThan(0);
    // The injected message follows the prompt, as the model reads a custom message: a user message.
    expect(first!.context.messages).toEqual([
      expect.objectContaining({ role: "user", content: "what is there?" }),
      expect.objectContaining({
        role: "user",
        content: [{ type: "text", text: "Ahoy! The user said: what is there?" }],
      }),
    ]);
    expect(second!.context.messages.slice(0, 3).map((m) => m.role)).toEqual(["user", "user", "assistant"]);
    expect(second!.context.messages[1]).toMatchObject({
      content: [{ type: "text", text: "Ahoy! The user said: what is there?" }],
    });
    // pi's session shape: a custom_message entry right after the user message.
    const kinds = h.session
      .call("entries")
      .filter((e) => e.type === "message" || e.type === "custom_message")
      .map((e) => (e.type === "message" ? e.message.role : `custom_message:${e.customType}`));
    expect(kinds).toEqual(["user", "custom_message:pirate", "assistant", "toolResult", "assistant"]);
    // The second handler saw the chained prompt.
    expect(ui.notes()).toEqual(["chained: true"]);

    // Switched off, the next prompt gets the session's own system prompt back.
    await h.session.call("prompt", "/pirate");
    await h.session.call("prompt", "and now?");
    expect(h.faux.requests[2]!.context.systemPrompt).toBe(base);
    expect(h.faux.requests[2]!.context.messages.at(-1)).toMatchObject({ role: "user", content: "and now?" });
    expect(notices(h.events)).toEqual([]);
  });
});

describe("input", () => {
  it("transforms or handles what the user typed, before templates expand", async () => {
    const { writeFileSync, mkdtempSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const file = join(mkdtempSync(join(tmpdir(), "pi-ext-input-")), "input.ts");
    writeFileSync(
      file,
      `export default function (pi) {
  pi.on("input", async (event, ctx) => {
    if (event.text.startsWith("?quick ")) return { action: "transform", text: \`Respond briefly: \${event.text.slice(7)}\` };
    if (event.text === "ping") { ctx.ui.notify(\`pong (\${event.source}, idle: \${ctx.isIdle()})\`, "info"); return { action: "handled" }; }
    return { action: "continue" };
  });
}
`,
    );
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([file], {
      extra: [ui.plugin],
      faux: { responses: [{ content: "brief" }] },
    }));
    await h.session.call("prompt", "ping");
    expect(ui.notes()).toEqual(["pong (interactive, idle: true)"]);
    expect(h.faux.requests).toHaveLength(0);
    await h.session.call("prompt", "?quick what is pi");
    expect(h.faux.requests[0]!.context.messages.at(-1)).toMatchObject({
      role: "user",
      content: "Respond briefly: what is pi",
    });
  });
});

describe("context", () => {
  it("handlers get a copy of the transcript before each request and may change what is sent, not what is saved", async () => {
    const { writeFileSync, mkdtempSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const file = join(mkdtempSync(join(tmpdir(), "pi-ext-context-")), "prune.ts");
    writeFileSync(
      file,
      `export default function (pi) {
  pi.registerCommand("note", { handler: async (args) => pi.sendMessage({ customType: "scratch", content: args, display: false }) });
  pi.on("context", async (event) => {
    for (const m of event.messages) if (m.role === "user" && typeof m.content === "string") m.content = m.content.toUpperCase();
    return { messages: event.messages.filter((m) => !(m.role === "custom" && m.customType === "scratch")) };
  });
}
`,
    );
    const h = (harness = await bootWithExtensions([file], {
      faux: { responses: [{ content: "one" }, { content: "two" }] },
    }));
    await h.session.call("prompt", "first");
    await h.session.call("prompt", "/note private scratch");
    await h.session.call("prompt", "second");
    expect(
      h.faux.requests[1]!.context.messages.map((m) => [m.role, typeof m.content === "string" ? m.content : "(blocks)"]),
    ).toEqual([
      ["user", "FIRST"],
      ["assistant", "(blocks)"],
      ["user", "SECOND"],
    ]);
    expect(h.session.call("messages").map((m) => m.role)).toEqual(["user", "assistant", "custom", "user", "assistant"]);
    expect(h.session.call("messages")[0]).toMatchObject({ content: "first" });
  });
});

describe("model_select and thinking_level_select", () => {
  it("fire when the session's model or thinking level changes, with the previous one", async () => {
    const { writeFileSync, mkdtempSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const file = join(mkdtempSync(join(tmpdir(), "pi-ext-model-")), "model-status.ts");
    writeFileSync(
      file,
      `export default function (pi) {
  pi.on("model_select", async (event, ctx) => {
    const prev = event.previousModel ? \`\${event.previousModel.provider}/\${event.previousModel.id}\` : "none";
    ctx.ui.notify(\`Model changed (\${event.source}): \${prev} -> \${event.model.provider}/\${event.model.id}\`, "info");
  });
  pi.on("thinking_level_select", async (event, ctx) => ctx.ui.setStatus("thinking", \`thinking: \${event.level} (was \${event.previousLevel})\`));
  pi.registerCommand("status", { handler: async () => {} });
}
`,
    );
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([file], {
      extra: [ui.plugin],
      faux: { models: [{ id: "faux-1" }, { id: "faux-2", reasoning: false }] },
    }));
    await h.session.call("prompt", "/status");
    await h.session.call("setModel", "faux", "faux-2");
    await h.session.call("prompt", "/status");
    expect(ui.notes()).toEqual(["Model changed (set): faux/faux-1 -> faux/faux-2"]);
    expect(ui.calls.filter((c) => c.method === "setStatus").map((c) => c.args)).toEqual([
      ["thinking", "thinking: off (was medium)"],
    ]);
  });
});
