import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../../contracts/agent.js";
import type { Message } from "../../../contracts/ai/index.js";
import { convertToLlm } from "../../../kit/index.js";
import { serializeConversation, TOOL_RESULT_MAX_CHARS } from "../../../plugins/session/compaction/serialize.js";
import { zeroUsage } from "./harness.js";

describe("serializeConversation", () => {
  it("writes pi's role-labelled transcript: user, thinking, text, tool calls with arguments, tool results", () => {
    const messages: Message[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "Fix the build" },
          { type: "image", data: "AAAA", mimeType: "image/png" },
        ],
        timestamp: 0,
      },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "Check the config first." },
          { type: "text", text: "Looking." },
          { type: "toolCall", id: "c1", name: "read", arguments: { path: "tsconfig.json", limit: 20 } },
          { type: "toolCall", id: "c2", name: "bash", arguments: { command: "npm run build" } },
        ],
        api: "openai-completions",
        provider: "test",
        model: "m",
        usage: zeroUsage(),
        stopReason: "toolUse",
        timestamp: 0,
      },
      {
        role: "toolResult",
        toolCallId: "c1",
        toolName: "read",
        content: [{ type: "text", text: "{}" }],
        isError: false,
        timestamp: 0,
      },
      { role: "user", content: "", timestamp: 0 },
    ];
    expect(serializeConversation(messages)).toBe(
      [
        "[User]: Fix the build",
        "[Assistant thinking]: Check the config first.",
        "[Assistant]: Looking.",
        '[Assistant tool calls]: read(path="tsconfig.json", limit=20); bash(command="npm run build")',
        "[Tool result]: {}",
      ].join("\n\n"),
    );
  });

  it("cuts tool results at 2,000 characters and says how many were left out", () => {
    const long = "a".repeat(TOOL_RESULT_MAX_CHARS) + "b".repeat(500);
    const text = serializeConversation([
      {
        role: "toolResult",
        toolCallId: "c",
        toolName: "bash",
        content: [{ type: "text", text: long }],
        isError: false,
        timestamp: 0,
      },
    ]);
    expect(text).toBe(`[Tool result]: ${"a".repeat(TOOL_RESULT_MAX_CHARS)}\n\n[... 500 more characters truncated]`);
  });
});

describe("convertToLlm", () => {
  it("turns bash runs, extension messages and summaries into user messages, and drops excluded runs and unknown roles", () => {
    const messages: AgentMessage[] = [
      {
        role: "bashExecution",
        command: "ls",
        output: "a.ts",
        exitCode: 2,
        cancelled: false,
        truncated: false,
        timestamp: 1,
      },
      {
        role: "bashExecution",
        command: "secret",
        output: "x",
        exitCode: 0,
        cancelled: false,
        truncated: false,
        excludeFromContext: true,
        timestamp: 2,
      },
      { role: "custom", customType: "note", content: "remember X", display: true, timestamp: 3 },
      { role: "branchSummary", summary: "B", fromId: "abcd1234", timestamp: 4 },
      { role: "compactionSummary", summary: "C", tokensBefore: 5, timestamp: 5 },
      { role: "somethingElse", timestamp: 6 },
    ];
    const text = serializeConversation(convertToLlm(messages));
    expect(text.split("\n\n[User]: ")).toHaveLength(4);
    expect(text).toContain("[User]: Ran `ls`\n```\na.ts\n```\n\nCommand exited with code 2");
    expect(text).not.toContain("secret");
    expect(text).toContain("[User]: remember X");
    expect(text).toContain("<summary>\nB</summary>");
    expect(text).toContain("<summary>\nC\n</summary>");
  });
});
