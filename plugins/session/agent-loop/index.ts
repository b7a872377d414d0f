/**
 * The agent loop as a plugin: it provides `agent/loop`, one turn per call. Replace it with your own by
 * pointing the distribution's `agent-loop` entry elsewhere, or edit it while a session runs — the
 * kernel swaps it between turns.
 */
import { AgentLoopContract } from "pi-host";
import { definePlugin } from "pi-host";
import { runTurn } from "./loop.js";

export default definePlugin({
  id: "agent-loop",
  version: "1.0.0",
  description: "Runs turns: streams the answer, executes tool calls, injects steering and follow-ups",
  provides: [AgentLoopContract],
  setup(ctx) {
    ctx.provide(AgentLoopContract, { runTurn });
  },
});
