// A second process appending to a session: loads the session-jsonl plugin through jiti (as user plugins
// load), opens FILE, moves its leaf to LEAF, prints "ready", waits for "go" on stdin, then appends COUNT
// messages of varied sizes (up to 200 KB) as fast as it can and prints "done".
import { createRequire } from "node:module";
import { dirname } from "node:path";

const [project, file, leaf, count, tag] = process.argv.slice(2);
const require = createRequire(`${project}/package.json`);
const { createJiti } = await import(require.resolve("jiti"));
const jiti = createJiti(`${project}/package.json`, {
  moduleCache: false,
  alias: { "pi-host": `${project}/hosts/api.ts` },
});
const plugin = await jiti.import(`${project}/plugins/session/session-jsonl/index.ts`, { default: true });

let store;
let state = plugin.state.initial();
plugin.setup({
  config: { agentDir: dirname(file) },
  // No host: the store takes its folder from the config, and a save failure has nobody to tell.
  use: () => undefined,
  emit: () => {},
  provide: (_contract, implementation) => {
    store = implementation;
  },
  getState: () => state,
  setState: (next) => {
    state = next;
  },
  onDispose: () => {},
});
await store.open(file);
store.branch(leaf);
process.stdout.write("ready\n");
await new Promise((resolve) => process.stdin.once("data", resolve));

const sizes = [40, 900, 12_000, 200_000, 3_000];
for (let i = 0; i < Number(count); i++) {
  const text = `${tag}-${i}:${String.fromCharCode(97 + (i % 26)).repeat(sizes[i % sizes.length])}`;
  const timestamp = Date.now();
  if (i % 2 === 0) store.appendMessage({ role: "user", content: [{ type: "text", text }], timestamp });
  else
    store.appendMessage({
      role: "assistant",
      content: [{ type: "text", text }],
      api: "faux",
      provider: "faux",
      model: "faux",
      usage: {
        input: 0,
        output: 0,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 0,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      },
      stopReason: "stop",
      timestamp,
    });
}
store.close();
process.stdout.write("done\n");
process.stdin.destroy();
