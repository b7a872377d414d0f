/**
 * A flood of nested calls adds no listeners to one shared AbortSignal: each call has its own signal,
 * so tools that listen for abort never trigger Node's MaxListenersExceededWarning.
 */
import { Type } from "@sinclair/typebox";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../../../contracts/ai/index.js";
import type { AgentTool } from "../../../contracts/tool.js";
import codemodePlugin from "../../../plugins/integrations/codemode/index.js";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { bootSession, type SessionHarness } from "../agent-session/harness.js";

let harness: SessionHarness | undefined;
const warnings: string[] = [];
const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
afterEach(async () => {
  process.off("warning", onWarning);
  await harness?.kernel.shutdown();
  harness = undefined;
});

/** A tool that listens for abort while it works, as bash and fetch-like tools do. */
const listening: AgentTool = {
  name: "listening",
  description: "waits a little, listening for abort",
  parameters: Type.Object({}),
  async execute(_id, _args, signal) {
    const onAbort = (): void => {};
    signal?.addEventListener("abort", onAbort);
    await new Promise((resolve) => setTimeout(resolve, 20));
    signal?.removeEventListener("abort", onAbort);
    return { content: [{ type: "text", text: "ok" }] };
  },
};

describe("codemode nested calls and abort listeners", () => {
  it("300 parallel nested calls raise no MaxListenersExceededWarning", async () => {
    warnings.length = 0;
    process.on("warning", onWarning);
    const code =
      "const all = []; for (let i = 0; i < 300; i++) all.push(tools.listening({})); return (await Promise.all(all)).length;";
    const h = (harness = await bootSession({
      faux: { responses: [{ content: [fauxToolCall("codemode", { code }, "cm1")] }, { content: "done" }] } as never,
      tools: [listening],
      entries: [
        {
          id: "codemode",
          source: { kind: "inline", label: "codemode", definition: codemodePlugin },
          config: { maxConcurrentToolCalls: 64 },
        },
      ],
    }));
    await h.session.call("prompt", "flood");
    const result = h.session.call("messages").find((m): m is ToolResultMessage => m.role === "toolResult")!;
    expect(result.content).toEqual([{ type: "text", text: "300" }]);
    expect(result.details).toMatchObject({ toolCalls: 300, failedToolCalls: 0 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((w) => w.startsWith("MaxListenersExceededWarning"))).toEqual([]);
  }, 60_000);
});
