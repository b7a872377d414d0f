import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { tailOf } from "../../../plugins/modes/mode-rpc/user-bash.js";
import { testTool } from "../agent-session/harness.js";
import { startRpc, type RpcHarness } from "./rpc-harness.js";

let harness: RpcHarness | undefined;
afterEach(async () => {
  harness?.endInput();
  await harness?.exit;
  await harness?.kernel.shutdown();
  harness = undefined;
});

describe("bash", () => {
  it("runs in the session's folder, answers pi's BashResult, and the model sees it on the next prompt", async () => {
    const h = (harness = await startRpc({ faux: { responses: [{ content: "noted" }] } }));
    const response = await h.client.request({ type: "bash", command: "pwd; printf 'hello\\n'; exit 3" });
    expect(response).toEqual({
      id: "req-1",
      type: "response",
      command: "bash",
      success: true,
      data: { output: `${h.cwd}\nhello\n`, exitCode: 3, cancelled: false, truncated: false },
    });
    const messages = (await h.client.request({ type: "get_messages" })).data.messages;
    expect(messages).toEqual([
      {
        role: "bashExecution",
        command: "pwd; printf 'hello\\n'; exit 3",
        output: `${h.cwd}\nhello\n`,
        exitCode: 3,
        cancelled: false,
        truncated: false,
        timestamp: expect.any(Number),
      },
    ]);
    // No event announces the record (pi emits none either).
    expect(h.client.records.some((r) => r.type === "message_start")).toBe(false);
    await h.client.request({ type: "prompt", message: "what did I run?" });
    await h.client.event("agent_end");
    const sent = h.faux.requests[0]!.context.messages;
    expect(sent[0]).toMatchObject({
      role: "user",
      content: [{ type: "text", text: expect.stringContaining("Ran `pwd; printf 'hello\\n'; exit 3`") }],
    });
    expect(JSON.stringify(sent[0])).toContain("Command exited with code 3");
  });

  it("colours and carriage returns are removed; long output keeps its tail and the whole goes to fullOutputPath", async () => {
    const h = (harness = await startRpc());
    const colour = await h.client.request({ type: "bash", command: "printf '\\033[31mred\\033[0m\\r\\n'" });
    expect(colour.data.output).toBe("red\n");
    const long = await h.client.request({ type: "bash", command: "seq 1 3000" });
    expect(long.data).toMatchObject({
      exitCode: 0,
      cancelled: false,
      truncated: true,
      fullOutputPath: expect.stringMatching(/pi-bash-[0-9a-f]+\.log$/),
    });
    const shown = long.data.output.split("\n");
    expect(shown[0]).toBe("1001");
    expect(shown.at(-1)).toBe("3000");
    expect(shown).toHaveLength(2000);
    expect(readFileSync(long.data.fullOutputPath, "utf8").split("\n").filter(Boolean)).toHaveLength(3000);
  });

  it("abort_bash cancels a running command: cancelled, no exit code", async () => {
    const h = (harness = await startRpc());
    const running = h.client.request({ type: "bash", command: "sleep 30" });
    expect(await h.client.request({ type: "abort_bash" })).toEqual({
      id: "req-2",
      type: "response",
      command: "abort_bash",
      success: true,
    });
    expect((await running).data).toEqual({ output: "", cancelled: true, truncated: false });
    const recorded = (await h.client.request({ type: "get_messages" })).data.messages;
    expect(recorded).toMatchObject([{ role: "bashExecution", command: "sleep 30", cancelled: true }]);
  });

  it("a second command while one runs is refused; a missing command says so", async () => {
    const h = (harness = await startRpc());
    const running = h.client.request({ type: "bash", command: "sleep 30" });
    expect(await h.client.request({ type: "bash", command: "true" })).toMatchObject({
      success: false,
      error: "a bash command is already running; wait for it or send abort_bash",
    });
    expect(await h.client.request({ type: "bash" })).toMatchObject({
      success: false,
      error: '"bash" needs "command" as a string',
    });
    await h.client.request({ type: "abort_bash" });
    await running;
  });

  it("during a run the record waits until the run is over, so it never splits a tool call from its result", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const h = (harness = await startRpc({
      faux: { responses: [{ content: [fauxToolCall("wait", {}, "w1")] }, { content: "done" }] },
      tools: [testTool("wait", async () => (await held, "waited"))],
    }));
    await h.client.request({ type: "prompt", message: "go" });
    await h.client.event("tool_execution_start");
    expect((await h.client.request({ type: "bash", command: "echo during" })).data).toMatchObject({
      output: "during\n",
      exitCode: 0,
    });
    release();
    await h.client.event("agent_end");
    h.endInput();
    expect(await h.exit).toBe(0);
    expect(h.session.call("messages").map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "toolResult",
      "assistant",
      "bashExecution",
    ]);
  });
});

describe("tail limits", () => {
  it("keeps whole last lines within 2,000 lines and 50 KB; one huge line keeps its end", () => {
    expect(tailOf("a\nb\n")).toEqual({ text: "a\nb\n", truncated: false });
    const wide = Array.from({ length: 100 }, (_, i) => `${i}`.padEnd(1_000, "x")).join("\n");
    const cut = tailOf(wide);
    expect(cut.truncated).toBe(true);
    expect(Buffer.byteLength(cut.text)).toBeLessThanOrEqual(50 * 1024);
    expect(cut.text.split("\n")[0]).toMatch(/^\d+x+$/);
    expect(cut.text.endsWith(`99`.padEnd(1_000, "x"))).toBe(true);
    const huge = tailOf(`${"é".repeat(40_000)}end`);
    expect(huge.truncated).toBe(true);
    expect(huge.text.endsWith("end")).toBe(true);
    expect(Buffer.byteLength(huge.text)).toBeLessThanOrEqual(50 * 1024);
    expect(huge.text).not.toContain("\uFFFD");
  });
});
