// The process crash.test.ts kills. It loads the session store module (compiled once by the test from
// plugins/session/session-jsonl/store.ts), opens FILE, prints "ready", then appends messages in a tight loop until
// it is SIGKILLed: user prompts (now and then with a pasted screenshot of up to a megabyte), assistant
// messages with thinking, text, a tool call and usage, and tool results whose output runs from a few bytes
// to tens of KB. After each append returns it prints the new
// entry's id on stdout with a synchronous write, so every id the test reads belongs to a line whose write
// had returned before the kill. Sizes come from a PRNG seeded by SEED, so a failing run can be replayed.
//
//   node crash-child.mjs STORE_MODULE FILE SEED
import { writeSync } from "node:fs";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";

const [storeModule, file, seedText] = process.argv.slice(2);
const { JsonlSessionStore } = await import(pathToFileURL(storeModule).href);

/** mulberry32: a small seeded PRNG, enough to vary sizes reproducibly. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const random = prng(Number(seedText));

/** Output sizes: mostly short, often a few KB, sometimes tens of KB. */
function outputSize() {
  const r = random();
  if (r < 0.5) return 20 + Math.floor(random() * 300);
  if (r < 0.92) return 1_000 + Math.floor(random() * 8_000);
  return 16_000 + Math.floor(random() * 32_000);
}

/**
 * A pasted screenshot in about one user prompt out of fifteen: 0.3–1 MB of base64, the biggest lines a
 * session has, and the writes a kill is most likely to tear.
 */
function screenshot() {
  if (random() >= 1 / 15) return [];
  const bytes = Buffer.alloc(225_000 + Math.floor(random() * 525_000), Math.floor(random() * 256));
  return [{ type: "image", data: bytes.toString("base64"), mimeType: "image/png" }];
}

function filler(size, seq) {
  const line = `${seq} the quick brown fox jumps over the lazy dog; üñíçødé ✓ 0123456789\n`;
  return line.repeat(Math.ceil(size / line.length)).slice(0, size);
}

const usage = {
  input: 1_200,
  output: 300,
  cacheRead: 800,
  cacheWrite: 0,
  totalTokens: 2_300,
  cost: { input: 0.0036, output: 0.0045, cacheRead: 0.00024, cacheWrite: 0, total: 0.00834 },
};

function message(seq) {
  const timestamp = Date.now();
  switch (seq % 3) {
    case 0:
      return {
        role: "user",
        content: [{ type: "text", text: `step ${seq}: ${filler(outputSize() >> 4, seq)}` }, ...screenshot()],
        timestamp,
      };
    case 1:
      return {
        role: "assistant",
        content: [
          { type: "thinking", thinking: filler(outputSize() >> 3, seq), thinkingSignature: "sig" },
          { type: "text", text: `running step ${seq}` },
          { type: "toolCall", id: `call_${seq}`, name: "bash", arguments: { command: `cat part-${seq}.txt` } },
        ],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage,
        stopReason: "toolUse",
        timestamp,
      };
    default:
      return {
        role: "toolResult",
        toolCallId: `call_${seq - 1}`,
        toolName: "bash",
        content: [{ type: "text", text: filler(outputSize(), seq) }],
        isError: false,
        timestamp,
      };
  }
}

let state = {};
const store = new JsonlSessionStore({
  agentDir: dirname(file),
  getState: () => state,
  setState: (next) => (state = next),
});
await store.open(file);
writeSync(1, "ready\n");
for (let seq = 0; ; seq++) {
  const id = store.appendMessage(message(seq));
  writeSync(1, `${id}\n`);
}
