/**
 * Issue 3, acceptance 5: a provider plugin reloaded while a stream is in flight. The plugin under edit
 * is a source file in a temp folder (loaded by the kernel through jiti, as a user's plugin is) that
 * serves the real Anthropic provider and marks each request with its generation in a header. A stream
 * is started through a lease, as agent-session streams, and held part-way by a relay in front of
 * MockLlmServer; the file is edited and reloaded; the held stream then finishes on generation 1 while
 * the request made after the commit goes out from generation 2, and generation 1 retires only once the
 * lease is released.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  AiProviderContract,
  type AiProvider,
  type AssistantMessageEvent,
  type Context,
} from "../../../contracts/ai/index.js";
import * as hostApi from "../../../hosts/api.js";
import type { Handle } from "../../../kernel/index.js";
import { Kernel } from "../../../hosts/host-kernel.js";
import { MockLlmServer } from "../../support/mock-llm-server.js";
import { claudeModel, drain, NO_RETRY } from "./harness.js";
import { HoldingRelay } from "./holding-relay.js";
import { claudeStream } from "./wire-turns.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const PLUGIN_ID = "anthropic-under-edit";

/** The plugin's source at one generation: the real provider, with the generation stamped on each request. */
function pluginSource(generation: number): string {
  return `import { definePlugin } from "pi-host";
import { AiProviderContract, type AiProvider } from ${JSON.stringify(join(ROOT, "contracts/ai/index.ts"))};
import { AnthropicProvider } from ${JSON.stringify(join(ROOT, "plugins/ai/provider-anthropic/provider.ts"))};

/** What the user changes between saves. */
const GENERATION = "${generation}";

export default definePlugin({
  id: ${JSON.stringify(PLUGIN_ID)},
  version: "1.0.${generation}",
  provides: [AiProviderContract],
  setup(ctx) {
    const real = new AnthropicProvider();
    const marked: AiProvider = {
      api: real.api,
      stream: (model, context, options = {}) => real.stream(model, context, { ...options, headers: { ...options.headers, "x-plugin-generation": GENERATION } }),
    };
    ctx.provide(AiProviderContract, marked, { key: real.api });
  },
});
`;
}

const OLD_ANSWER = claudeStream(
  "msg_01ReloadOldGeneration00001",
  [{ type: "text", deltas: ["Answer from ", "the code that ", "was running ", "when the stream began."] }],
  "end_turn",
  { input: 20, output: 12 },
);
const NEW_ANSWER = claudeStream(
  "msg_01ReloadNewGeneration00001",
  [{ type: "text", deltas: ["Answer from ", "the edited code."] }],
  "end_turn",
  { input: 20, output: 6 },
);
const CONTEXT: Context = { messages: [{ role: "user", content: "Which code answers?", timestamp: 1 }] };
const OPTIONS = { apiKey: "test-key", retry: NO_RETRY };

let server: MockLlmServer;
let relay: HoldingRelay;
let kernel: Kernel;
let pluginFile: string;

beforeEach(async () => {
  server = await new MockLlmServer().start();
  relay = await new HoldingRelay(server.url).start();
  pluginFile = join(mkdtempSync(join(tmpdir(), "pi-provider-reload-")), "index.ts");
  writeFileSync(pluginFile, pluginSource(1));
  kernel = new Kernel({ virtualModules: { "pi-host": hostApi } });
  const boot = await kernel.boot([{ id: PLUGIN_ID, source: { kind: "file", path: pluginFile } }]);
  expect(boot.errors).toEqual([]);
});

afterEach(async () => {
  await kernel.shutdown();
  await relay.close();
  await server.close();
});

function anthropicHandle(): Handle<AiProvider> {
  const handle = kernel
    .useAll(AiProviderContract)
    .list()
    .find((h) => h.peek()?.api === "anthropic-messages");
  if (handle === undefined) throw new Error("the plugin under edit provides no anthropic-messages slot");
  return handle;
}

const textOf = (events: AssistantMessageEvent[]): string =>
  events.map((e) => (e.type === "text_delta" ? e.delta : "")).join("");

describe("a provider plugin reloaded while a stream is in flight", () => {
  it("the stream finishes on the old generation; the next request uses the new one; the old one retires after the lease", async () => {
    const timeline: string[] = [];
    kernel.on("kernel:commit", (e: { generation: number; previous: number }) =>
      timeline.push(`commit ${e.generation} (previous ${e.previous})`),
    );
    kernel.on("kernel:retired", (e: { generation: number }) => timeline.push(`retired ${e.generation}`));
    server.enqueue({ sse: OLD_ANSWER }, { sse: NEW_ANSWER });
    const handle = anthropicHandle();

    // Start a stream the way agent-session does: lease the provider, stream, release when it ends.
    const lease = await handle.acquire();
    expect(lease.generation).toBe(1);
    const hold = relay.holdNextAfter('"text_delta"');
    const inFlight = lease.value.stream(claudeModel(relay.url), CONTEXT, OPTIONS);
    const events = inFlight[Symbol.asyncIterator]();
    const early: AssistantMessageEvent[] = [];
    while (early.at(-1)?.type !== "text_delta") early.push((await events.next()).value as AssistantMessageEvent);
    await hold.holding;
    expect(early.map((e) => e.type)).toEqual(["start", "text_start", "text_delta"]);

    // The user saves an edit; the kernel reloads the plugin mid-stream.
    const committed = new Promise<void>((resolve) => kernel.on("kernel:commit", () => resolve()));
    writeFileSync(pluginFile, pluginSource(2));
    const reload = kernel.reload(PLUGIN_ID);
    await committed;
    expect(handle.generation).toBe(2);
    expect(kernel.liveGenerations(PLUGIN_ID)).toBe(2);
    expect(handle.peek()).not.toBe(lease.value);

    // A request made now goes to generation 2, while generation 1's stream is still open.
    const next = await drain(handle.call("stream", claudeModel(server.url), CONTEXT, OPTIONS));
    expect(next.message).toMatchObject({
      stopReason: "stop",
      content: [{ type: "text", text: "Answer from the edited code." }],
    });
    expect(timeline).toEqual(["commit 2 (previous 1)"]);

    // The held stream resumes and finishes normally, on the code it started with.
    hold.release();
    const late: AssistantMessageEvent[] = [];
    for (let step = await events.next(); !step.done; step = await events.next()) late.push(step.value);
    expect(late.at(-1)?.type).toBe("done");
    expect(textOf(late)).toBe("the code that was running when the stream began.");
    expect(textOf([...early, ...late])).toBe("Answer from the code that was running when the stream began.");
    expect((await inFlight.result()).stopReason).toBe("stop");
    expect(server.requests.map((r) => r.headers["x-plugin-generation"])).toEqual(["1", "2"]);

    // Generation 1 stays alive until its lease is released, then retires.
    expect(kernel.liveGenerations(PLUGIN_ID)).toBe(2);
    lease.release();
    expect(await reload).toMatchObject({ pluginId: PLUGIN_ID, status: "committed", generation: 2 });
    expect(timeline).toEqual(["commit 2 (previous 1)", "retired 1"]);
    expect(kernel.liveGenerations(PLUGIN_ID)).toBe(1);
    expect(kernel.staleUses).toBe(0);
  });
});
