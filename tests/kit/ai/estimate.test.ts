import { describe, expect, it } from "vitest";
import { emptyUsage, type AssistantMessage, type Message } from "../../../hosts/api.js";
import { estimateContextTokens, estimateMessageTokens, IMAGE_TOKENS, usageTokens } from "../../../kit/ai/estimate.js";

const image = { type: "image" as const, data: "A".repeat(100_000), mimeType: "image/png" };

function assistant(
  totalTokens: number,
  stopReason: AssistantMessage["stopReason"] = "stop",
  text = "abcd",
): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    api: "x",
    provider: "x",
    model: "m",
    usage: { ...emptyUsage(), input: totalTokens - 10, output: 10, totalTokens },
    stopReason,
    timestamp: 0,
  };
}

describe("estimateMessageTokens", () => {
  it("counts characters / 4, rounded up, for every kind of content", () => {
    expect(estimateMessageTokens({ role: "user", content: "12345", timestamp: 0 })).toBe(2);
    expect(estimateMessageTokens({ role: "user", content: [{ type: "text", text: "12345678" }], timestamp: 0 })).toBe(
      2,
    );
    expect(
      estimateMessageTokens({
        role: "assistant",
        content: [
          { type: "thinking", thinking: "1234" },
          { type: "text", text: "1234" },
          { type: "toolCall", id: "t", name: "read", arguments: { p: "x" } },
        ],
        api: "x",
        provider: "x",
        model: "m",
        usage: emptyUsage(),
        stopReason: "toolUse",
        timestamp: 0,
      }),
    ).toBe(Math.ceil((4 + 4 + 4 + JSON.stringify({ p: "x" }).length) / 4));
    expect(
      estimateMessageTokens({
        role: "toolResult",
        toolCallId: "t",
        toolName: "read",
        content: [{ type: "text", text: "1234" }],
        isError: false,
        timestamp: 0,
      }),
    ).toBe(2);
  });

  it("counts each image at a fixed cost, whatever its size", () => {
    expect(
      estimateMessageTokens({ role: "user", content: [{ type: "text", text: "look" }, image, image], timestamp: 0 }),
    ).toBe(1 + 2 * IMAGE_TOKENS);
    expect(
      estimateMessageTokens({
        role: "toolResult",
        toolCallId: "t",
        toolName: "shot",
        content: [image],
        isError: false,
        timestamp: 0,
      }),
    ).toBe(1 + IMAGE_TOKENS);
  });
});

describe("estimateContextTokens", () => {
  it("anchors on the last completed answer's usage and estimates only what came after it", () => {
    const messages: Message[] = [
      { role: "user", content: "x".repeat(4000), timestamp: 0 },
      assistant(5_000),
      { role: "user", content: "x".repeat(400), timestamp: 0 },
      assistant(9_000, "toolUse"),
      {
        role: "toolResult",
        toolCallId: "t",
        toolName: "read",
        content: [{ type: "text", text: "y".repeat(796) }],
        isError: false,
        timestamp: 0,
      },
      { role: "user", content: [{ type: "text", text: "see" }, image], timestamp: 0 },
    ];
    const estimate = estimateContextTokens(messages);
    expect(estimate.lastUsageIndex).toBe(3);
    expect(estimate.usageTokens).toBe(9_000);
    expect(estimate.trailingTokens).toBe(200 + 1 + IMAGE_TOKENS);
    expect(estimate.tokens).toBe(9_000 + 200 + 1 + IMAGE_TOKENS);
  });

  it("skips errored and aborted answers, whose usage cannot be trusted", () => {
    const messages: Message[] = [
      assistant(1_000),
      { role: "user", content: "1234", timestamp: 0 },
      assistant(50_000, "error", "12345678"),
      assistant(60_000, "aborted", ""),
    ];
    const estimate = estimateContextTokens(messages);
    expect(estimate.lastUsageIndex).toBe(0);
    expect(estimate.tokens).toBe(1_000 + 1 + 2 + 0);
  });

  it("estimates everything when no answer has usage yet", () => {
    const messages: Message[] = [
      { role: "user", content: "12345678", timestamp: 0 },
      { ...assistant(0), usage: emptyUsage() },
    ];
    expect(estimateContextTokens(messages)).toEqual({
      tokens: 3,
      usageTokens: 0,
      trailingTokens: 3,
      lastUsageIndex: undefined,
    });
    expect(estimateContextTokens([])).toEqual({
      tokens: 0,
      usageTokens: 0,
      trailingTokens: 0,
      lastUsageIndex: undefined,
    });
  });

  it("usageTokens falls back to the sum when totalTokens is missing", () => {
    expect(usageTokens({ ...emptyUsage(), input: 1, output: 2, cacheRead: 3, cacheWrite: 4 })).toBe(10);
    expect(usageTokens({ ...emptyUsage(), input: 1, totalTokens: 7 })).toBe(7);
  });
});
