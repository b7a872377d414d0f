import { afterEach, describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../../../contracts/ai/index.js";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { testTool } from "../agent-session/harness.js";
import { startRpc, started, type RpcHarness } from "../mode-rpc/rpc-harness.js";
import { fixture, notices, withExtensions } from "./ext-harness.js";

let harness: RpcHarness | undefined;
afterEach(async () => {
  harness?.endInput();
  await harness?.exit;
  await harness?.kernel.shutdown();
  harness = undefined;
});

const confirmRequest = (r: Record<string, any>) => r.type === "extension_ui_request" && r.method === "confirm";

describe("ctx.ui.confirm over RPC", () => {
  it("an extension's confirm becomes an extension_ui_request line; the client's answer decides the tool call", async () => {
    const ran: string[] = [];
    const h = (harness = await startRpc(
      withExtensions([fixture("permission-gate.ts")], {
        tools: [testTool("bash", async (args) => (ran.push(args.command), "removed"))],
        faux: {
          responses: [
            { content: [fauxToolCall("bash", { command: "rm -rf build" }, "b1")] },
            { content: "I was not allowed." },
            { content: [fauxToolCall("bash", { command: "rm -rf build" }, "b2")] },
            { content: "Removed." },
          ],
        },
      }),
    ));
    await started(h);

    const first = await h.client.request({ type: "prompt", message: "clean the build" });
    expect(first).toMatchObject({ type: "response", command: "prompt", success: true });
    const ask = await h.client.next(confirmRequest);
    expect(ask).toEqual({
      type: "extension_ui_request",
      id: expect.any(String),
      method: "confirm",
      title: "Dangerous!",
      message: "Allow rm -rf?",
    });
    const from = h.client.count;
    h.client.send({ type: "extension_ui_response", id: ask.id, confirmed: false });
    await h.client.event("agent_end", from);
    expect(ran).toEqual([]);
    // The RPC mode decides whether a prompt starts a run before the session finished the last one; wait for idle.
    await h.session.call("idle");

    const second = await h.client.request({ type: "prompt", message: "really clean it" });
    expect(second.success).toBe(true);
    const again = await h.client.next(confirmRequest, from);
    const later = h.client.count;
    h.client.send({ type: "extension_ui_response", id: again.id, confirmed: true });
    await h.client.event("agent_end", later);
    expect(ran).toEqual(["rm -rf build"]);

    const results = h.session.call("messages").filter((m): m is ToolResultMessage => m.role === "toolResult");
    expect(results.map((r) => [r.toolCallId, r.isError, (r.content[0] as { text: string }).text])).toEqual([
      ["b1", true, "Blocked by user"],
      ["b2", false, "removed"],
    ]);
    expect(notices(h.events)).toEqual([]);
  });
});
