// Embedding pi-host with a tool of your own: the tool is a plugin defined right here, in process,
// next to the distribution's built-in tools. The model can call it like any other.
//
//   node examples/sdk/custom-tool.mjs [provider/model] [prompt]
import { Type } from "@sinclair/typebox";
import { definePlugin, ToolContract } from "pi-host";
import { createAgentSession } from "pi-host/sdk";

const [model = "anthropic/claude-sonnet-4-5", prompt = "How many words are in 'the quick brown fox'?"] =
  process.argv.slice(2);

/** A tool is a plugin that provides the tool contract, keyed by the tool's name. */
const wordCount = definePlugin({
  id: "word-count",
  version: "1.0.0",
  provides: [ToolContract],
  setup(ctx) {
    ctx.provide(
      ToolContract,
      {
        name: "word_count",
        description: "Counts the words in a text.",
        parameters: Type.Object({ text: Type.String({ description: "The text to count" }) }),
        async execute(_toolCallId, { text }) {
          const words = text.split(/\s+/).filter(Boolean).length;
          return { content: [{ type: "text", text: `${words} words` }], details: { words } };
        },
      },
      { key: "word_count" },
    );
  },
});

const { session, subscribe, dispose } = await createAgentSession({
  model,
  session: "none",
  // Only our tool: the model cannot touch files or run commands.
  tools: ["word_count"],
  plugins: [{ definition: wordCount }],
});

subscribe((event) => {
  if (event.type === "tool_execution_end") console.log(`word_count said: ${event.result.content[0].text}`);
});

try {
  await session.call("prompt", prompt);
  const answer = session.call("messages").at(-1);
  const text = answer.content
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("");
  console.log(answer.stopReason === "error" ? `error: ${answer.errorMessage}` : text);
  if (answer.stopReason === "error") process.exitCode = 1;
} finally {
  await dispose();
}
