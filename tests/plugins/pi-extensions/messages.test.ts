import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import type { SessionHarness } from "../agent-session/harness.js";
import { bootWithExtensions, fixture, notices, recordingUi } from "./ext-harness.js";

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

/** The session file's lines, as pi reads them (pi, and so the store, writes the file once an assistant message exists). */
function sessionLines(h: SessionHarness): any[] {
  const path = h.session.call("state").sessionFile!;
  return readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

describe("pi.sendMessage", () => {
  it("records a custom message as pi does (custom_message entry), and the model reads it as pi converts it", async () => {
    const h = (harness = await bootWithExtensions([fixture("messages-and-state.ts")], {
      faux: { responses: [{ content: "hi" }, { content: "noted" }] },
    }));
    await h.session.call("prompt", "hi");
    const ended = h.events.length;
    await h.session.call("prompt", "/note buy milk");
    expect(h.faux.requests).toHaveLength(1);
    const entry = sessionLines(h).find((e) => e.type === "custom_message");
    expect(entry).toMatchObject({
      type: "custom_message",
      customType: "note",
      content: "Note: buy milk",
      display: true,
      details: { length: 8 },
    });
    expect(h.session.call("messages").at(-1)).toEqual(
      expect.objectContaining({ role: "custom", customType: "note", content: "Note: buy milk", display: true }),
    );
    expect(
      h.events
        .slice(ended)
        .filter((e) => e.type === "message_end")
        .map((e) => (e as { message: { role: string } }).message.role),
    ).toEqual(["custom"]);

    await h.session.call("prompt", "what did I note?");
    expect(h.faux.requests[1]!.context.messages.slice(2)).toEqual([
      expect.objectContaining({ role: "user", content: [{ type: "text", text: "Note: buy milk" }] }),
      expect.objectContaining({ role: "user", content: "what did I note?" }),
    ]);
    expect(notices(h.events)).toEqual([]);
  });

  it("a message sent during a run (deliverAs steer) reaches the model before the run's next request, saved after the tool result", async () => {
    const h = (harness = await bootWithExtensions([fixture("messages-and-state.ts")], {
      faux: { responses: [{ content: [fauxToolCall("watch", {}, "w1")] }, { content: "I see the report" }] },
    }));
    await h.session.call("prompt", "watch the folder");
    expect(h.faux.requests[1]!.context.messages.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "toolResult",
      "user",
    ]);
    expect(h.faux.requests[1]!.context.messages.at(-1)).toMatchObject({
      content: [{ type: "text", text: "The watcher saw a change." }],
    });
    const kinds = sessionLines(h)
      .filter((e) => e.type === "message" || e.type === "custom_message")
      .map((e) => (e.type === "message" ? e.message.role : e.customType));
    expect(kinds).toEqual(["user", "assistant", "toolResult", "watch-report", "assistant"]);
  });

  it("deliverAs nextTurn waits for the next prompt and follows it; triggerTurn while idle starts a run that answers the message", async () => {
    const h = (harness = await bootWithExtensions([fixture("messages-and-state.ts")], {
      faux: { responses: [{ content: "ok" }] },
    }));
    await h.session.call("prompt", "/later remember the milk");
    expect(h.session.call("entries").some((e) => e.type === "custom_message")).toBe(false);
    await h.session.call("prompt", "hello");
    expect(h.faux.requests[0]!.context.messages).toEqual([
      expect.objectContaining({ role: "user", content: "hello" }),
      expect.objectContaining({ role: "user", content: [{ type: "text", text: "Later: remember the milk" }] }),
    ]);
    await h.session.call("prompt", "/trigger go");
    for (let i = 0; i < 200 && h.faux.requests.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
    await h.session.call("idle");
    expect(notices(h.events)).toEqual([]);
    expect(h.faux.requests).toHaveLength(2);
    expect(h.faux.requests[1]!.context.messages.at(-1)).toMatchObject({
      role: "user",
      content: [{ type: "text", text: "go" }],
    });
  });
});

describe("pi.appendEntry", () => {
  it("writes a custom entry into the session file, outside the model's context; session_start restores from it", async () => {
    const ui = recordingUi();
    const h = (harness = await bootWithExtensions([fixture("messages-and-state.ts")], {
      extra: [ui.plugin],
      faux: { responses: [{ content: "hello" }] },
    }));
    await h.session.call("prompt", "hi");
    await h.session.call("prompt", "/count");
    await h.session.call("prompt", "/count");
    const lines = sessionLines(h);
    const custom = lines.filter((e) => e.type === "custom" && e.customType === "counter");
    expect(custom.map((e) => e.data)).toEqual([{ count: 1 }, { count: 2 }]);
    const answer = lines.find((e) => e.type === "message" && e.message.role === "assistant");
    expect(custom[0]).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{8}$/),
      parentId: answer.id,
      timestamp: expect.any(String),
    });
    expect(custom[1].parentId).toBe(custom[0].id);
    // pi 1.6.0 announces each appended entry to JSON and RPC clients.
    expect(h.events.filter((e) => e.type === "entry_appended")).toEqual(
      custom.map((entry) => ({ type: "entry_appended", entry })),
    );
    expect(h.session.call("messages").map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(ui.notes()).toEqual(["count is 1", "count is 2"]);

    // A new runtime over the same session file picks the count up in session_start.
    const file = h.session.call("state").sessionFile!;
    await h.kernel.shutdown();
    const ui2 = recordingUi();
    const again = (harness = await bootWithExtensions([fixture("messages-and-state.ts")], {
      extra: [ui2.plugin],
      config: { session: file },
    }));
    await again.session.call("prompt", "/count");
    expect(ui2.notes()).toEqual(["count is 3"]);
  });
});
