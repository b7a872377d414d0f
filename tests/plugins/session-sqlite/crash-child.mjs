// The process crash.test.ts kills. It loads the SQLite session store (bundled once by the test from
// plugins/session/session-sqlite/store.ts), starts a session in SESSION_DIR, prints "path <session path>",
// then appends user and assistant messages of seeded sizes until it is SIGKILLed. After each append
// returns (the row is committed) it prints the entry's id with a synchronous write.
//
//   node crash-child.mjs STORE_MODULE AGENT_DIR SESSION_DIR SEED
import { writeSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [storeModule, agentDir, sessionDir, seedText] = process.argv.slice(2);
const { SqliteSessionStore } = await import(pathToFileURL(storeModule).href);

let a = Number(seedText) >>> 0;
function random() {
  a = (a + 0x6d2b79f5) >>> 0;
  let t = a;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}

let state = {};
const store = new SqliteSessionStore({ agentDir, getState: () => state, setState: (next) => (state = next) });
const info = await store.newSession({ cwd: "/p", sessionDir });
let n = 0;
const text = () => "x".repeat(Math.floor(random() * 20_000)) + String(n++);
const usage = {
  input: 1,
  output: 1,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 2,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const assistant = () => ({
  role: "assistant",
  content: [{ type: "text", text: text() }],
  api: "anthropic-messages",
  provider: "anthropic",
  model: "m",
  usage,
  stopReason: "stop",
  timestamp: Date.now(),
});
// The first assistant message makes the session exist in the database, as pi writes a file only then.
store.appendMessage({ role: "user", content: [{ type: "text", text: "start" }], timestamp: Date.now() });
store.appendMessage(assistant());
writeSync(1, `path ${info.path}\n`);
for (;;) {
  const id =
    random() < 0.5
      ? store.appendMessage({ role: "user", content: [{ type: "text", text: text() }], timestamp: Date.now() })
      : store.appendMessage(assistant());
  writeSync(1, `${id}\n`);
}
