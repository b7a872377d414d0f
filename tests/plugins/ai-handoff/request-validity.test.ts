/**
 * The request-body checks the handoff test relies on must be able to fail: each accepts a valid body
 * and names the problem in each broken one.
 */
import { describe, expect, it } from "vitest";
import { anthropicProblems, completionsProblems, geminiProblems, responsesProblems } from "./request-validity.js";

type Json = Record<string, any>;
const clone = <T>(value: T): T => structuredClone(value);

const anthropicBody: Json = {
  messages: [
    { role: "user", content: "hi" },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "t", signature: "s" },
        { type: "tool_use", id: "toolu_1", name: "read", input: {} },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "ok" }] },
        { type: "text", text: "go on" },
      ],
    },
  ],
};

const responsesBody: Json = {
  input: [
    { role: "user", content: [{ type: "input_text", text: "hi" }] },
    { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "enc" },
    { type: "function_call", call_id: "call_1", id: "fc_1", name: "read", arguments: "{}" },
    { type: "function_call_output", call_id: "call_1", output: "ok" },
  ],
};

const completionsBody: Json = {
  messages: [
    { role: "system", content: "be brief" },
    { role: "user", content: [{ type: "text", text: "hi" }] },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "read", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: "call_1", content: "ok" },
  ],
};

const geminiBody: Json = {
  contents: [
    { role: "user", parts: [{ text: "hi" }] },
    { role: "model", parts: [{ text: "t", thought: true }, { functionCall: { name: "read", args: {} } }] },
    { role: "user", parts: [{ functionResponse: { name: "read", response: { output: "ok" } } }] },
  ],
};

describe("request validity checks", () => {
  it("accept valid bodies of all four APIs", () => {
    expect(anthropicProblems(anthropicBody)).toEqual([]);
    expect(responsesProblems(responsesBody)).toEqual([]);
    expect(completionsProblems(completionsBody, { textOnly: false })).toEqual([]);
    expect(geminiProblems(geminiBody)).toEqual([]);
  });

  it("Anthropic: unsigned thinking, a bad or repeated tool_use id, a tool_use without its result", () => {
    const unsigned = clone(anthropicBody);
    delete unsigned.messages[1].content[0].signature;
    expect(anthropicProblems(unsigned)).toEqual(["messages[1].content[0]: thinking without signature"]);
    const badId = clone(anthropicBody);
    badId.messages[1].content[1].id = "call|fc_1";
    badId.messages[2].content[0].tool_use_id = "call|fc_1";
    expect(anthropicProblems(badId).join("\n")).toContain("breaks ^[a-zA-Z0-9_-]{1,64}$");
    const unanswered = clone(anthropicBody);
    unanswered.messages[2] = { role: "user", content: "never mind" };
    expect(anthropicProblems(unanswered)).toEqual([
      "messages[1]: tool_use toolu_1 has no tool_result in the next message",
    ]);
    const resultLast = clone(anthropicBody);
    resultLast.messages[2].content.reverse();
    expect(anthropicProblems(resultLast)).toEqual(["messages[2]: tool_result blocks must come first"]);
  });

  it("Responses: a call without output, an output without call, a non-fc_ item id, a dangling reasoning item", () => {
    const noOutput = clone(responsesBody);
    noOutput.input.pop();
    expect(responsesProblems(noOutput)).toEqual(["input[2]: function_call call_1 has no function_call_output"]);
    const strayOutput = clone(responsesBody);
    strayOutput.input[3].call_id = "call_2";
    expect(responsesProblems(strayOutput)).toContain(
      "input[3]: output for call_2, which no earlier function_call made",
    );
    const badItem = clone(responsesBody);
    badItem.input[2].id = "toolu_1";
    expect(responsesProblems(badItem)).toEqual(['input[2]: function_call id "toolu_1" must start with fc_']);
    const dangling = clone(responsesBody);
    dangling.input.splice(2, 2);
    expect(responsesProblems(dangling)).toEqual(["input[1]: reasoning item without a following output item"]);
  });

  it("Chat Completions: a long id, a result missing before the next message, an image for a text-only model", () => {
    const longId = clone(completionsBody);
    longId.messages[2].tool_calls[0].id = "x".repeat(41);
    longId.messages[3].tool_call_id = "x".repeat(41);
    expect(completionsProblems(longId, { textOnly: false }).join("\n")).toContain("breaks ^[a-zA-Z0-9_-]{1,40}$");
    const early = clone(completionsBody);
    early.messages.splice(3, 0, { role: "user", content: "wait" });
    expect(completionsProblems(early, { textOnly: false })[0]).toBe(
      "messages[3]: user message before the results of call_1",
    );
    const image = clone(completionsBody);
    image.messages[1].content.push({ type: "image_url", image_url: { url: "data:image/png;base64,AA" } });
    expect(completionsProblems(image, { textOnly: true })).toEqual(["messages[1]: image sent to a text-only model"]);
    expect(completionsProblems(image, { textOnly: false })).toEqual([]);
  });

  it("Gemini: responses that do not match the calls, a part with two kinds of data, a call left unanswered", () => {
    const mismatch = clone(geminiBody);
    mismatch.contents[2].parts[0].functionResponse.name = "bash";
    expect(geminiProblems(mismatch)).toEqual([
      'contents[2]: function responses ["bash"] do not answer the calls ["read"] of the turn before',
    ]);
    const twoKinds = clone(geminiBody);
    twoKinds.contents[0].parts[0].inlineData = { mimeType: "image/png", data: "AA" };
    expect(geminiProblems(twoKinds)).toEqual(["contents[0].parts[0]: 2 kinds of data (text, inlineData)"]);
    const unanswered = clone(geminiBody);
    unanswered.contents.pop();
    expect(geminiProblems(unanswered)).toEqual(["contents[1]: function calls without responses in the next turn"]);
  });
});
