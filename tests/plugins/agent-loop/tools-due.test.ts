/**
 * `RunState.toolsDue` (agent/loop 1.2): a durable run resumed after a crash hands the loop an answer
 * already in the transcript whose calls did not all finish. The turn runs only those calls — no model
 * request, no second copy of the answer — adds their results, then goes on to the next answer.
 */
import { describe, expect, it } from "vitest";
import type { AgentMessage, RunState } from "../../../contracts/agent.js";
import type { AssistantMessage, ToolResultMessage } from "../../../contracts/ai/index.js";
import { runTurn } from "../../../plugins/session/agent-loop/loop.js";
import { LoopHarness, tool, user } from "./harness.js";

const answer: AssistantMessage = {
  role: "assistant",
  content: [
    { type: "toolCall", id: "a", name: "step", arguments: { n: 1 } },
    { type: "toolCall", id: "b", name: "step", arguments: { n: 2 } },
  ],
  api: "faux",
  provider: "faux",
  model: "faux-1",
  usage: {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  },
  stopReason: "toolUse",
  timestamp: 1,
};
const resultA: ToolResultMessage = {
  role: "toolResult",
  toolCallId: "a",
  toolName: "step",
  content: [{ type: "text", text: "did 1" }],
  isError: false,
  timestamp: 2,
};

describe("agent loop: toolsDue", () => {
  it("runs only the due calls of the given answer, asks no model for it, then carries on", async () => {
    const h = new LoopHarness({ responses: [{ content: "all done" }] });
    const ran: number[] = [];
    h.tools = [
      tool("step", async (args) => {
        ran.push(args.n);
        return `did ${args.n}`;
      }),
    ];
    const messages: AgentMessage[] = [user("task"), answer, resultA];
    let run: RunState = {
      messages,
      newMessages: [],
      pending: [],
      turns: 1,
      done: false,
      toolsDue: { message: answer, callIds: ["b"] },
    };
    run = await runTurn(run, h.config());
    expect(ran).toEqual([2]);
    expect(h.faux.requests).toHaveLength(0);
    expect(run.toolsDue).toBeUndefined();
    expect(run.done).toBe(false);
    expect(
      run.newMessages.map((m) => (m.role === "toolResult" ? `result:${(m as ToolResultMessage).toolCallId}` : m.role)),
    ).toEqual(["result:b"]);
    expect(h.trace()).toEqual([
      "turn_start",
      "tool_execution_start:b",
      "tool_execution_end:b",
      "message_start:toolResult",
      "message_end:toolResult",
      "turn_end",
    ]);
    run = await runTurn(run, h.config());
    expect(run.done).toBe(true);
    // The next request carries both results once each after the one answer.
    const sent = h.faux.requests[0]!.context.messages.map((m) =>
      m.role === "toolResult" ? `result:${m.toolCallId}` : m.role,
    );
    expect(sent).toEqual(["user", "assistant", "result:a", "result:b"]);
  });
});
