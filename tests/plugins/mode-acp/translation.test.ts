/**
 * The pure translations of the ACP mode, case by case: how tool calls are shown, how prompt blocks read,
 * how a stored conversation replays, how a turn's end maps to a stop reason.
 */
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../../contracts/agent.js";
import { newAssistantMessage } from "../../../hosts/api.js";
import { promptInput } from "../../../plugins/modes/mode-acp/prompt-content.js";
import { replayUpdates } from "../../../plugins/modes/mode-acp/replay.js";
import { turnEnd } from "../../../plugins/modes/mode-acp/stop-reason.js";
import { describeToolCall } from "../../../plugins/modes/mode-acp/tool-calls.js";

const model = { api: "faux", provider: "faux", id: "faux-1" };

describe("tool calls as an editor sees them", () => {
  it("titles, kinds, locations and diffs of pi's tools; other tools by name", () => {
    expect(
      describeToolCall(
        "edit",
        { path: "src/a.ts", edits: [{ oldText: "a", newText: "b" }], oldText: "c", newText: "d" },
        "/w",
      ),
    ).toEqual({
      title: "edit /w/src/a.ts",
      kind: "edit",
      locations: [{ path: "/w/src/a.ts" }],
      diffs: [
        { type: "diff", path: "/w/src/a.ts", oldText: "a", newText: "b" },
        { type: "diff", path: "/w/src/a.ts", oldText: "c", newText: "d" },
      ],
    });
    expect(describeToolCall("bash", { command: "npm test\nnpm run build" }, "/w")).toMatchObject({
      title: "bash: npm test …",
      kind: "execute",
      locations: [],
      diffs: [],
    });
    expect(describeToolCall("grep", { pattern: "TODO", path: "/abs" }, "/w")).toMatchObject({
      title: "grep TODO in /abs",
      kind: "search",
    });
    expect(describeToolCall("read", { path: "/etc/hosts" }, "/w")).toMatchObject({
      title: "read /etc/hosts",
      kind: "read",
      locations: [{ path: "/etc/hosts" }],
    });
    expect(describeToolCall("mcp__gh__issue", { title: "x" }, "/w")).toEqual({
      title: "mcp__gh__issue",
      kind: "other",
      locations: [],
      diffs: [],
    });
    expect(describeToolCall("write", "not an object", "/w")).toEqual({
      title: "write",
      kind: "edit",
      locations: [],
      diffs: [],
    });
  });
});

describe("prompt blocks", () => {
  it("a binary resource is named but not inlined; a non-file URI stays as it is", () => {
    expect(
      promptInput([
        { type: "resource", resource: { uri: "zed://buffer/1", blob: "AAAA", mimeType: "application/pdf" } },
        { type: "resource_link", uri: "https://example.com/spec", name: "spec" },
      ]),
    ).toEqual({
      text: '<file name="zed://buffer/1">(binary content, application/pdf, not shown)</file>\n\nReferenced file: https://example.com/spec',
      images: [],
    });
  });
});

describe("replay of a stored conversation", () => {
  it("session-level messages read as the model reads them; a call without a result is shown as failed", () => {
    const assistant = {
      ...newAssistantMessage(model),
      content: [{ type: "toolCall" as const, id: "t1", name: "bash", arguments: { command: "ls" } }],
      stopReason: "toolUse" as const,
    };
    const messages: AgentMessage[] = [
      { role: "compactionSummary", summary: "We set up the repo.", timestamp: 1 },
      { role: "bashExecution", command: "git status", output: "clean", exitCode: 0, timestamp: 2 },
      { role: "custom", customType: "note", content: "hidden", display: false, timestamp: 3 },
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", data: "AA", mimeType: "image/png" },
        ],
        timestamp: 4,
      },
      assistant,
    ];
    const updates = replayUpdates(messages, "/w");
    expect(updates.map((u) => u.sessionUpdate)).toEqual([
      "agent_message_chunk",
      "user_message_chunk",
      "user_message_chunk",
      "user_message_chunk",
      "tool_call",
    ]);
    expect(updates[0]).toMatchObject({
      content: { type: "text", text: "Summary of the earlier conversation:\n\nWe set up the repo." },
    });
    expect(updates[1]).toMatchObject({ content: { type: "text", text: "$ git status\nclean" } });
    expect(updates[3]).toMatchObject({ content: { type: "image", data: "AA", mimeType: "image/png" } });
    expect(updates[4]).toMatchObject({ toolCallId: "t1", title: "bash: ls", status: "failed", content: [] });
  });
});

describe("stop reasons", () => {
  it("maps each way a turn ends", () => {
    const ended = (stopReason: "stop" | "length" | "toolUse" | "error" | "aborted", errorMessage?: string) => ({
      ...newAssistantMessage(model),
      stopReason,
      errorMessage,
    });
    expect(turnEnd(undefined, false)).toEqual({ stopReason: "end_turn" });
    expect(turnEnd(ended("stop"), false)).toEqual({ stopReason: "end_turn" });
    expect(turnEnd(ended("stop"), true)).toEqual({ stopReason: "cancelled" });
    expect(turnEnd(ended("aborted"), false)).toEqual({ stopReason: "cancelled" });
    expect(turnEnd(ended("length"), false)).toEqual({ stopReason: "max_tokens" });
    expect(turnEnd(ended("error", "the answer was blocked by Gemini's safety filters (SAFETY)"), false)).toEqual({
      stopReason: "refusal",
    });
    expect(turnEnd(ended("error", "Gemini refused the prompt (PROHIBITED_CONTENT)"), false)).toEqual({
      stopReason: "refusal",
    });
    expect(turnEnd(ended("error", "429 rate limited"), false)).toEqual({ error: "429 rate limited" });
    expect(turnEnd(ended("error"), false)).toEqual({ error: "the model request failed" });
  });
});
