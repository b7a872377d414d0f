/**
 * `message_end` handlers that return a replacement message (pi 1.6.0): the loop waits for them before
 * the session saves the message, so the saved entry and the next request carry the replacement; handlers
 * chain; a replacement with another role is refused with an error line and the message stays.
 */
import { afterEach, describe, expect, it } from "vitest";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import type { SessionHarness } from "../agent-session/harness.js";
import { bootWithExtensions, fixture, notices } from "./ext-harness.js";

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

const text = (message: unknown): string => JSON.stringify((message as { content: unknown }).content);

describe("message_end replacements", () => {
  it("the saved answer and tool result are the replacements, and so is what the model reads next", async () => {
    const h = (harness = await bootWithExtensions([fixture("message-end-replace.ts")], {
      faux: {
        responses: [
          { content: [{ type: "text", text: "the secret is 42" }, fauxToolCall("probe", {}, "p1")] },
          { content: "done" },
        ],
      },
      tools: [(await import("../agent-session/harness.js")).testTool("probe", async () => "raw tool output")],
    }));
    await h.session.call("prompt", "tell me");
    const saved = h.session
      .call("entries")
      .filter((e) => e.type === "message")
      .map((e) => (e as { message: unknown }).message);
    const answer = saved.find((m) => (m as { role: string }).role === "assistant")!;
    expect(text(answer)).toContain("the [redacted] is 42");
    expect(text(answer)).toContain(" (checked)");
    expect(text(answer)).not.toContain("secret");
    const result = saved.find((m) => (m as { role: string }).role === "toolResult")!;
    expect(text(result)).toContain("tool output replaced");
    // The second request: the model reads the replaced answer and tool result.
    const next = h.faux.requests[1]!.context.messages;
    expect(text(next.find((m) => m.role === "assistant"))).toContain("[redacted]");
    expect(text(next.find((m) => m.role === "toolResult"))).toContain("tool output replaced");
    expect(JSON.stringify(next)).not.toContain("raw tool output");
    // The message_end the modes see (and the TUI shows) is the replacement too.
    const ended = h.events.filter((e) => e.type === "message_end").map((e) => (e as { message: unknown }).message);
    expect(ended.some((m) => text(m).includes("[redacted]"))).toBe(true);
    expect(notices(h.events)).toEqual([]);
  });

  it("a replacement with another role is refused with one error line; the message is saved as it was", async () => {
    const h = (harness = await bootWithExtensions([fixture("message-end-replace.ts")], {
      faux: { responses: [{ content: "ok" }] },
    }));
    await h.session.call("prompt", "wrong role please");
    const user = h.session.call("messages").find((m) => m.role === "user")!;
    expect(text(user)).toContain("wrong role please");
    expect(notices(h.events)).toEqual([
      `extension ${fixture("message-end-replace.ts")}: message_end: the replacement must be a message with the same role ("user"), got role "assistant"`,
    ]);
  });
});
