/**
 * providers: what does the provider layer cost per request, what does each provider plugin cost to
 * import, and does a run load only the SDK it uses?
 *
 * 1. Per request. A local 127.0.0.1 server (a child process, so its work never lands on the measured
 *    event loop) streams the same realistic 500-token answer in each wire format: Anthropic Messages
 *    (~167 text deltas of 3 tokens), Chat Completions and Responses (500 deltas of one token, as OpenAI
 *    streams), Gemini (20 chunks of 25 tokens). Each request is made three ways, in rotating order: the
 *    official SDK called directly (one client, reused), the built provider plugin through the kernel's
 *    stable handle (`handle.call("stream", ...)`, loaded from dist/plugins/<name>/index.js as the CLI
 *    loads it), and pi's provider layer (`stream()` of @mariozechner/pi-ai 0.73.1 in bench/node_modules,
 *    with its own SDK copies). Timed: the first text delta (time to first event), the end of the answer,
 *    and the CPU time the process spent on the request. The overhead is the median over rounds of
 *    (plugin − SDK) in the same round; CPU time is the number to trust on a loaded machine.
 * 2. Import cost. A fresh `node` per sample: import dist/api.js (the kernel a host has loaded anyway),
 *    then the provider plugin; each import timed inside the process, in wall and CPU ms. For scale, the
 *    cost of importing each SDK itself in a fresh process — what lazy loading keeps off start-up.
 * 3. Proof of lazy loading. A fresh process registers a module resolve hook, imports all three provider
 *    plugins, boots them in a kernel and streams one answer through one API (or none); the hook sees every
 *    module the process resolves. Only the SDK of the API used may appear. `require.cache` is checked too.
 *
 *   node bench/providers.mjs            (or: node bench/run.mjs providers)
 */
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  BENCH_DIR,
  check,
  DIST_API,
  DIST_DIR,
  loadApi,
  printChecks,
  ROOT,
  round,
  summarize,
  writeResult,
} from "./lib.mjs";

const WARMUP_ROUNDS = 20;
const ROUNDS = 200;
const IMPORT_SAMPLES = 15;
const ANSWER_TOKENS = 500;

const PLUGINS = ["provider-anthropic", "provider-openai", "provider-google"];
const SDKS = ["@anthropic-ai/sdk", "openai", "@google/genai"];
/** Which plugin serves each API, and which SDK it may load. */
const APIS = {
  "anthropic-messages": { plugin: "provider-anthropic", sdk: "@anthropic-ai/sdk" },
  "openai-completions": { plugin: "provider-openai", sdk: "openai" },
  "openai-responses": { plugin: "provider-openai", sdk: "openai" },
  "google-generative-ai": { plugin: "provider-google", sdk: "@google/genai" },
};
const pluginPath = (name) => join(DIST_DIR, "plugins", name, "index.js");
const PI_AI = join(BENCH_DIR, "node_modules", "@mariozechner", "pi-ai", "dist", "index.js");

// ── the answer, in four wire formats ────────────────────────────────────────────────────────────

/** 500 token-sized pieces of a plausible coding answer, the same every run. */
function answerTokens() {
  const words = [
    "The",
    " failing",
    " test",
    " expects",
    " a",
    " 200",
    " but",
    " the",
    " session",
    " middleware",
    " redirects",
    " with",
    " 302",
    " because",
    " the",
    " cookie",
    " is",
    " marked",
    " secure",
    ".",
    "\n\n",
    "```ts",
    "\nexport",
    " function",
    " requireSession",
    "(req",
    ",",
    " res",
    ")",
    " {",
    "\n ",
    " if",
    " (!",
    "req",
    ".session",
    ")",
    " return",
    " res",
    ".redirect",
    '("/login")',
    ";",
    "\n}",
    "\n```",
    "\n\nI",
    " changed",
    " `secure:",
    " true`",
    " to",
    " `secure:",
    " isProduction`",
    ".",
  ];
  const tokens = [];
  let seed = 7;
  for (let i = 0; i < ANSWER_TOKENS; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    tokens.push(i < words.length ? words[i] : words[seed % words.length]);
  }
  return tokens;
}
const TOKENS = answerTokens();
const ANSWER = TOKENS.join("");
const groups = (size) =>
  Array.from({ length: Math.ceil(TOKENS.length / size) }, (_, i) => TOKENS.slice(i * size, (i + 1) * size).join(""));
const sse = (data, event) =>
  `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;

function anthropicEvents() {
  const e = (type, fields) => sse({ type, ...fields }, type);
  return [
    e("message_start", {
      message: {
        id: "msg_01BenchAnswer",
        type: "message",
        role: "assistant",
        content: [],
        model: "claude-sonnet-4-6",
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 1200, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
      },
    }),
    e("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
    e("ping", {}),
    ...groups(3).map((text) => e("content_block_delta", { index: 0, delta: { type: "text_delta", text } })),
    e("content_block_stop", { index: 0 }),
    e("message_delta", {
      delta: { stop_reason: "end_turn", stop_sequence: null },
      usage: { output_tokens: ANSWER_TOKENS },
    }),
    e("message_stop", {}),
  ];
}

function completionsEvents() {
  const base = {
    id: "chatcmpl-BenchAnswer",
    object: "chat.completion.chunk",
    created: 1756500000,
    model: "gpt-4.1-2025-04-14",
    service_tier: "default",
    system_fingerprint: "fp_bench",
  };
  const chunk = (delta, finish_reason = null) =>
    sse({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason }], usage: null });
  return [
    chunk({ role: "assistant", content: "", refusal: null }),
    ...TOKENS.map((content) => chunk({ content })),
    chunk({}, "stop"),
    sse({
      ...base,
      choices: [],
      usage: {
        prompt_tokens: 1200,
        completion_tokens: ANSWER_TOKENS,
        total_tokens: 1200 + ANSWER_TOKENS,
        prompt_tokens_details: { cached_tokens: 0 },
      },
    }),
    sse("[DONE]"),
  ];
}

function responsesEvents() {
  let seq = 0;
  const e = (type, fields) => sse({ type, sequence_number: seq++, ...fields }, type);
  const response = (status, output, usage) => ({
    id: "resp_bench",
    object: "response",
    created_at: 1756500000,
    status,
    error: null,
    incomplete_details: null,
    model: "gpt-4.1-2025-04-14",
    output,
    usage,
    store: false,
  });
  const item = {
    id: "msg_bench",
    type: "message",
    status: "completed",
    role: "assistant",
    content: [{ type: "output_text", text: ANSWER, annotations: [], logprobs: [] }],
  };
  return [
    e("response.created", { response: response("in_progress", [], null) }),
    e("response.in_progress", { response: response("in_progress", [], null) }),
    e("response.output_item.added", {
      output_index: 0,
      item: { id: "msg_bench", type: "message", status: "in_progress", content: [], role: "assistant" },
    }),
    e("response.content_part.added", {
      item_id: "msg_bench",
      output_index: 0,
      content_index: 0,
      part: { type: "output_text", annotations: [], logprobs: [], text: "" },
    }),
    ...TOKENS.map((delta) =>
      e("response.output_text.delta", { item_id: "msg_bench", output_index: 0, content_index: 0, delta, logprobs: [] }),
    ),
    e("response.output_text.done", {
      item_id: "msg_bench",
      output_index: 0,
      content_index: 0,
      text: ANSWER,
      logprobs: [],
    }),
    e("response.content_part.done", {
      item_id: "msg_bench",
      output_index: 0,
      content_index: 0,
      part: { type: "output_text", annotations: [], logprobs: [], text: ANSWER },
    }),
    e("response.output_item.done", { output_index: 0, item }),
    e("response.completed", {
      response: response("completed", [item], {
        input_tokens: 1200,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: ANSWER_TOKENS,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 1200 + ANSWER_TOKENS,
      }),
    }),
  ];
}

function geminiEvents() {
  const pieces = groups(25);
  return pieces.map((text, i) => {
    const last = i === pieces.length - 1;
    const candidate = {
      content: { parts: [{ text }], role: "model" },
      index: 0,
      ...(last ? { finishReason: "STOP" } : {}),
    };
    const usageMetadata = last
      ? { promptTokenCount: 1200, candidatesTokenCount: ANSWER_TOKENS, totalTokenCount: 1200 + ANSWER_TOKENS }
      : { promptTokenCount: 1200, totalTokenCount: 1200 };
    return sse({
      candidates: [candidate],
      usageMetadata,
      modelVersion: "gemini-2.5-flash",
      responseId: "bench-gemini",
    });
  });
}

/** Serves each API's answer, one SSE event per write with a turn of the event loop in between. */
async function serve() {
  const byPath = [
    [/^\/v1\/messages/, anthropicEvents()],
    [/^\/v1\/chat\/completions/, completionsEvents()],
    [/^\/v1\/responses/, responsesEvents()],
    [/^\/v1beta\/models\/[^/]+:streamGenerateContent/, geminiEvents()],
  ];
  const server = createServer(async (req, res) => {
    for await (const _ of req);
    const events = byPath.find(([pattern]) => pattern.test(req.url ?? ""))?.[1];
    if (events === undefined) {
      res.writeHead(404, { "content-type": "application/json" });
      return res.end(JSON.stringify({ error: { message: `no route for ${req.url}` } }));
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    for (const event of events) {
      res.write(event);
      await new Promise((resolve) => setImmediate(resolve));
    }
    res.end();
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.stdout.write(`${server.address().port}\n`);
}

/** Starts the answer server in a child process; resolves with its URL and a stop function. */
async function startServerProcess() {
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, "--serve"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once("data", (d) => resolve(Number(String(d).trim())));
    child.once("exit", (code) => reject(new Error(`answer server exited (${code}) before listening`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

// ── models, requests ────────────────────────────────────────────────────────────────────────────

function models(url) {
  const base = { reasoning: false, input: ["text", "image"], contextWindow: 200_000, maxTokens: 8_192 };
  return {
    "anthropic-messages": {
      ...base,
      id: "claude-sonnet-4-6",
      name: "Claude Sonnet 4.6",
      api: "anthropic-messages",
      provider: "anthropic",
      baseUrl: url,
      cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    },
    "openai-completions": {
      ...base,
      id: "gpt-4.1",
      name: "GPT-4.1",
      api: "openai-completions",
      provider: "openai",
      baseUrl: `${url}/v1`,
      cost: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 },
    },
    "openai-responses": {
      ...base,
      id: "gpt-4.1",
      name: "GPT-4.1",
      api: "openai-responses",
      provider: "openai",
      baseUrl: `${url}/v1`,
      cost: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 },
    },
    "google-generative-ai": {
      ...base,
      id: "gemini-2.5-flash",
      name: "Gemini 2.5 Flash",
      api: "google-generative-ai",
      provider: "google",
      baseUrl: `${url}/v1beta`,
      cost: { input: 0.3, output: 2.5, cacheRead: 0.075, cacheWrite: 0 },
    },
  };
}
const QUESTION = "Why does the login test fail, and what is the fix?";
const CONTEXT = {
  systemPrompt: "You are a coding agent.",
  messages: [{ role: "user", content: QUESTION, timestamp: 1 }],
};
const STREAM_OPTIONS = {
  apiKey: "bench-key",
  maxTokens: 8_192,
  retry: { enabled: false, maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 },
};

/** The ESM entry of a package in the root node_modules (bench/node_modules holds pi's older copies). */
function rootPackageEntry(name) {
  const dir = join(ROOT, "node_modules", name);
  const pick = (target) => {
    if (typeof target === "string") return target;
    if (target === null || typeof target !== "object") return undefined;
    for (const [key, value] of Object.entries(target))
      if (key === "node" || key === "import" || key === "default") return pick(value) ?? undefined;
    return undefined;
  };
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const entry = pick(pkg.exports?.["."] ?? pkg.exports) ?? pkg.module ?? pkg.main;
  return pathToFileURL(join(dir, entry)).href;
}

/**
 * One timed request: wall ms to the first text delta and to the end, and the CPU ms this process spent
 * on it (user + system). CPU time is what the provider layer adds; unlike wall time it barely moves when
 * other processes compete for the cores. The text is checked against the answer.
 */
async function timed(run) {
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  let first;
  const text = await run(() => (first ??= process.hrtime.bigint()));
  const end = process.hrtime.bigint();
  const cpu = process.cpuUsage(cpuStart);
  if (text !== ANSWER) throw new Error(`answer mismatch: got ${text.length} chars, expected ${ANSWER.length}`);
  if (first === undefined) throw new Error("no text delta before the end");
  return { first: Number(first - start) / 1e6, total: Number(end - start) / 1e6, cpu: (cpu.user + cpu.system) / 1000 };
}

/** Direct SDK calls, one client per SDK created once, each reading the text deltas as an SDK user would. */
async function directClients(url) {
  const { default: Anthropic } = await import(rootPackageEntry("@anthropic-ai/sdk"));
  const { default: OpenAI } = await import(rootPackageEntry("openai"));
  const { GoogleGenAI } = await import(rootPackageEntry("@google/genai"));
  const anthropic = new Anthropic({ apiKey: "bench-key", baseURL: url, maxRetries: 0 });
  const openai = new OpenAI({ apiKey: "bench-key", baseURL: `${url}/v1`, maxRetries: 0 });
  const google = new GoogleGenAI({ apiKey: "bench-key", httpOptions: { baseUrl: `${url}/v1beta`, apiVersion: "" } });
  const messages = [{ role: "user", content: QUESTION }];
  return {
    "anthropic-messages": async (onFirst) => {
      let text = "";
      const stream = await anthropic.messages.create({
        model: "claude-sonnet-4-6",
        max_tokens: 8_192,
        system: "You are a coding agent.",
        messages,
        stream: true,
      });
      for await (const event of stream) {
        if (event.type === "content_block_delta" && event.delta.type === "text_delta") {
          onFirst();
          text += event.delta.text;
        }
      }
      return text;
    },
    "openai-completions": async (onFirst) => {
      let text = "";
      const stream = await openai.chat.completions.create({
        model: "gpt-4.1",
        messages: [{ role: "system", content: "You are a coding agent." }, ...messages],
        stream: true,
        stream_options: { include_usage: true },
        max_completion_tokens: 8_192,
      });
      for await (const chunk of stream) {
        const content = chunk.choices[0]?.delta?.content;
        if (content) {
          onFirst();
          text += content;
        }
      }
      return text;
    },
    "openai-responses": async (onFirst) => {
      let text = "";
      const stream = await openai.responses.create({
        model: "gpt-4.1",
        instructions: "You are a coding agent.",
        input: QUESTION,
        stream: true,
        store: false,
        max_output_tokens: 8_192,
      });
      for await (const event of stream) {
        if (event.type === "response.output_text.delta") {
          onFirst();
          text += event.delta;
        }
      }
      return text;
    },
    "google-generative-ai": async (onFirst) => {
      let text = "";
      const stream = await google.models.generateContentStream({
        model: "gemini-2.5-flash",
        contents: [{ role: "user", parts: [{ text: QUESTION }] }],
        config: { systemInstruction: "You are a coding agent.", maxOutputTokens: 8_192 },
      });
      for await (const chunk of stream) {
        for (const part of chunk.candidates?.[0]?.content?.parts ?? []) {
          if (typeof part.text === "string" && part.text !== "") {
            onFirst();
            text += part.text;
          }
        }
      }
      return text;
    },
  };
}

/** Reads an assistant stream's text deltas; throws unless it ended in `done`. */
async function readEvents(stream, onFirst) {
  let text = "";
  for await (const event of stream) {
    if (event.type === "text_delta") {
      onFirst();
      text += event.delta;
    }
  }
  const message = await stream.result();
  if (message.stopReason !== "stop")
    throw new Error(`stream ended with ${message.stopReason}: ${message.errorMessage}`);
  return text;
}

/** The built plugins booted in a kernel, as the CLI loads built-ins; one stream function per API. */
async function pluginCalls(url) {
  const api = await loadApi();
  const ProviderContract = api.defineContract({
    id: "ai/provider",
    version: "1.0.0",
    kind: "many",
    gate: "overlap",
    shape: { api: "string", stream: "function" },
  });
  const kernel = new api.Kernel();
  const boot = await kernel.boot(
    PLUGINS.map((name) => ({ id: name, source: { kind: "builtin", name, path: pluginPath(name) } })),
  );
  if (!boot.ok || boot.errors.length > 0)
    throw new Error(`boot failed: ${boot.errors.map((e) => api.formatLifecycleError(e)).join("; ")}`);
  const all = models(url);
  const calls = {};
  for (const name of Object.keys(APIS)) {
    const handle = kernel
      .useAll(ProviderContract)
      .list()
      .find((h) => h.peek()?.api === name);
    if (handle === undefined) throw new Error(`no plugin provides ${name}`);
    calls[name] = (onFirst) => readEvents(handle.call("stream", all[name], CONTEXT, STREAM_OPTIONS), onFirst);
  }
  return { calls, shutdown: () => kernel.shutdown() };
}

/** pi's provider layer (pi-ai 0.73.1), when bench/node_modules has it. */
async function piCalls(url) {
  let piAi;
  try {
    piAi = await import(pathToFileURL(PI_AI).href);
  } catch (error) {
    return {
      skipped: `pi-ai could not be loaded (${error.message.split("\n")[0]}); run "npm ci --prefix bench" to compare`,
    };
  }
  const all = models(url);
  const calls = {};
  for (const name of Object.keys(APIS))
    calls[name] = (onFirst) =>
      readEvents(piAi.stream(all[name], CONTEXT, { apiKey: "bench-key", maxTokens: 8_192 }), onFirst);
  return { calls };
}

// ── fresh-process measurements ──────────────────────────────────────────────────────────────────

/** Runs an ES module script in a fresh `node` and returns its last stdout line, parsed. */
function freshNode(script, env = {}) {
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) throw new Error(`fresh node failed (${result.status}): ${result.stderr.slice(0, 800)}`);
  return JSON.parse(result.stdout.trim().split("\n").at(-1));
}

/** Imports the kernel, then `target`; reports wall and CPU ms of each import. */
function importCostScript(target) {
  return `
const cpuMs = (since) => { const u = process.cpuUsage(since); return (u.user + u.system) / 1000; };
const c0 = process.cpuUsage(); const t0 = performance.now();
await import(${JSON.stringify(pathToFileURL(DIST_API).href)});
const kernelCpu = cpuMs(c0); const c1 = process.cpuUsage(); const t1 = performance.now();
await import(${JSON.stringify(target)});
const targetCpu = cpuMs(c1); const t2 = performance.now();
console.log(JSON.stringify({ kernel: t1 - t0, kernelCpu, target: t2 - t1, targetCpu }));`;
}

/** Imports an SDK alone; reports wall and CPU ms. */
function sdkImportScript(entry) {
  return `
const c0 = process.cpuUsage(); const t0 = performance.now();
await import(${JSON.stringify(entry)});
const u = process.cpuUsage(c0);
console.log(JSON.stringify({ target: performance.now() - t0, targetCpu: (u.user + u.system) / 1000 }));`;
}

/** The resolve hook of the probe: posts every resolved URL to the main thread, in order. */
const RECORDING_HOOK = `
let port;
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  port.postMessage(result.url);
  return result;
}`;

/** Imports every provider plugin, boots them, streams through PROBE_API (unless "none"), reports the SDKs loaded. */
function probeScript() {
  return `
import { createRequire, register } from "node:module";
import { MessageChannel } from "node:worker_threads";
const { port1, port2 } = new MessageChannel();
const resolved = [];
let flushed;
const flushMarker = "data:text/javascript,export default 'flush'";
const flushedPromise = new Promise((resolve) => (flushed = resolve));
port1.on("message", (url) => {
  resolved.push(url);
  if (url === flushMarker) flushed();
});
port1.unref();
register("data:text/javascript," + encodeURIComponent(${JSON.stringify(RECORDING_HOOK)}), { data: { port: port2 }, transferList: [port2] });

const api = await import(${JSON.stringify(pathToFileURL(DIST_API).href)});
const plugins = ${JSON.stringify(PLUGINS.map((name) => ({ name, path: pluginPath(name) })))};
const kernel = new api.Kernel();
const boot = await kernel.boot(plugins.map((p) => ({ id: p.name, source: { kind: "builtin", name: p.name, path: p.path } })));
if (!boot.ok || boot.errors.length > 0) throw new Error("boot failed");
const target = process.env.PROBE_API;
let outcome = "no request";
if (target !== "none") {
  const Provider = api.defineContract({ id: "ai/provider", version: "1.0.0", kind: "many", gate: "overlap" });
  const handle = kernel.useAll(Provider).list().find((h) => h.peek()?.api === target);
  const model = JSON.parse(process.env.PROBE_MODEL);
  const stream = handle.call("stream", model, ${JSON.stringify(CONTEXT)}, ${JSON.stringify(STREAM_OPTIONS)});
  for await (const event of stream) void event;
  outcome = (await stream.result()).stopReason;
}
await kernel.shutdown();
await import(flushMarker);
await flushedPromise;
const sdks = ${JSON.stringify(SDKS)};
const cjs = Object.keys(createRequire(import.meta.url).cache);
const loaded = sdks.filter((sdk) => [...resolved, ...cjs].some((url) => url.includes("/node_modules/" + sdk + "/")));
console.log(JSON.stringify({ target, outcome, loaded, modulesSeen: resolved.length }));`;
}

// ── main ────────────────────────────────────────────────────────────────────────────────────────

async function main() {
  const server = await startServerProcess();
  try {
    const plugins = await pluginCalls(server.url);
    const variants = { sdk: await directClients(server.url), plugin: plugins.calls };
    const pi = await piCalls(server.url);
    if (pi.calls) variants.pi = pi.calls;
    const names = Object.keys(variants);

    const perApi = {};
    for (const apiName of Object.keys(APIS)) {
      const samples = Object.fromEntries(names.map((n) => [n, []]));
      for (let r = 0; r < WARMUP_ROUNDS + ROUNDS; r++) {
        for (let k = 0; k < names.length; k++) {
          const variant = names[(r + k) % names.length];
          const sample = await timed((onFirst) => variants[variant][apiName](onFirst));
          if (r >= WARMUP_ROUNDS) samples[variant].push(sample);
        }
      }
      const paired = (a, b, field) => summarize(samples[a].map((s, i) => s[field] - samples[b][i][field]));
      const fields = ["first", "total", "cpu"];
      const all = (a, b) => Object.fromEntries(fields.map((f) => [f, paired(a, b, f)]));
      perApi[apiName] = {
        ...Object.fromEntries(
          names.map((n) => [n, Object.fromEntries(fields.map((f) => [f, summarize(samples[n].map((s) => s[f]))]))]),
        ),
        overhead: all("plugin", "sdk"),
        ...(samples.pi ? { piMinusPlugin: all("pi", "plugin") } : {}),
      };
      const r = perApi[apiName];
      const line = (n) => `${n} ${round(r[n].total.p50)} ms (cpu ${round(r[n].cpu.p50)})`;
      console.log(
        `  ${apiName}: ${names.map(line).join(", ")}; plugin − sdk: cpu ${round(r.overhead.cpu.p50, 3)} ms, first event ${round(r.overhead.first.p50, 3)} ms, whole answer ${round(r.overhead.total.p50, 3)} ms`,
      );
    }

    // Import costs, each sample in a fresh process, the targets interleaved.
    const importTargets = [
      ...PLUGINS.map((name) => ({
        key: name,
        kind: "plugin",
        script: importCostScript(pathToFileURL(pluginPath(name)).href),
      })),
      ...SDKS.map((sdk) => ({ key: sdk, kind: "sdk", script: sdkImportScript(rootPackageEntry(sdk)) })),
    ];
    const importSamples = Object.fromEntries(
      [...importTargets.map((t) => t.key), "dist/api.js"].map((key) => [key, { wall: [], cpu: [] }]),
    );
    for (const t of importTargets) freshNode(t.script); // warm the OS file cache
    for (let i = 0; i < IMPORT_SAMPLES; i++) {
      for (const t of importTargets) {
        const sample = freshNode(t.script);
        importSamples[t.key].wall.push(sample.target);
        importSamples[t.key].cpu.push(sample.targetCpu);
        if (sample.kernel !== undefined) {
          importSamples["dist/api.js"].wall.push(sample.kernel);
          importSamples["dist/api.js"].cpu.push(sample.kernelCpu);
        }
      }
    }
    const kindOf = (key) => importTargets.find((t) => t.key === key)?.kind ?? "kernel";
    const imports = Object.fromEntries(
      Object.entries(importSamples).map(([key, v]) => [
        key,
        { kind: kindOf(key), wall: summarize(v.wall), cpu: summarize(v.cpu) },
      ]),
    );
    for (const [key, v] of Object.entries(imports))
      console.log(
        `  import ${key}: ${round(v.wall.p50)} ms wall, ${round(v.cpu.p50)} ms CPU (${v.kind === "plugin" ? "after the kernel" : "fresh process"})`,
      );

    // Lazy-loading proof: one fresh process per API, plus one that streams nothing.
    const all = models(server.url);
    const probes = ["none", ...Object.keys(APIS)].map((target) => {
      const result = freshNode(probeScript(), { PROBE_API: target, PROBE_MODEL: JSON.stringify(all[target] ?? null) });
      const expected = target === "none" ? [] : [APIS[target].sdk];
      const ok =
        JSON.stringify([...result.loaded].sort()) === JSON.stringify(expected) &&
        (target === "none" || result.outcome === "stop");
      console.log(
        `  probe ${target}: streamed → ${result.outcome}; SDKs loaded: ${result.loaded.join(", ") || "none"} (${result.modulesSeen} modules resolved) ${ok ? "OK" : "WRONG"}`,
      );
      return { ...result, expected, ok };
    });

    const checks = [];
    for (const [apiName, r] of Object.entries(perApi)) {
      checks.push(check(`${apiName} plugin − SDK, CPU per request`, r.overhead.cpu.p50, "ms", null));
      checks.push(check(`${apiName} plugin − SDK, first event (wall)`, r.overhead.first.p50, "ms", null));
      checks.push(check(`${apiName} plugin − SDK, whole answer (wall)`, r.overhead.total.p50, "ms", null));
      if (r.piMinusPlugin)
        checks.push(check(`${apiName} pi-ai − plugin, CPU per request`, r.piMinusPlugin.cpu.p50, "ms", null));
    }
    checks.push(check("import dist/api.js (kernel), CPU", imports["dist/api.js"].cpu.p50, "ms", null));
    for (const name of PLUGINS) {
      checks.push(check(`import ${name} after the kernel, CPU`, imports[name].cpu.p50, "ms", null));
      checks.push(check(`import ${name} after the kernel, wall`, imports[name].wall.p50, "ms", null));
    }
    for (const sdk of SDKS) checks.push(check(`import ${sdk} (only when used), CPU`, imports[sdk].cpu.p50, "ms", null));
    checks.push(check("probes loading an SDK they did not use", probes.filter((p) => !p.ok).length, "runs", 0));

    const file = writeResult("providers", {
      answer: {
        tokens: ANSWER_TOKENS,
        chars: ANSWER.length,
        deltas: {
          "anthropic-messages": groups(3).length,
          "openai-completions": TOKENS.length,
          "openai-responses": TOKENS.length,
          "google-generative-ai": groups(25).length,
        },
      },
      rounds: ROUNDS,
      warmupRounds: WARMUP_ROUNDS,
      variants: names,
      ...(pi.skipped ? { piSkipped: pi.skipped } : {}),
      perApi,
      imports,
      importSamples: IMPORT_SAMPLES,
      probes,
      checks,
    });
    printChecks(checks);
    console.log(`  results: ${file}`);
    await plugins.shutdown();
  } finally {
    server.stop();
  }
}

if (process.argv.includes("--serve")) await serve();
else await main();
