/**
 * The benchmark session file, shared by sessions.mjs (through the API, beside pi 0.73.1) and
 * session-cli.mjs (through the CLI, beside pi 1.6.0 and 0.73.1): a realistic 20,000-message session
 * (14.6 MiB) in pi's version-3 format, generated from a seeded PRNG, so it is the same bytes on every run
 * and machine. One branch, no compaction: the whole history is the context, the worst case for both.
 */
import { statSync, writeFileSync } from "node:fs";

/** Messages in the generated session. */
export const MESSAGES = 20_000;
/** The folder the generated header names; session-cli.mjs swaps in the run's own folder (pi 1.6 checks it). */
export const SESSION_CWD = "/home/dev/projects/webapp";

/** mulberry32: a small seeded PRNG, so the file is the same bytes on every run and machine. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const WORDS = (
  "the a to of and in is it that for on with this we function const return import export from test file " +
  "session error value type string number async await promise request response handler config module build " +
  "src lib index ts json line change update fix failing passes expected received undefined null true false " +
  "user assistant tool result context message model token cache stream event branch commit diff patch merge"
).split(" ");

/** Writes the benchmark session to `path` (its header naming `cwd`); returns its message count and size. */
export function generateSession(path, cwd = SESSION_CWD) {
  const random = prng(20_000);
  const int = (min, max) => min + Math.floor(random() * (max - min + 1));
  const words = (chars) => {
    let text = "";
    while (text.length < chars) text += (text ? " " : "") + WORDS[Math.floor(random() * WORDS.length)];
    return text;
  };
  const code = (lines) =>
    Array.from({ length: lines }, (_, i) => `${String(i + 1).padStart(4)}  ${words(int(20, 90))}`).join("\n");
  const usedIds = new Set();
  const entryId = () => {
    let id;
    do
      id = Math.floor(random() * 0x1_0000_0000)
        .toString(16)
        .padStart(8, "0");
    while (usedIds.has(id));
    usedIds.add(id);
    return id;
  };

  let clock = Date.parse("2025-06-02T09:00:00.000Z");
  const lines = [
    JSON.stringify({
      type: "session",
      version: 3,
      id: "0197a3c2-5e1f-7b4a-9c1d-3f2e8a6b4c10",
      timestamp: new Date(clock).toISOString(),
      cwd,
    }),
  ];
  let parentId = null;
  const entry = (fields) => {
    const id = entryId();
    clock += int(200, 20_000);
    lines.push(
      JSON.stringify({ type: fields.type, id, parentId, timestamp: new Date(clock).toISOString(), ...fields }),
    );
    parentId = id;
  };
  entry({ type: "model_change", provider: "anthropic", modelId: "claude-sonnet-4-5" });
  entry({ type: "thinking_level_change", thinkingLevel: "medium" });

  const usage = () => {
    const input = int(2_000, 60_000);
    const output = int(50, 1_500);
    const cacheRead = int(0, input);
    const cost = {
      input: (input * 3) / 1e6,
      output: (output * 15) / 1e6,
      cacheRead: (cacheRead * 0.3) / 1e6,
      cacheWrite: 0,
    };
    return {
      input,
      output,
      cacheRead,
      cacheWrite: 0,
      totalTokens: input + output + cacheRead,
      cost: { ...cost, total: cost.input + cost.output + cost.cacheRead },
    };
  };
  const assistant = (content, stopReason) =>
    entry({
      type: "message",
      message: {
        role: "assistant",
        content,
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        responseId: `msg_${entryId()}${entryId()}`,
        usage: usage(),
        stopReason,
        timestamp: clock,
      },
    });
  const TOOLS = ["read", "bash", "edit", "grep"];

  let messages = 0;
  while (messages < MESSAGES) {
    const paste = random() < 0.08 ? `\n\n\`\`\`\n${code(int(15, 60))}\n\`\`\`` : "";
    entry({
      type: "message",
      message: { role: "user", content: [{ type: "text", text: words(int(30, 300)) + paste }], timestamp: clock },
    });
    messages++;
    const rounds = int(1, 6);
    for (let r = 0; r < rounds && messages < MESSAGES - 1; r++) {
      const tool = TOOLS[int(0, TOOLS.length - 1)];
      const callId = `toolu_${entryId()}${entryId()}`;
      const args =
        tool === "bash"
          ? { command: `npm test -- ${words(int(5, 30))}` }
          : tool === "edit"
            ? { path: "src/session.ts", oldText: words(int(20, 100)), newText: words(int(20, 100)) }
            : { path: `src/${WORDS[int(0, 40)]}.ts` };
      assistant(
        [
          {
            type: "thinking",
            thinking: words(int(10, 100)),
            thinkingSignature: `sig_${entryId()}${entryId()}${entryId()}`,
          },
          { type: "text", text: words(int(10, 80)) },
          { type: "toolCall", id: callId, name: tool, arguments: args },
        ],
        "toolUse",
      );
      const size = random();
      const output = size < 0.65 ? code(int(1, 3)) : size < 0.93 ? code(int(4, 12)) : code(int(25, 70));
      entry({
        type: "message",
        message: {
          role: "toolResult",
          toolCallId: callId,
          toolName: tool,
          content: [{ type: "text", text: output }],
          isError: random() < 0.05,
          timestamp: clock,
        },
      });
      messages += 2;
    }
    if (messages < MESSAGES) {
      assistant(
        [
          { type: "thinking", thinking: words(int(30, 200)), thinkingSignature: `sig_${entryId()}` },
          { type: "text", text: words(int(40, 300)) },
        ],
        "stop",
      );
      messages++;
    }
  }
  writeFileSync(path, `${lines.join("\n")}\n`);
  return { messages, entries: lines.length - 1, bytes: statSync(path).size };
}
