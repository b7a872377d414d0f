import { Type } from "@sinclair/typebox";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../../../contracts/ai/index.js";
import { ToolSourceContract } from "../../../contracts/tool.js";
import { definePlugin } from "../../../kernel/index.js";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { bootSession, type SessionHarness } from "./harness.js";

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

describe("tool sources", () => {
  it("tools listed at run time are offered to the model and run through the source", async () => {
    const listed: string[] = [];
    const source = definePlugin({
      id: "dynamic-tools",
      version: "1.0.0",
      provides: [ToolSourceContract],
      setup: (ctx) =>
        ctx.provide(ToolSourceContract, {
          listTools: async (cwd) => (
            listed.push(cwd),
            [
              {
                name: "mcp__demo__add",
                description: "adds",
                parameters: Type.Object({ a: Type.Number(), b: Type.Number() }),
              },
            ]
          ),
          executeTool: async (name, _id, params) => ({
            content: [
              {
                type: "text",
                text: `${name}=${(params as { a: number; b: number }).a + (params as { a: number; b: number }).b}`,
              },
            ],
          }),
        }),
    });
    const h = (harness = await bootSession({
      faux: { responses: [{ content: [fauxToolCall("mcp__demo__add", { a: 2, b: 3 }, "d1")] }, { content: "5" }] },
      extra: [source],
    }));
    await h.session.call("prompt", "add");
    expect(h.faux.requests[0]!.context.tools!.map((t) => t.name)).toContain("mcp__demo__add");
    const result = h.session.call("messages").find((m): m is ToolResultMessage => m.role === "toolResult")!;
    expect(result.content).toEqual([{ type: "text", text: "mcp__demo__add=5" }]);
    expect(listed.length).toBe(2);
  });
});
