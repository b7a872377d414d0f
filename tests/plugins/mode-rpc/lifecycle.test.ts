import { PassThrough } from "node:stream";
import { Type } from "@sinclair/typebox";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentTool } from "../../../contracts/tool.js";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { testTool } from "../agent-session/harness.js";
import { startRpc, type RpcHarness } from "./rpc-harness.js";

let harness: RpcHarness | undefined;
afterEach(async () => {
  harness?.endInput();
  await harness?.exit;
  await harness?.kernel.shutdown();
  harness = undefined;
});

const untilAborted: AgentTool<any, any> = {
  name: "forever",
  description: "runs until aborted",
  parameters: Type.Object({}),
  execute: (_id, _args, signal) =>
    new Promise((resolve) =>
      signal?.addEventListener("abort", () => resolve({ content: [{ type: "text", text: "stopped" }] }), {
        once: true,
      }),
    ),
};

describe("the run's end", () => {
  it("stdin ending mid-run lets the current run finish, then resolves 0", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const h = (harness = await startRpc({
      faux: { responses: [{ content: [fauxToolCall("wait", {}, "w1")] }, { content: "finished anyway" }] },
      tools: [testTool("wait", async () => (await held, "waited"))],
    }));
    await h.client.request({ type: "prompt", message: "go" });
    await h.client.event("tool_execution_start");
    // What the session looks like at the moment run() resolves.
    const atExit = h.exit.then((code) => ({
      code,
      streaming: h.session.call("state").isStreaming,
      answer: h.session.call("lastAssistantText"),
    }));
    h.endInput();
    release();
    expect(await atExit).toEqual({ code: 0, streaming: false, answer: "finished anyway" });
    expect(h.client.records.filter((r) => r.type === "agent_end")).toHaveLength(1);
  });

  it("the host's stop aborts the current run and resolves 0", async () => {
    const h = (harness = await startRpc({
      faux: { responses: [{ content: [fauxToolCall("forever", {}, "f1")] }] },
      tools: [untilAborted],
    }));
    await h.client.request({ type: "prompt", message: "go" });
    await h.client.event("tool_execution_start");
    h.stop();
    expect(await h.exit).toBe(0);
    expect(h.client.records.some((r) => r.type === "agent_end")).toBe(true);
    expect(h.session.call("state").isStreaming).toBe(false);
  });

  it("a second run while one is going is refused with exit 1; command-line messages are ignored with a warning", async () => {
    const h = (harness = await startRpc({ input: { messages: ["ignored prompt"] } }));
    await h.client.request({ type: "get_state" });
    expect(h.stderr()).toContain(
      "rpc mode reads prompts from stdin as commands; the command-line messages were ignored",
    );
    let errors = "";
    const stderr = new PassThrough();
    stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    const second = await h.mode.call(
      "run",
      { messages: [], images: [] },
      { stdin: new PassThrough(), stdout: new PassThrough(), stderr, stopped: new Promise<void>(() => {}) },
    );
    expect(second).toBe(1);
    expect(errors).toBe("pi: rpc mode is already running on other streams; run one at a time\n");
  });
});
