// The smallest embedding of pi-host: one prompt, the answer streamed to stdout as it arrives.
//
//   node examples/sdk/minimal.mjs [provider/model] [prompt]
//
// Keys, models.json and settings come from the agent folder (PI_CODING_AGENT_DIR, else ~/.pi/agent),
// exactly as for the `pi` command. Nothing is written to disk: the session lives in memory.
import { createAgentSession } from "pi-host/sdk";

const [model = "anthropic/claude-sonnet-4-5", prompt = "What files are in the current directory?"] =
  process.argv.slice(2);

const { session, subscribe, diagnostics, dispose } = await createAgentSession({ model, session: "none" });
for (const line of diagnostics) console.error(`note: ${line}`);

// Session events have pi's names and shapes: stream the text deltas, log the tool calls.
subscribe((event) => {
  if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta")
    process.stdout.write(event.assistantMessageEvent.delta);
  if (event.type === "tool_execution_start") console.error(`[${event.toolName}] ${JSON.stringify(event.args)}`);
});

try {
  // Resolves when the run is over: every turn, tool call, retry and compaction included.
  await session.call("prompt", prompt);
  const answer = session.call("messages").at(-1);
  if (answer?.role === "assistant" && (answer.stopReason === "error" || answer.stopReason === "aborted")) {
    console.error(answer.errorMessage);
    process.exitCode = 1;
  } else {
    process.stdout.write("\n");
  }
} finally {
  await dispose();
}
