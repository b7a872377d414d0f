import { describe, expect, it } from "vitest";
import {
  emptyUsage,
  idRule,
  isSameModel,
  prepareHistory,
  shortHash,
  type AssistantMessage,
  type Message,
  type Model,
  type ToolResultMessage,
} from "../../../hosts/api.js";

function model(overrides: Partial<Model> = {}): Model {
  return {
    id: "claude-sonnet-4-5",
    name: "Sonnet",
    api: "anthropic-messages",
    provider: "anthropic",
    baseUrl: "https://api.anthropic.com",
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 200_000,
    maxTokens: 64_000,
    ...overrides,
  };
}
const anthropic = model();
const openai = model({ id: "gpt-5", api: "openai-responses", provider: "openai" });
const textOnly = model({ id: "local", api: "openai-completions", provider: "ollama", input: ["text"] });

function assistant(
  content: AssistantMessage["content"],
  from: Model = anthropic,
  stopReason: AssistantMessage["stopReason"] = "stop",
): AssistantMessage {
  return {
    role: "assistant",
    content,
    api: from.api,
    provider: from.provider,
    model: from.id,
    usage: emptyUsage(),
    stopReason,
    timestamp: 2,
  };
}
const user = (text: string): Message => ({ role: "user", content: text, timestamp: 1 });
const result = (toolCallId: string, text = "ok"): ToolResultMessage => ({
  role: "toolResult",
  toolCallId,
  toolName: "read",
  content: [{ type: "text", text }],
  isError: false,
  timestamp: 3,
});

describe("prepareHistory", () => {
  it("keeps the same model's thinking and signatures exactly", () => {
    const turn = assistant([
      { type: "thinking", thinking: "plan", thinkingSignature: "sig" },
      { type: "thinking", thinking: "", redacted: true, thinkingSignature: "enc" },
      { type: "text", text: "answer", textSignature: "msg_1" },
      { type: "toolCall", id: "toolu_1", name: "read", arguments: { path: "a" }, thoughtSignature: "ts" },
    ]);
    const out = prepareHistory([user("hi"), turn, result("toolu_1")], anthropic);
    expect(out[1]).toEqual(turn);
    expect(isSameModel(turn, anthropic)).toBe(true);
    expect(isSameModel(turn, openai)).toBe(false);
  });

  it("turns another model's thinking into text and drops foreign signatures and redacted thinking", () => {
    const turn = assistant([
      { type: "thinking", thinking: "plan", thinkingSignature: "sig" },
      { type: "thinking", thinking: "secret", redacted: true },
      { type: "thinking", thinking: "   " },
      { type: "text", text: "answer", textSignature: "msg_1" },
      { type: "toolCall", id: "toolu_1", name: "read", arguments: { path: "a" }, thoughtSignature: "ts" },
    ]);
    const out = prepareHistory([user("hi"), turn, result("toolu_1")], openai);
    expect((out[1] as AssistantMessage).content).toEqual([
      { type: "text", text: "plan" },
      { type: "text", text: "answer" },
      { type: "toolCall", id: "toolu_1", name: "read", arguments: { path: "a" } },
    ]);
  });

  it("rewrites tool-call ids for the target API and makes their results follow", () => {
    const longId = `call_abc|fc_${"x".repeat(100)}`;
    const rule = idRule(/^[a-zA-Z0-9_-]+$/, 64);
    const turn = assistant([{ type: "toolCall", id: longId, name: "read", arguments: {} }], openai, "toolUse");
    const out = prepareHistory([user("hi"), turn, result(longId)], anthropic, rule);
    const call = (out[1] as AssistantMessage).content[0] as { id: string };
    expect(call.id).not.toBe(longId);
    expect(call.id).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect((out[2] as ToolResultMessage).toolCallId).toBe(call.id);
    // The same model keeps its own ids even with a rule.
    const own = assistant([{ type: "toolCall", id: longId, name: "read", arguments: {} }], anthropic, "toolUse");
    expect(
      ((prepareHistory([own, result(longId)], anthropic, rule)[0] as AssistantMessage).content[0] as { id: string }).id,
    ).toBe(longId);
  });

  it("drops errored and aborted turns and answers tool calls left without a result", () => {
    const failed = assistant([{ type: "text", text: "half" }], anthropic, "error");
    const aborted = assistant([{ type: "text", text: "cut" }], anthropic, "aborted");
    const dangling = assistant(
      [
        { type: "toolCall", id: "t1", name: "read", arguments: {} },
        { type: "toolCall", id: "t2", name: "bash", arguments: {} },
      ],
      anthropic,
      "toolUse",
    );
    const out = prepareHistory([user("a"), failed, user("b"), aborted, dangling, result("t1"), user("c")], anthropic);
    expect(out.map((m) => m.role)).toEqual(["user", "user", "assistant", "toolResult", "toolResult", "user"]);
    const synthetic = out[4] as ToolResultMessage;
    expect(synthetic).toMatchObject({ toolCallId: "t2", toolName: "bash", isError: true });
    expect(synthetic.content[0]).toMatchObject({ type: "text" });
    // A history that ends on unanswered calls is closed too.
    const tail = prepareHistory([user("a"), dangling], anthropic);
    expect(tail.map((m) => (m.role === "toolResult" ? m.toolCallId : m.role))).toEqual([
      "user",
      "assistant",
      "t1",
      "t2",
    ]);
  });

  it("replaces images with one note for text-only models", () => {
    const picture = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
    const withImages: Message[] = [
      { role: "user", content: [{ type: "text", text: "look" }, picture, picture], timestamp: 1 },
      assistant([{ type: "toolCall", id: "t1", name: "screenshot", arguments: {} }], anthropic, "toolUse"),
      {
        role: "toolResult",
        toolCallId: "t1",
        toolName: "screenshot",
        content: [picture],
        isError: false,
        timestamp: 3,
      },
    ];
    const out = prepareHistory(withImages, textOnly);
    const userContent = (out[0] as { content: Array<{ type: string; text?: string }> }).content;
    expect(userContent.map((b) => b.type)).toEqual(["text", "text"]);
    expect(userContent[1]!.text).toMatch(/image omitted/);
    expect((out[2] as ToolResultMessage).content).toEqual([
      { type: "text", text: expect.stringMatching(/tool image omitted/) },
    ]);
    // A vision model gets the images untouched, as the very same objects.
    expect(prepareHistory(withImages, anthropic)[0]).toBe(withImages[0]);
  });

  it("never mutates its input", () => {
    const history: Message[] = [
      user("hi"),
      assistant(
        [
          { type: "thinking", thinking: "t", thinkingSignature: "s" },
          { type: "toolCall", id: "a|b", name: "read", arguments: { x: 1 } },
        ],
        openai,
        "toolUse",
      ),
      result("a|b"),
    ];
    const before = structuredClone(history);
    prepareHistory(history, anthropic, idRule(/^[a-zA-Z0-9_-]+$/, 64));
    expect(history).toEqual(before);
  });
});

describe("idRule and shortHash", () => {
  const anthropicIds = idRule(/^[a-zA-Z0-9_-]+$/, 64);

  it("keeps ids that already fit", () => {
    expect(anthropicIds("toolu_01ABC")).toBe("toolu_01ABC");
    expect(idRule(/^call_[a-z0-9]+$/, 40, "call_")("call_abc")).toBe("call_abc");
  });

  it("rewrites ids that do not fit: allowed characters only, within the length, with the prefix", () => {
    const rewritten = anthropicIds(`fc_123|item:456/${"z".repeat(200)}`);
    expect(rewritten).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(rewritten.length).toBeLessThanOrEqual(64);
    const prefixed = idRule(/^call_[a-zA-Z0-9]+$/, 40, "call_")("toolu|1");
    expect(prefixed.startsWith("call_")).toBe(true);
    expect(prefixed.length).toBeLessThanOrEqual(40);
  });

  it("is deterministic and never maps two different ids to one", () => {
    expect(anthropicIds("a|b")).toBe(anthropicIds("a|b"));
    expect(anthropicIds("a|b")).not.toBe(anthropicIds("a:b"));
    const many = new Set(Array.from({ length: 500 }, (_, i) => anthropicIds(`call|${i}|${"q".repeat(80)}`)));
    expect(many.size).toBe(500);
  });

  it("shortHash is stable base36 and differs for different text", () => {
    expect(shortHash("hello")).toBe(shortHash("hello"));
    expect(shortHash("hello")).toMatch(/^[0-9a-z]+$/);
    expect(shortHash("hello")).not.toBe(shortHash("hellp"));
    expect(shortHash("")).toBe((0x811c9dc5).toString(36));
  });
});
