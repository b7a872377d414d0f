import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  AiProviderContract,
  emptyUsage,
  type AiProvider,
  type AssistantMessage,
  type AssistantMessageEvent,
  type AssistantStream,
  type Context,
  type Model,
} from "../../../hosts/api.js";
import { Kernel } from "../../schema-kernel.js";
import fauxPlugin from "../../../plugins/ai/provider-faux/index.js";
import {
  createFauxProvider,
  fauxEcho,
  fauxText,
  fauxThinking,
  fauxToolCall,
} from "../../../plugins/ai/provider-faux/faux.js";

const context: Context = {
  systemPrompt: "be brief",
  messages: [{ role: "user", content: "hello there", timestamp: 1 }],
};

async function collect(stream: AssistantStream): Promise<AssistantMessageEvent[]> {
  const events: AssistantMessageEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe("provider-faux plugin", () => {
  const kernels: Kernel[] = [];
  afterEach(async () => {
    for (const kernel of kernels.splice(0)) await kernel.shutdown();
  });

  async function bootFaux(config: Record<string, unknown>): Promise<{ faux: AiProvider; model: Model }> {
    const kernel = new Kernel();
    kernels.push(kernel);
    const boot = await kernel.boot([
      { id: "provider-faux", source: { kind: "inline", label: "faux", definition: fauxPlugin }, config },
    ]);
    expect(boot.configErrors).toEqual([]);
    expect(boot.errors).toEqual([]);
    const handles = kernel.useAll(AiProviderContract).list();
    expect(handles.map((h) => h.key)).toEqual(["provider-faux#faux"]);
    expect(handles[0]!.peek()?.api).toBe("faux");
    const faux = {
      api: "faux",
      stream: (model: Model, ctx: Context, options?: any) => handles[0]!.call("stream", model, ctx, options),
    };
    return { faux, model: createFauxProvider().model() };
  }

  it("streams a scripted text turn as start, text deltas, text_end and one done, with usage", async () => {
    const { faux, model } = await bootFaux({ responses: [{ content: "Hello from the faux model!" }] });
    const stream = faux.stream(model, context);
    const events = await collect(stream);
    expect(events.map((e) => e.type)).toEqual([
      "start",
      "text_start",
      ...Array(7).fill("text_delta"),
      "text_end",
      "done",
    ]);
    const deltas = events.filter((e) => e.type === "text_delta").map((e) => (e as { delta: string }).delta);
    expect(deltas.join("")).toBe("Hello from the faux model!");
    expect(deltas[0]).toBe("Hell");
    const message = await stream.result();
    expect(message).toMatchObject({
      role: "assistant",
      api: "faux",
      provider: "faux",
      model: "faux-1",
      stopReason: "stop",
      content: [{ type: "text", text: "Hello from the faux model!" }],
    });
    expect(message.usage.output).toBe(7);
    expect(message.usage.input).toBe(Math.ceil("be brief".length / 4) + Math.ceil("hello there".length / 4));
    expect(message.usage.totalTokens).toBe(message.usage.input + message.usage.output);
    expect(events.at(-1)).toEqual({ type: "done", reason: "stop", message });
  });

  it("streams thinking and a tool call with incremental partial-JSON arguments, ending in toolUse", async () => {
    const args = { path: "src/index.ts", lines: [1, 2, 3] };
    const { faux, model } = await bootFaux({
      responses: [
        {
          content: [
            { type: "thinking", thinking: "I should read it", thinkingSignature: "sig" },
            { type: "toolCall", name: "read", arguments: args },
          ],
        },
      ],
    });
    const stream = faux.stream(model, context);
    // `partial` is one live object, so snapshot the arguments as each delta arrives.
    const events: AssistantMessageEvent[] = [];
    const partials: string[] = [];
    for await (const event of stream) {
      events.push(event);
      if (event.type === "toolcall_delta")
        partials.push(JSON.stringify((event.partial.content[event.contentIndex] as { arguments: unknown }).arguments));
    }
    const types = events.map((e) => e.type);
    expect(types.slice(0, 3)).toEqual(["start", "thinking_start", "thinking_delta"]);
    expect(types.filter((t) => t === "toolcall_delta").length).toBe(Math.ceil(JSON.stringify(args).length / 4));
    expect(types.slice(-2)).toEqual(["toolcall_end", "done"]);
    // Arguments grow as the JSON arrives: the path appears before the array is complete.
    expect(partials.some((p) => p.includes("src/index") && !p.includes("[1,2,3]"))).toBe(true);
    const end = events.find((e) => e.type === "toolcall_end") as Extract<
      AssistantMessageEvent,
      { type: "toolcall_end" }
    >;
    expect(end.toolCall).toEqual({ type: "toolCall", id: "faux_0_1", name: "read", arguments: args });
    const message = await stream.result();
    expect(message.stopReason).toBe("toolUse");
    expect(message.content[0]).toEqual({ type: "thinking", thinking: "I should read it", thinkingSignature: "sig" });
  });

  it("plays scripted errors and stop reasons, and reports an exhausted script as an error event", async () => {
    const { faux, model } = await bootFaux({
      responses: [
        { stopReason: "error", errorMessage: "prompt is too long: 300000 tokens > 200000 maximum" },
        { content: "cut", stopReason: "length", usage: { input: 10, output: 1 } },
      ],
    });
    const first = await collect(faux.stream(model, context));
    expect(first.map((e) => e.type)).toEqual(["start", "error"]);
    expect(first[1]).toMatchObject({
      type: "error",
      reason: "error",
      error: { stopReason: "error", errorMessage: "prompt is too long: 300000 tokens > 200000 maximum" },
    });
    const second = faux.stream(model, context);
    expect((await collect(second)).at(-1)).toMatchObject({ type: "done", reason: "length" });
    expect((await second.result()).usage).toMatchObject({ input: 10, output: 1, totalTokens: 11 });
    const third = faux.stream(model, context);
    const events = await collect(third);
    expect(events.map((e) => e.type)).toEqual(["error"]);
    expect((await third.result()).errorMessage).toBe("faux: no scripted response left for request 3");
  });

  it("honours abort mid-stream: one error event with stopReason aborted and the partial content", async () => {
    const { faux, model } = await bootFaux({
      responses: [{ content: "a long answer that would take a while to stream in full" }],
    });
    const controller = new AbortController();
    const stream = faux.stream(model, context, { signal: controller.signal });
    const events: AssistantMessageEvent[] = [];
    for await (const event of stream) {
      events.push(event);
      if (event.type === "text_delta" && events.filter((e) => e.type === "text_delta").length === 2) controller.abort();
    }
    expect(events.map((e) => e.type)).toEqual(["start", "text_start", "text_delta", "text_delta", "error"]);
    const message = await stream.result();
    expect(message).toMatchObject({
      stopReason: "aborted",
      errorMessage: "Request was aborted",
      content: [{ type: "text", text: "a long a" }],
    });
    expect(message.usage.output).toBe(2);
  });

  it("an abort also cuts a paced wait short, and a request aborted before it starts sends no start", async () => {
    // At one token per second this answer would take a minute; the abort must end it at once.
    const { faux, model } = await bootFaux({
      tokensPerSecond: 1,
      responses: [{ content: "x".repeat(240) }, { content: "never" }],
    });
    const controller = new AbortController();
    const stream = faux.stream(model, context, { signal: controller.signal });
    const seen: string[] = [];
    for await (const event of stream) {
      seen.push(event.type);
      if (event.type === "text_start") controller.abort();
    }
    expect(seen).toEqual(["start", "text_start", "error"]);
    const early = faux.stream(model, context, { signal: AbortSignal.abort() });
    expect((await collect(early)).map((e) => e.type)).toEqual(["error"]);
    expect((await early.result()).stopReason).toBe("aborted");
  });

  it("paces the stream in tokens per second", async () => {
    const { faux, model } = await bootFaux({
      tokensPerSecond: 100,
      tokensPerDelta: 5,
      responses: [{ content: "y".repeat(160) }],
    });
    const started = performance.now();
    const events = await collect(faux.stream(model, context));
    const elapsed = performance.now() - started;
    expect(events.filter((e) => e.type === "text_delta")).toHaveLength(8); // 40 tokens, 5 per delta
    expect(elapsed).toBeGreaterThanOrEqual(380); // 40 tokens at 100/s is 400 ms; timers never fire early
  });

  it("appends the turns of a JSON script file, read on the first request", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-faux-"));
    const file = join(dir, "script.json");
    writeFileSync(file, JSON.stringify({ responses: [{ content: "from the file" }] }));
    const { faux, model } = await bootFaux({ responses: [{ content: "from config" }], scriptFile: file });
    expect((await faux.stream(model, context).result()).content).toEqual([{ type: "text", text: "from config" }]);
    expect((await faux.stream(model, context).result()).content).toEqual([{ type: "text", text: "from the file" }]);
  });

  it("a bad script file or config names the file and the field", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pi-faux-"));
    const file = join(dir, "bad.json");
    writeFileSync(file, JSON.stringify([{ content: "ok" }, { content: "x", stopReason: "finished" }]));
    const { faux, model } = await bootFaux({ scriptFile: file });
    const message = await faux.stream(model, context).result();
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toMatch(
      new RegExp(`^faux script ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: responses\\[1\\]\\.stopReason: `),
    );
    const missing = await bootFaux({ scriptFile: join(dir, "nope.json") });
    expect((await missing.faux.stream(model, context).result()).errorMessage).toBe(
      `faux script ${join(dir, "nope.json")}: cannot be read (ENOENT)`,
    );

    const kernel = new Kernel();
    kernels.push(kernel);
    const boot = await kernel.boot([
      {
        id: "provider-faux",
        source: { kind: "inline", label: "faux", definition: fauxPlugin },
        config: { responses: [{ content: 42 }] },
      },
    ]);
    expect(boot.configErrors[0]).toMatchObject({ pluginId: "provider-faux", field: "config.responses.0.content" });
  });
});

describe("createFauxProvider (programmatic)", () => {
  it("computes turns from the request, e.g. echoing the last user message, and records what it was sent", async () => {
    const faux = createFauxProvider({ responses: [fauxEcho("you said: ")] });
    faux.push(({ context: ctx, index }) => ({
      content: [fauxText(`request ${index} saw ${ctx.messages.length} messages`)],
    }));
    expect(faux.pending).toBe(2);
    const model = faux.model();
    expect((await faux.stream(model, context).result()).content).toEqual([
      { type: "text", text: "you said: hello there" },
    ]);

    // The history goes through the handoff rules first, as a real provider's would: the errored
    // assistant turn is dropped, so the turn function and the record see two user messages.
    const failed: AssistantMessage = {
      role: "assistant",
      content: [],
      api: "faux",
      provider: "faux",
      model: "faux-1",
      usage: emptyUsage(),
      stopReason: "error",
      errorMessage: "x",
      timestamp: 2,
    };
    const history: Context = {
      messages: [...context.messages, failed, { role: "user", content: "again", timestamp: 3 }],
    };
    expect((await faux.stream(model, history).result()).content).toEqual([
      { type: "text", text: "request 1 saw 2 messages" },
    ]);
    expect(faux.requests[1]!.context.messages.map((m) => m.role)).toEqual(["user", "user"]);
    expect(faux.requests.map((r) => r.index)).toEqual([0, 1]);
    expect(faux.pending).toBe(0);
  });

  it("turns a throwing turn function into an error event, never a rejection", async () => {
    const faux = createFauxProvider({ responses: [() => Promise.reject(new Error("script bug"))] });
    const stream = faux.stream(faux.model(), context);
    expect((await collect(stream)).map((e) => e.type)).toEqual(["error"]);
    await expect(stream.result()).resolves.toMatchObject({ stopReason: "error", errorMessage: "script bug" });
  });

  it("prices usage with the model's costs and offers custom models", async () => {
    const faux = createFauxProvider({
      api: "faux-2",
      provider: "fake",
      models: [{ id: "paid", cost: { input: 2, output: 4, cacheRead: 1, cacheWrite: 0 }, contextWindow: 1000 }],
    });
    faux.setResponses([
      {
        content: [fauxThinking("hm"), fauxText("ok"), fauxToolCall("bash", { command: "ls" }, "call-1")],
        usage: { input: 500_000, output: 250_000, cacheRead: 1_000_000 },
      },
    ]);
    const model = faux.model("paid");
    expect(model).toMatchObject({ api: "faux-2", provider: "fake", contextWindow: 1000, name: "paid" });
    expect(() => faux.model("nope")).toThrow(`faux provider has no model "nope" (it has paid)`);
    const message = await faux.stream(model, context).result();
    expect(message.usage.cost).toEqual({ input: 1, output: 1, cacheRead: 1, cacheWrite: 0, total: 3 });
    expect(message).toMatchObject({ api: "faux-2", provider: "fake", model: "paid", stopReason: "toolUse" });
    expect(message.content[2]).toEqual({ type: "toolCall", id: "call-1", name: "bash", arguments: { command: "ls" } });
  });
});
