/**
 * One session, three readers: the model request (the store's context turned into LLM messages, as
 * agent-session sends it), compaction's token count and compaction's summarizer must all see the same
 * text, in pi's wording, because all three go through kit's one model-context module.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "../../hosts/api.js";
import { estimateContextTokens } from "../../hosts/api.js";
import type { SessionStore } from "../../contracts/session.js";
import { BRANCH_SUMMARY_PREFIX, COMPACTION_SUMMARY_PREFIX, convertToLlm } from "../../kit/index.js";
import { compact } from "../../plugins/session/compaction/compact.js";
import { serializeConversation } from "../../plugins/session/compaction/serialize.js";
import { estimatePathContextTokens } from "../../plugins/session/compaction/session-context.js";
import { fakeSummarizer, zeroUsage } from "../plugins/compaction/harness.js";
import { assistant, bootStore, tempDir, user, type BootedStore } from "../plugins/session-jsonl/harness.js";

let booted: BootedStore | undefined;
afterEach(async () => {
  await booted?.kernel.shutdown();
  booted = undefined;
});

/** A session holding every kind of entry the model reads: turns, a tool call, a shell run, an extension message, a branch summary. */
async function sessionWithEveryKind(): Promise<SessionStore> {
  booted = await bootStore(tempDir());
  const store = booted.store;
  await store.newSession({ cwd: tempDir("pi-model-context-cwd-"), inMemory: true });
  store.appendMessage(user("Fix the build"));
  store.appendMessage({
    role: "assistant",
    content: [
      { type: "text", text: "Reading the config." },
      { type: "toolCall", id: "c1", name: "read", arguments: { path: "tsconfig.json" } },
    ],
    api: "openai-completions",
    provider: "test",
    model: "m",
    usage: zeroUsage(),
    stopReason: "toolUse",
    timestamp: 1,
  });
  store.appendMessage({
    role: "toolResult",
    toolCallId: "c1",
    toolName: "read",
    content: [{ type: "text", text: '{ "strict": true }' }],
    isError: false,
    timestamp: 2,
  });
  store.appendMessage({
    role: "bashExecution",
    command: "npm test",
    output: "1 failed",
    exitCode: 1,
    cancelled: false,
    truncated: true,
    fullOutputPath: "/tmp/out.log",
    timestamp: 3,
  });
  store.appendMessage({
    role: "bashExecution",
    command: "cat secrets",
    output: "hidden",
    exitCode: 0,
    cancelled: false,
    truncated: false,
    excludeFromContext: true,
    timestamp: 4,
  });
  store.appendCustomMessage("note", "Remember the lint rule", true);
  store.appendBranchSummary(store.leafId()!, "Tried a rewrite on another branch; it broke the tests.");
  store.appendMessage(user("Now try the small fix"));
  store.appendMessage(assistant("Done."));
  return store;
}

/** Every text block of `messages`, in order. */
function textsOf(messages: readonly Message[]): string[] {
  return messages.flatMap((message) =>
    typeof message.content === "string"
      ? [message.content]
      : message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])),
  );
}

describe("kit's model context: one text for the model, the token count and the summarizer", () => {
  it("turns shell runs, extension messages and branch summaries into pi's wording for the model request", async () => {
    const store = await sessionWithEveryKind();
    const request = convertToLlm(store.buildContext().messages);
    const texts = textsOf(request);
    expect(texts).toContain(
      "Ran `npm test`\n```\n1 failed\n```\n\nCommand exited with code 1\n\n[Output truncated. Full output: /tmp/out.log]",
    );
    expect(texts).toContain("Remember the lint rule");
    expect(texts).toContain(`${BRANCH_SUMMARY_PREFIX}Tried a rewrite on another branch; it broke the tests.</summary>`);
    expect(texts.join("\n")).not.toContain("hidden");
  });

  it("compaction counts the tokens of exactly the messages the model is sent", async () => {
    const store = await sessionWithEveryKind();
    const request = convertToLlm(store.buildContext().messages);
    expect(estimatePathContextTokens(store.path())).toBe(estimateContextTokens(request).tokens);
  });

  it("the summarizer reads the same messages the model was sent", async () => {
    const store = await sessionWithEveryKind();
    const path = store.path();
    const { summarize, requests } = fakeSummarizer();
    const result = await compact(path, { enabled: true, reserveTokens: 16_384, keepRecentTokens: 1 }, summarize);
    expect(result).toBeDefined();
    const keptIndex = path.findIndex((entry) => entry.id === result!.firstKeptEntryId);
    const summarizedIds = new Set(path.slice(0, keptIndex).map((entry) => entry.id));
    const context = store.buildContext();
    const summarizedMessages = context.messages.filter((_message, index) =>
      summarizedIds.has(context.entryIds[index]!),
    );
    expect(summarizedMessages.length).toBeGreaterThan(4);
    // The cut may split a turn, so the summarized messages can reach the summarizer in two requests.
    const prompts = requests.map((request) => request.prompt).join("\n");
    for (const message of convertToLlm(summarizedMessages)) expect(prompts).toContain(serializeConversation([message]));
    expect(prompts).toContain("Command exited with code 1");
    expect(prompts).not.toContain("hidden");
  });

  it("after a compaction, the model, the token count and the next summary see pi's compaction wording", async () => {
    const store = await sessionWithEveryKind();
    const path = store.path();
    store.appendCompaction("The build was fixed.", path[path.length - 2]!.id, 1234);
    store.appendMessage(user("And the docs?"));
    const request = convertToLlm(store.buildContext().messages);
    expect(textsOf(request)[0]).toBe(`${COMPACTION_SUMMARY_PREFIX}The build was fixed.\n</summary>`);
    expect(estimatePathContextTokens(store.path())).toBe(estimateContextTokens(request).tokens);
  });
});
