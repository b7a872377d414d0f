import { afterEach, describe, expect, it } from "vitest";
import { HooksContract, type AgentHooks } from "../../../contracts/hooks.js";
import type { ToolResultMessage } from "../../../contracts/ai/index.js";
import { definePlugin } from "../../../kernel/index.js";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { bootSession, testTool, type SessionHarness } from "./harness.js";

function hooksPlugin(id: string, hooks: AgentHooks) {
  return definePlugin({
    id,
    version: "1.0.0",
    provides: [HooksContract],
    setup: (ctx) => ctx.provide(HooksContract, hooks),
  });
}

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

describe("hooks providers", () => {
  it("block tool calls, rewrite results in order, and may consume or rewrite a prompt", async () => {
    const seen: string[] = [];
    const h = (harness = await bootSession({
      faux: {
        responses: [{ content: [fauxToolCall("rm", {}, "r1"), fauxToolCall("echo", {}, "e1")] }, { content: "ok" }],
      },
      tools: [testTool("rm", async () => "removed"), testTool("echo", async () => "raw")],
      extra: [
        hooksPlugin("guard", {
          beforeToolCall: async ({ toolCall }) =>
            toolCall.name === "rm" ? { block: true, reason: "rm is blocked by policy" } : undefined,
          afterToolCall: async ({ result }) => ({
            content: [{ type: "text", text: `${(result.content[0] as { text: string }).text}+guard` }],
          }),
          beforePrompt: async ({ text }) =>
            text === "/ping" ? { handled: true } : { text: text.replace("please", "") },
        }),
        hooksPlugin("audit", {
          afterToolCall: async ({ result }) => (
            seen.push((result.content[0] as { text: string }).text),
            { content: [{ type: "text", text: `${(result.content[0] as { text: string }).text}+audit` }] }
          ),
        }),
      ],
    }));
    await h.session.call("prompt", "/ping");
    expect(h.faux.requests).toHaveLength(0);
    await h.session.call("prompt", "please clean up");
    expect(h.faux.requests[0]!.context.messages[0]).toMatchObject({ role: "user", content: " clean up" });
    const results = h.session.call("messages").filter((m): m is ToolResultMessage => m.role === "toolResult");
    expect(results.find((r) => r.toolCallId === "r1")).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "rm is blocked by policy" }],
    });
    expect(results.find((r) => r.toolCallId === "e1")!.content).toEqual([{ type: "text", text: "raw+guard+audit" }]);
    expect(seen).toEqual(["raw+guard"]);
  });
});

describe("slash commands", () => {
  it("a prompt naming a command runs it instead of sending it; other slash text goes to the model", async () => {
    const { CommandContract } = await import("../../../contracts/command.js");
    const ran: string[] = [];
    const commands = definePlugin({
      id: "test-commands",
      version: "1.0.0",
      provides: [CommandContract],
      setup: (ctx) =>
        ctx.provide(
          CommandContract,
          { name: "deploy", description: "deploys", run: async (args: string) => void ran.push(args) },
          { key: "deploy" },
        ),
    });
    const h = (harness = await bootSession({
      faux: { responses: [{ content: "sent" }] },
      extra: [commands],
      resources: true,
    }));
    await h.session.call("prompt", "/deploy staging now");
    expect(ran).toEqual(["staging now"]);
    expect(h.faux.requests).toHaveLength(0);
    expect(h.session.call("state").isStreaming).toBe(false);
    await h.session.call("prompt", "/unknown thing");
    expect(h.faux.requests[0]!.context.messages[0]).toMatchObject({ content: "/unknown thing" });
  });
});
