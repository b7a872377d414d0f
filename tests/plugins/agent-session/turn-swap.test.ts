/**
 * A reload of agent-session mid-run swaps between turns: the reload waits for the current turn only, the
 * run parks at the next safe point and the next generation carries it on (run.ts, `resumeRun`). The
 * caller sees one run: its prompt resolves after the final answer, each tool call runs exactly once, no
 * turn is aborted, queued follow-ups go along, and a caller waiting for `idle` waits for the real end.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { bootSession, testTool, type SessionHarness } from "./harness.js";

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

/** The session file's messages, line by line as pi reads them. */
function fileMessages(h: SessionHarness): any[] {
  const path = h.session.call("state").sessionFile!;
  return readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line))
    .filter((e) => e.type === "message")
    .map((e) => e.message);
}

describe("agent-session reload mid-run", () => {
  it("commits between two tool-call turns and the run goes on in the new generation", async () => {
    let release!: () => void;
    const firstCallHeld = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const firstCallRunning = new Promise<void>((resolve) => (entered = resolve));
    const calls: Array<{ id: string; generation: number | undefined }> = [];
    let h!: SessionHarness;
    const step = testTool("step", async (args) => {
      calls.push({ id: args.n, generation: h.kernel.activeGeneration("agent-session") });
      if (args.n === "one") {
        entered();
        await firstCallHeld;
      }
      return `did ${args.n}`;
    });
    h = harness = await bootSession({
      faux: {
        responses: [
          { content: [fauxToolCall("step", { n: "one" }, "c1")] },
          { content: [fauxToolCall("step", { n: "two" }, "c2")] },
          { content: "final answer" },
          { content: "follow-up answered" },
        ],
      },
      tools: [step],
    });
    const order: string[] = [];
    h.kernel.on("kernel:commit", ({ pluginId, generation }) => order.push(`commit ${pluginId} ${generation}`));
    h.kernel.on("kernel:deferred", ({ pluginId }) => order.push(`deferred ${pluginId}`));
    const before = h.kernel.activeGeneration("agent-session")!;

    let prompted = false;
    const prompt = h.session.api.prompt("go").then(() => {
      prompted = true;
      order.push("prompt resolved");
    });
    await firstCallRunning;
    // Queued while the first tool runs: delivered when the run would stop, so it must travel with the run.
    await h.session.api.followUp("and then this");
    let idled = false;
    const idle = h.session.api.idle().then(() => {
      idled = true;
      order.push("idle resolved");
    });
    const reload = h.kernel.reload("agent-session");
    await flush();
    // The reload waits at the gate for the turn in progress.
    expect(h.kernel.activeGeneration("agent-session")).toBe(before);
    release();
    expect((await reload).status).toBe("committed");
    expect(h.kernel.activeGeneration("agent-session")).toBe(before + 1);
    expect(idled).toBe(false);
    await prompt;
    await idle;
    expect(prompted).toBe(true);

    // Each tool call ran exactly once: the first on the old generation, the second on the new one.
    expect(calls).toEqual([
      { id: "one", generation: before },
      { id: "two", generation: before + 1 },
    ]);
    expect(order).toEqual([`commit agent-session ${before + 1}`, "prompt resolved", "idle resolved"]);
    // One uninterrupted run as the caller sees it.
    const types = h.events.map((e) => e.type);
    expect(types.filter((t) => t === "agent_start")).toHaveLength(1);
    expect(types.filter((t) => t === "agent_end")).toHaveLength(1);
    expect(h.events.filter((e) => e.type === "agent_settled")).toEqual([{ type: "agent_settled", aborted: false }]);
    expect(types.filter((t) => t === "turn_start")).toHaveLength(4);
    expect(types.filter((t) => t === "tool_execution_end")).toHaveLength(2);
    expect(types.indexOf("agent_settled")).toBe(types.length - 1);
    // Nothing lost, nothing doubled, nothing aborted, in the file as in memory.
    const messages = fileMessages(h);
    expect(messages.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "toolResult",
      "assistant",
      "toolResult",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(messages.filter((m) => m.role === "toolResult").map((m) => m.toolCallId)).toEqual(["c1", "c2"]);
    expect(messages.filter((m) => m.role === "assistant").map((m) => m.stopReason)).toEqual([
      "toolUse",
      "toolUse",
      "stop",
      "stop",
    ]);
    expect(h.session.call("messages")).toHaveLength(messages.length);
    expect(h.session.call("lastAssistantText")).toBe("follow-up answered");
    expect(h.session.call("state").isStreaming).toBe(false);
    // The parked run is gone from the state the next reload carries.
    expect((await h.kernel.reload("agent-session")).status).toBe("committed");
    await h.session.api.prompt("again").catch(() => undefined);
    expect(h.faux.requests).toHaveLength(5);
  });

  it("without a reload the run never parks: one generation runs every turn", async () => {
    const generations: Array<number | undefined> = [];
    let h!: SessionHarness;
    const step = testTool("step", async () => {
      generations.push(h.kernel.activeGeneration("agent-session"));
      return "ok";
    });
    h = harness = await bootSession({
      faux: {
        responses: [
          { content: [fauxToolCall("step", {}, "a")] },
          { content: [fauxToolCall("step", {}, "b")] },
          { content: "done" },
        ],
      },
      tools: [step],
    });
    const before = h.kernel.activeGeneration("agent-session");
    await h.session.api.prompt("go");
    expect(generations).toEqual([before, before]);
    expect(h.kernel.activeGeneration("agent-session")).toBe(before);
    expect(h.session.call("lastAssistantText")).toBe("done");
  });
});
