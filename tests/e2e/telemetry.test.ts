/**
 * The telemetry plugin end to end: the built `pi -p` against a local OpenAI-compatible MockLlmServer,
 * exporting to a local OTLP/HTTP collector (tests/support/otlp-collector.ts) named by the standard
 * `OTEL_*` variables. One run is one trace: `pi.agent.run` → each `pi.agent.turn` → its `pi.ai.request`
 * and `pi.agent.tool` spans, with pi's and the GenAI conventions' attributes. Off (no variable), nothing
 * is sent and no OpenTelemetry module is loaded; a collector that is down costs one stderr line.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deltaChunk, DONE, usageChunk } from "../fixtures/sse/openai-completions/envelope.js";
import { MockLlmServer, type SseEvent } from "../support/mock-llm-server.js";
import { type CollectedSpan, OtlpCollector } from "../support/otlp-collector.js";
import { agentHome, completionsToolCall, type AgentHome } from "./agent-home.js";
import { runPiRecordingModules } from "./record-modules.js";

let server: MockLlmServer;
let collector: OtlpCollector;
let user: AgentHome;

beforeAll(async () => {
  server = await new MockLlmServer().start();
  collector = await new OtlpCollector().start();
});
afterAll(async () => {
  await server.close();
  await collector.close();
});
beforeEach(() => {
  server.requests.length = 0;
  collector.clear();
  user = agentHome();
  // A priced model, so the request spans carry a cost.
  writeFileSync(
    join(user.agent, "models.json"),
    JSON.stringify({
      providers: {
        mock: {
          baseUrl: `${server.url}/v1`,
          api: "openai-completions",
          apiKey: "MOCK_KEY",
          models: [
            {
              id: "mock-1",
              contextWindow: 128000,
              maxTokens: 4096,
              cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
            },
          ],
        },
      },
    }),
  );
  writeFileSync(join(user.project, "notes.txt"), "the answer is 42\n");
});

/** A text answer whose usage reports 40 of its 160 prompt tokens as read from the cache. */
function cachedAnswer(text: string): SseEvent[] {
  const completion = { id: "chatcmpl-telemetry-2", model: "mock-1", created: 1747831200 };
  return [
    deltaChunk(completion, { role: "assistant", content: "" }),
    deltaChunk(completion, { content: text }),
    deltaChunk(completion, {}, "stop"),
    usageChunk(completion, { prompt_tokens: 160, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 40 } }),
    DONE,
  ];
}

const MODEL = ["--model", "mock/mock-1"];
const otel = (extra: Record<string, string> = {}): Record<string, string> => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
  OTEL_SERVICE_NAME: "pi-e2e",
  OTEL_EXPORTER_OTLP_HEADERS: "x-pi-test=yes",
  ...extra,
});

const named = (spans: CollectedSpan[], name: string): CollectedSpan[] => spans.filter((s) => s.name === name);
const childrenOf = (spans: CollectedSpan[], parent: CollectedSpan): CollectedSpan[] =>
  spans.filter((s) => s.parentSpanId === parent.spanId);

describe("telemetry (built CLI, OTLP/HTTP to a local collector)", () => {
  it("acceptance: one pi -p run with a tool call is one trace: run → turn → (request, tool), then run → turn → request", async () => {
    server.enqueue(
      { sse: completionsToolCall("call_read_1", "read", { path: "notes.txt" }) },
      { sse: cachedAnswer("The notes say 42.") },
    );
    const run = await user.pi(["-p", ...MODEL, "what do the notes say?"], { env: otel() });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("The notes say 42.\n");

    const spans = collector.spans;
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    expect(spans.map((s) => s.name).sort()).toEqual([
      "pi.agent.run",
      "pi.agent.tool",
      "pi.agent.turn",
      "pi.agent.turn",
      "pi.ai.request",
      "pi.ai.request",
    ]);
    expect(collector.requests.every((r) => r.path === "/v1/traces" && r.headers["x-pi-test"] === "yes")).toBe(true);
    expect(spans[0]!.resource["service.name"]).toBe("pi-e2e");

    const [root] = named(spans, "pi.agent.run");
    expect(root!.parentSpanId).toBe("");
    const sessionId = root!.attributes["pi.session.id"];
    expect(typeof sessionId).toBe("string");
    expect(root!.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.conversation.id": sessionId,
      "gen_ai.provider.name": "mock",
      "gen_ai.request.model": "mock-1",
      "pi.cwd": user.project,
      "pi.model": "mock/mock-1",
      "pi.run.aborted": false,
    });

    const turns = childrenOf(spans, root!).sort((a, b) => Number(a.startNs - b.startNs));
    expect(turns.map((t) => [t.name, t.attributes["pi.turn.index"]])).toEqual([
      ["pi.agent.turn", 1],
      ["pi.agent.turn", 2],
    ]);
    expect(turns[0]!.attributes).toMatchObject({ "pi.turn.stop": "toolUse", "pi.turn.tool_calls": 1 });
    expect(turns[1]!.attributes).toMatchObject({ "pi.turn.stop": "stop", "pi.turn.tool_calls": 0 });

    const first = childrenOf(spans, turns[0]!);
    expect(first.map((s) => s.name).sort()).toEqual(["pi.agent.tool", "pi.ai.request"]);
    const tool = first.find((s) => s.name === "pi.agent.tool")!;
    expect(tool.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "read",
      "gen_ai.tool.call.id": "call_read_1",
      "pi.tool.is_error": false,
    });
    expect(tool.attributes["pi.tool.duration_ms"]).toBeGreaterThanOrEqual(0);
    expect(tool.status.code).not.toBe(2);
    const toolRequest = first.find((s) => s.name === "pi.ai.request")!;
    expect(toolRequest.events.map((e) => e.name)).toEqual(["pi.ai.first_chunk", "pi.ai.block"]);
    expect(toolRequest.events[1]!.attributes).toMatchObject({ type: "tool_call", index: 0, tool: "read" });
    expect(toolRequest.attributes).toMatchObject({ stop: "toolUse", "gen_ai.response.finish_reasons": ["toolUse"] });

    const [answer] = childrenOf(spans, turns[1]!);
    expect(answer!.name).toBe("pi.ai.request");
    expect(answer!.attributes).toMatchObject({
      provider: "mock",
      api: "openai-completions",
      model: "mock-1",
      stop: "stop",
      "usage.input": 120,
      "usage.output": 7,
      "usage.cache_read": 40,
      "usage.cache_write": 0,
      "response.id": "chatcmpl-telemetry-2",
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "mock",
      "gen_ai.system": "mock",
      "gen_ai.request.model": "mock-1",
      "gen_ai.response.model": "mock-1",
      "gen_ai.response.id": "chatcmpl-telemetry-2",
      "gen_ai.usage.input_tokens": 160,
      "gen_ai.usage.output_tokens": 7,
      "gen_ai.usage.cache_read.input_tokens": 40,
      "gen_ai.usage.cache_creation.input_tokens": 0,
    });
    // 120 × $3 + 7 × $15 + 40 × $0.30 per million tokens.
    expect(answer!.attributes["cost.total"]).toBeCloseTo((120 * 3 + 7 * 15 + 40 * 0.3) / 1e6, 12);
    expect(answer!.attributes["gen_ai.response.time_to_first_chunk"]).toBeGreaterThanOrEqual(0);
    expect(answer!.events.map((e) => e.name)).toEqual(["pi.ai.first_chunk", "pi.ai.block"]);
    expect(answer!.events[1]!.attributes).toMatchObject({ type: "text", index: 0, chars: 17 });

    // One tree: every span but the root has its parent among the spans. (Containment in time is not
    // checked here: the SDK stamps a span's start from Date.now(), so sibling clocks differ by up to 1 ms;
    // the loop and router tests check the end order.)
    const ids = new Set(spans.map((s) => s.spanId));
    expect(spans.filter((s) => s !== root && !ids.has(s.parentSpanId)).map((s) => s.name)).toEqual([]);
  });

  it("a tool call that fails is an error span with the flag set; a provider error fails the request span", async () => {
    server.enqueue(
      { sse: completionsToolCall("call_missing", "read", { path: "no-such-file.txt" }) },
      { status: 400, json: { error: { message: "the mock refuses this request" } } },
    );
    const run = await user.pi(["-p", ...MODEL, "read it"], { env: otel() });
    expect(run.code).not.toBe(0);
    const tool = named(collector.spans, "pi.agent.tool")[0]!;
    expect(tool.attributes).toMatchObject({ "gen_ai.tool.call.id": "call_missing", "pi.tool.is_error": true });
    expect(tool.status.code).toBe(2);
    expect(tool.attributes["error.type"]).toBe("tool_error");
    const failed = named(collector.spans, "pi.ai.request").filter((s) => s.attributes.stop === "error");
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((s) => s.status.code === 2 && s.attributes["error.type"] === "provider_error")).toBe(true);
    expect(new Set(collector.spans.map((s) => s.traceId)).size).toBe(1);
  });

  it("a collector that is down: the run still answers and exits 0, with one warning line on stderr", async () => {
    const port = await closedPort();
    server.enqueue({ sse: cachedAnswer("Hello.") });
    const run = await user.pi(["-p", ...MODEL, "hi"], {
      env: otel({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` }),
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Hello.\n");
    const lines = run.stderr.split("\n").filter((line) => line !== "");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(`^pi: telemetry: (could not send spans to|the collector at) http://127\\.0\\.0\\.1:${port}/v1/traces`),
    );
  });

  it("off by default, and when OTEL_SDK_DISABLED or the setting says so: nothing sent, no OpenTelemetry module loaded", async () => {
    const cases: Array<{ env: Record<string, string>; settings?: unknown }> = [
      { env: {} },
      { env: otel({ OTEL_SDK_DISABLED: "true" }) },
      { env: otel({ OTEL_TRACES_EXPORTER: "none" }) },
      { env: otel(), settings: { telemetry: { enabled: false } } },
    ];
    for (const { env, settings } of cases) {
      writeFileSync(join(user.agent, "settings.json"), JSON.stringify(settings ?? {}));
      server.enqueue({ sse: cachedAnswer("Hello.") });
      const { run, modules } = await runPiRecordingModules(["-p", ...MODEL, "hi"], user.project, {
        ...user.env,
        ...env,
      });
      expect(run.stderr).toBe("");
      expect(run.stdout).toBe("Hello.\n");
      expect(openTelemetryIn(modules)).toEqual([]);
    }
    expect(collector.requests).toEqual([]);

    // The same recording sees the SDK when telemetry is on, so the check above can fail.
    writeFileSync(join(user.agent, "settings.json"), "{}");
    server.enqueue({ sse: cachedAnswer("Hello.") });
    const on = await runPiRecordingModules(["-p", ...MODEL, "hi"], user.project, { ...user.env, ...otel() });
    expect(on.run.stdout).toBe("Hello.\n");
    expect(openTelemetryIn(on.modules)).toEqual(
      expect.arrayContaining(["@opentelemetry/sdk-trace-base", "telemetry/otel.ts"]),
    );
    expect(named(collector.spans, "pi.agent.run")).toHaveLength(1);
  });
});

/**
 * The @opentelemetry packages among the loaded modules (their own files, or our chunks that bundle them,
 * marked by esbuild's `// node_modules/<package>/` lines), and the plugin's otel.ts that loads them.
 */
function openTelemetryIn(modules: string[]): string[] {
  const found = new Set<string>();
  for (const url of modules) {
    const direct = /\/node_modules\/(@opentelemetry\/[^/]+)\//.exec(url);
    if (direct) found.add(direct[1]!);
  }
  const ours = modules.filter((url) => url.startsWith("file:") && !url.includes("/node_modules/"));
  for (const url of ours) {
    const text = readText(url);
    for (const match of text.matchAll(/\n\/\/ node_modules\/(@opentelemetry\/[^/]+)\//g)) found.add(match[1]!);
    // The plugin's own file that loads the SDK (its chunk is imported only when telemetry is on).
    if (text.includes("\n// plugins/integrations/telemetry/otel.ts\n")) found.add("telemetry/otel.ts");
  }
  return [...found].sort();
}

function readText(url: string): string {
  return readFileSync(fileURLToPath(url), "utf8");
}

/** A port on 127.0.0.1 that nothing listens on (bound, then closed). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
