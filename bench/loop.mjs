/**
 * loop: what does the agent loop itself cost per turn and per tool round trip, with a provider that
 * answers instantly — side by side with pi 0.73.1's agentLoop.
 *
 * Scenario, the same for both systems:
 *   - "tools": one prompt, then N_TOOL_TURNS assistant turns each holding one call of a trivial `echo`
 *     tool ({"text": "round i of N"} → the same text back), then one final text turn (TEXT_ANSWER,
 *     ~200 characters). N tool round trips + one text turn.
 *   - "text": one prompt, one text turn (the same TEXT_ANSWER). No tools called.
 *   Both faux providers stream 4-token (16-character) deltas as fast as the consumer reads
 *   (pi-host: provider-faux `tokensPerSecond: 0, tokensPerDelta: 4`, one setImmediate per delta;
 *   pi: pi-ai's registerFauxProvider with no tokensPerSecond and tokenSize 4..4, one microtask per delta).
 *
 * pi-host: a Kernel from dist/api.js boots the BUILT agent-loop and provider-faux plugins
 * (dist/plugins/<name>/index.js as builtin sources; the faux script is the plugin's `responses` config,
 * every turn of every run in order) and an inline plugin providing `echo` through ToolContract. The run
 * is `runAgent(kernel.use(AgentLoopContract), [prompt], [], turnConfig)`, where `turnConfig()` is built
 * before each turn as the agent session builds it: tools from the ToolContract handles (executed through
 * `handle.call("execute", ...)`), the provider reached through its AiProviderContract handle.
 * pi: `runAgentLoop` of @mariozechner/pi-agent-core 0.73.1 with `streamSimple` (the api registry finds
 * the faux provider) and the same tool as an AgentTool with a TypeBox schema from pi-ai.
 *
 * Session level (the same scenarios one layer up, persistence to an in-memory session):
 *   - pi-host: the built models, auth, settings, resources, provider-faux, session-jsonl, compaction,
 *     agent-loop and agent-session plugins plus the inline echo tool, `agent-session` with `session: "none"`
 *     (in memory); each run starts with `newSession()` (untimed), then `prompt(PROMPT)` is timed. Every
 *     message is appended to the in-memory session tree at message_end, as in a real session.
 *   - pi: `createAgentSession` with `SessionManager.inMemory()`, in-memory auth, model registry and
 *     settings, `customTools: [echo]`, `tools: ["echo"]`; a new AgentSession per run (untimed), then
 *     `session.prompt(PROMPT)` timed.
 *   Temp agentDir and cwd, empty, so neither loads context files, skills or extensions.
 *
 * Timed per run (wall, hrtime) and CPU (process.cpuUsage, user + system): the whole run. Derived:
 *   - per tool round trip = (tools run − text run of the same round) / N, median over rounds;
 *   - per text-only turn = the text run (one turn plus agent_start/agent_end), median;
 *   - events per second = AgentEvents emitted in the tools run / its wall time, median;
 *   - per tool turn from the events: turn_start → next turn_start, median over the tool turns of a run,
 *     then over runs (a cross-check of the slope).
 * Runs of the two systems and the two scenarios alternate in a rotating order, after warm-up rounds.
 * Every run is checked: message count, roles, each tool result echoing its call's text, the final text.
 *
 *   node bench/loop.mjs            (or: node bench/run.mjs loop)
 *   node --cpu-prof bench/loop.mjs --only="pi-host loop"   (one system alone, e.g. to profile it)
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BENCH_DIR, check, DIST_DIR, loadApi, printChecks, round, summarize, writeResult } from "./lib.mjs";

const N_TOOL_TURNS = 20;
const WARMUP_ROUNDS = 10;
const ROUNDS = 40;
const TOKENS_PER_DELTA = 4;
const TARGET_MS_PER_ROUND_TRIP = 3;
const PROMPT = "Echo twenty rounds, then say you are done.";
const TEXT_ANSWER =
  "All twenty rounds came back exactly as sent, so the echo tool works. Nothing else needed changing; the loop ran every call, " +
  "fed each result back, and this is the final answer of the run.";
const SYSTEM_PROMPT = "You are a benchmark agent.";
const ECHO_DESCRIPTION = "Returns its text argument unchanged.";

const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7);
const pluginPath = (name) => join(DIST_DIR, "plugins", name, "index.js");
const PI_AGENT_CORE = join(BENCH_DIR, "node_modules", "@mariozechner", "pi-agent-core", "dist", "index.js");
const PI_AI = join(BENCH_DIR, "node_modules", "@mariozechner", "pi-ai", "dist", "index.js");
const PI_CODING_AGENT = join(BENCH_DIR, "node_modules", "@mariozechner", "pi-coding-agent", "dist", "index.js");

const roundText = (i) => `round ${i + 1} of ${N_TOOL_TURNS}`;

// ── checks of one run's outcome ─────────────────────────────────────────────────────────────────

/** Throws unless the run added exactly the scenario's messages, with echoed results and the final text. */
function verifyRun(system, scenario, messages) {
  const calls = scenario === "tools" ? N_TOOL_TURNS : 0;
  const expected = 1 + 2 * calls + 1;
  const fail = (why) => {
    throw new Error(`${system} ${scenario} run: ${why}`);
  };
  if (messages.length !== expected) fail(`${messages.length} messages, expected ${expected}`);
  if (messages[0].role !== "user") fail(`first message is ${messages[0].role}, expected user`);
  for (let i = 0; i < calls; i++) {
    const assistant = messages[1 + 2 * i];
    const result = messages[2 + 2 * i];
    const call = assistant.content.find((b) => b.type === "toolCall");
    if (assistant.role !== "assistant" || call === undefined) fail(`message ${1 + 2 * i} is not a tool call`);
    if (call.arguments.text !== roundText(i)) fail(`call ${i} has arguments ${JSON.stringify(call.arguments)}`);
    if (result.role !== "toolResult" || result.toolCallId !== call.id || result.isError)
      fail(`message ${2 + 2 * i} is not the result of ${call.id}`);
    if (result.content[0]?.text !== roundText(i)) fail(`result ${i} is ${JSON.stringify(result.content)}`);
  }
  const last = messages.at(-1);
  const text = last.content?.map((b) => (b.type === "text" ? b.text : "")).join("");
  if (last.role !== "assistant" || last.stopReason !== "stop" || text !== TEXT_ANSWER)
    fail(`last message is not the final answer (${last.stopReason}: ${last.errorMessage ?? text})`);
}

/** Wall ms, CPU ms, event count and per-tool-turn times of one run. */
async function measure(run) {
  const turnStarts = [];
  let events = 0;
  const onEvent = (event) => {
    events++;
    if (event.type === "turn_start") turnStarts.push(process.hrtime.bigint());
  };
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  const messages = await run(onEvent);
  const end = process.hrtime.bigint();
  const cpu = process.cpuUsage(cpuStart);
  const toolTurns = turnStarts.slice(1).map((t, i) => Number(t - turnStarts[i]) / 1e6);
  return {
    messages,
    wall: Number(end - start) / 1e6,
    cpu: (cpu.user + cpu.system) / 1000,
    events,
    toolTurnMedian: toolTurns.length ? summarize(toolTurns).p50 : undefined,
  };
}

// ── pi-host ─────────────────────────────────────────────────────────────────────────────────────

/** pi-host faux turns for one run of `scenario`, in the plugin's JSON script format. */
function piHostTurns(scenario) {
  const turns = [];
  if (scenario === "tools")
    for (let i = 0; i < N_TOOL_TURNS; i++)
      turns.push({ content: [{ type: "toolCall", name: "echo", arguments: { text: roundText(i) } }] });
  turns.push({ content: TEXT_ANSWER });
  return turns;
}

/** A temp folder with an empty agentDir and project folder, removed at shutdown. */
function tempDirs() {
  const root = mkdtempSync(join(tmpdir(), "pi-host-bench-loop-"));
  const agentDir = join(root, "agent");
  const cwd = join(root, "project");
  mkdirSync(agentDir);
  mkdirSync(cwd);
  return { agentDir, cwd, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * Boots the built plugins for `level` ("loop": agent-loop + provider-faux; "session": the whole
 * session stack) plus an inline echo tool. `schedule` is every scenario this system will run, in order:
 * the faux plugin's script holds all their turns. Returns `run(scenario)` → a promise of the timed part.
 */
async function piHostSystem(level, schedule) {
  const api = await loadApi();
  const {
    Kernel,
    definePlugin,
    ToolContract,
    AgentLoopContract,
    AgentSessionContract,
    AiProviderContract,
    createFileLocks,
    runAgent,
    Type,
  } = api;
  const source = (name) => {
    if (!existsSync(pluginPath(name))) throw new Error(`${pluginPath(name)} is missing; run "npm run build" first`);
    return { kind: "builtin", name, path: pluginPath(name) };
  };

  const echoTool = {
    name: "echo",
    description: ECHO_DESCRIPTION,
    parameters: Type.Object({ text: Type.String() }),
    async execute(_id, params) {
      return { content: [{ type: "text", text: params.text }] };
    },
  };
  const echoPlugin = definePlugin({
    id: "bench-echo",
    version: "1.0.0",
    provides: [ToolContract],
    setup(ctx) {
      ctx.provide(ToolContract, echoTool, { key: "echo" });
    },
  });
  const fauxConfig = {
    responses: schedule.flatMap((scenario) => piHostTurns(scenario)),
    tokensPerSecond: 0,
    tokensPerDelta: TOKENS_PER_DELTA,
  };
  const echoEntry = { id: "bench-echo", source: { kind: "inline", label: "bench-echo", definition: echoPlugin } };
  const dirs = tempDirs();
  const fauxProvider = {
    api: "faux",
    baseUrl: "http://localhost:0",
    apiKey: "none",
    models: [{ id: "faux-1", contextWindow: 128_000, maxTokens: 16_384 }],
  };
  const entries =
    level === "loop"
      ? [
          { id: "agent-loop", source: source("agent-loop") },
          { id: "provider-faux", source: source("provider-faux"), config: fauxConfig },
          echoEntry,
        ]
      : [
          {
            id: "models",
            source: source("models"),
            config: { agentDir: dirs.agentDir, providers: { faux: fauxProvider } },
          },
          { id: "auth", source: source("auth"), config: { agentDir: dirs.agentDir } },
          { id: "settings", source: source("settings"), config: { agentDir: dirs.agentDir } },
          { id: "resources", source: source("resources"), config: { agentDir: dirs.agentDir } },
          { id: "provider-faux", source: source("provider-faux"), config: fauxConfig },
          { id: "llm", source: source("llm") },
          { id: "session-jsonl", source: source("session-jsonl"), config: { agentDir: dirs.agentDir } },
          { id: "compaction", source: source("compaction") },
          { id: "agent-loop", source: source("agent-loop") },
          {
            id: "agent-session",
            source: source("agent-session"),
            config: { cwd: dirs.cwd, model: "faux/faux-1", session: "none" },
          },
          echoEntry,
        ];
  const kernel = new Kernel();
  const boot = await kernel.boot(entries);
  if (!boot.ok || boot.errors.length > 0)
    throw new Error(`pi-host boot failed: ${JSON.stringify(boot.errors.map((e) => e.cause?.message ?? e))}`);
  const shutdown = async () => {
    await kernel.shutdown();
    dirs.remove();
  };

  if (level === "session") {
    const session = kernel.use(AgentSessionContract);
    await session.call("ready");
    return {
      run: async () => {
        await session.call("newSession");
        return async () => {
          await session.call("prompt", PROMPT);
          return session.call("messages");
        };
      },
      shutdown,
    };
  }

  const loop = kernel.use(AgentLoopContract);
  const provider = kernel
    .useAll(AiProviderContract)
    .list()
    .find((h) => h.peek()?.api === "faux");
  if (provider === undefined) throw new Error("the faux provider did not register");
  const model = provider.peek().model();
  const toolHandles = kernel.useAll(ToolContract);
  const locks = createFileLocks();

  /** A turn's config, built anew before each turn as the agent session builds it. */
  const turnConfig = (emit) => {
    const tools = [];
    for (const handle of toolHandles.list()) {
      const spec = handle.peek();
      if (spec !== undefined)
        tools.push({
          name: spec.name,
          description: spec.description,
          parameters: spec.parameters,
          execute: (...args) => handle.call("execute", ...args),
        });
    }
    return {
      model,
      systemPrompt: SYSTEM_PROMPT,
      tools,
      stream: (m, context, options) => provider.call("stream", m, context, options),
      streamOptions: {},
      toolContext: { cwd: process.cwd(), withFileLock: locks },
      hooks: {},
      takeSteering: () => [],
      takeFollowUps: () => [],
      emit,
    };
  };

  return {
    run: async () => (onEvent) =>
      runAgent(loop, [{ role: "user", content: PROMPT, timestamp: Date.now() }], [], () => turnConfig(onEvent)),
    shutdown,
  };
}

// ── pi ──────────────────────────────────────────────────────────────────────────────────────────

/** pi's modules and one faux provider registration, shared by both levels; a reason when pi is missing. */
async function piModules() {
  if (![PI_AGENT_CORE, PI_AI, PI_CODING_AGENT].every(existsSync))
    return { skipped: `pi is not installed in bench/node_modules; run "npm ci --prefix bench" to compare` };
  const ai = await import(pathToFileURL(PI_AI).href);
  const core = await import(pathToFileURL(PI_AGENT_CORE).href);
  const agent = await import(pathToFileURL(PI_CODING_AGENT).href);
  const faux = ai.registerFauxProvider({
    provider: "faux",
    tokenSize: { min: TOKENS_PER_DELTA, max: TOKENS_PER_DELTA },
  });
  const echoTool = {
    name: "echo",
    label: "echo",
    description: ECHO_DESCRIPTION,
    parameters: ai.Type.Object({ text: ai.Type.String() }),
    async execute(_id, params) {
      return { content: [{ type: "text", text: params.text }], details: {} };
    },
  };
  const turns = (scenario) => {
    const out = [];
    if (scenario === "tools")
      for (let i = 0; i < N_TOOL_TURNS; i++)
        out.push(
          ai.fauxAssistantMessage([ai.fauxToolCall("echo", { text: roundText(i) }, { id: `call_${i}` })], {
            stopReason: "toolUse",
          }),
        );
    out.push(ai.fauxAssistantMessage(TEXT_ANSWER));
    return out;
  };
  return { ai, core, agent, faux, echoTool, turns };
}

/** pi at `level`: "loop" is runAgentLoop of pi-agent-core; "session" is an AgentSession of pi-coding-agent. */
async function piSystem(level, pi) {
  const { core, agent, faux, echoTool, turns } = pi;
  const model = faux.getModel();
  if (level === "loop") {
    const convertToLlm = (messages) =>
      messages.filter((m) => m.role === "user" || m.role === "assistant" || m.role === "toolResult");
    return {
      run: async (scenario) => {
        faux.setResponses(turns(scenario));
        return (onEvent) =>
          core.runAgentLoop(
            [{ role: "user", content: PROMPT, timestamp: Date.now() }],
            { systemPrompt: SYSTEM_PROMPT, messages: [], tools: [echoTool] },
            { model, convertToLlm },
            async (event) => onEvent(event),
          );
      },
      shutdown: async () => {},
    };
  }
  const dirs = tempDirs();
  const authStorage = agent.AuthStorage.inMemory();
  authStorage.setRuntimeApiKey("faux", "none");
  const modelRegistry = agent.ModelRegistry.inMemory(authStorage);
  let previous;
  return {
    run: async (scenario) => {
      previous?.dispose();
      faux.setResponses(turns(scenario));
      const { session } = await agent.createAgentSession({
        cwd: dirs.cwd,
        agentDir: dirs.agentDir,
        sessionManager: agent.SessionManager.inMemory(dirs.cwd),
        model,
        authStorage,
        modelRegistry,
        settingsManager: agent.SettingsManager.inMemory(),
        customTools: [echoTool],
        tools: ["echo"],
      });
      previous = session;
      return async () => {
        await session.prompt(PROMPT);
        return session.messages;
      };
    },
    shutdown: async () => {
      previous?.dispose();
      dirs.remove();
    },
  };
}

// ── main ────────────────────────────────────────────────────────────────────────────────────────

const SYSTEMS = ["pi-host loop", "pi loop", "pi-host session", "pi session"];

async function main() {
  const loadStart = loadavg().map((v) => round(v));
  const totalRounds = WARMUP_ROUNDS + ROUNDS;
  const scenarios = ["tools", "text"];
  const pi = SYSTEMS.some((n) => n.startsWith("pi ") && (!only || n.includes(only)))
    ? await piModules()
    : { skipped: "not selected (--only)" };
  const names = SYSTEMS.filter((n) => (!only || n.includes(only)) && (!n.startsWith("pi ") || !pi.skipped));
  // Every round runs each system on each scenario once, in an order that rotates from round to round.
  const order = [];
  for (let r = 0; r < totalRounds; r++) {
    const jobs = names.flatMap((system) => scenarios.map((scenario) => ({ system, scenario })));
    for (let k = 0; k < jobs.length; k++) order.push({ round: r, ...jobs[(r + k) % jobs.length] });
  }
  const systems = {};
  for (const name of names) {
    const [who, level] = name.split(" ");
    systems[name] =
      who === "pi-host"
        ? await piHostSystem(
            level,
            order.filter((j) => j.system === name).map((j) => j.scenario),
          )
        : await piSystem(level, pi);
  }

  const samples = Object.fromEntries(names.map((n) => [n, { tools: [], text: [] }]));
  for (const job of order) {
    const runner = await systems[job.system].run(job.scenario);
    const sample = await measure(runner);
    verifyRun(job.system, job.scenario, sample.messages);
    delete sample.messages;
    if (job.round >= WARMUP_ROUNDS) samples[job.system][job.scenario].push(sample);
  }

  const stats = {};
  for (const name of names) {
    const { tools, text } = samples[name];
    const atLoop = name.endsWith(" loop");
    const roundTrip = tools.map((s, i) => (s.wall - text[i].wall) / N_TOOL_TURNS);
    const roundTripCpu = tools.map((s, i) => (s.cpu - text[i].cpu) / N_TOOL_TURNS);
    stats[name] = {
      roundTripMs: summarize(roundTrip),
      roundTripCpuMs: summarize(roundTripCpu),
      textTurnMs: summarize(text.map((s) => s.wall)),
      textTurnCpuMs: summarize(text.map((s) => s.cpu)),
      toolsRunMs: summarize(tools.map((s) => s.wall)),
      toolsRunCpuMs: summarize(tools.map((s) => s.cpu)),
      ...(atLoop
        ? {
            toolTurnFromEventsMs: summarize(tools.map((s) => s.toolTurnMedian)),
            eventsPerToolsRun: tools[0]?.events,
            eventsPerTextRun: text[0]?.events,
            eventsPerSecond: summarize(tools.map((s) => s.events / (s.wall / 1000))),
          }
        : {}),
    };
    const s = stats[name];
    const events = atLoop
      ? `; from events ${round(s.toolTurnFromEventsMs.p50, 3)} ms; ${s.eventsPerToolsRun} events per ${N_TOOL_TURNS}-call run, ${Math.round(s.eventsPerSecond.p50)} events/s`
      : "";
    console.log(
      `  ${name}: tool round trip ${round(s.roundTripMs.p50, 3)} ms (CPU ${round(s.roundTripCpuMs.p50, 3)} ms${events}), text-only turn ${round(s.textTurnMs.p50, 3)} ms (CPU ${round(s.textTurnCpuMs.p50, 3)})`,
    );
  }

  const checks = [];
  for (const name of names) {
    const s = stats[name];
    const target = name === "pi-host loop" || name === "pi-host session" ? TARGET_MS_PER_ROUND_TRIP : null;
    checks.push(check(`${name}: per tool round trip (wall)`, s.roundTripMs.p50, "ms", target));
    checks.push(check(`${name}: per tool round trip (CPU)`, s.roundTripCpuMs.p50, "ms", null));
    checks.push(check(`${name}: text-only turn (wall)`, s.textTurnMs.p50, "ms", null));
    checks.push(check(`${name}: text-only turn (CPU)`, s.textTurnCpuMs.p50, "ms", null));
    if (s.eventsPerSecond)
      checks.push(check(`${name}: events per second`, s.eventsPerSecond.p50, "ev/s", null, "higher"));
  }
  for (const level of ["loop", "session"]) {
    const host = stats[`pi-host ${level}`];
    const other = stats[`pi ${level}`];
    if (!host || !other) continue;
    checks.push(
      check(
        `${level}: ratio pi / pi-host, round trip (wall)`,
        other.roundTripMs.p50 / host.roundTripMs.p50,
        "x",
        null,
        "higher",
      ),
    );
    checks.push(
      check(
        `${level}: ratio pi / pi-host, round trip (CPU)`,
        other.roundTripCpuMs.p50 / host.roundTripCpuMs.p50,
        "x",
        null,
        "higher",
      ),
    );
    checks.push(
      check(
        `${level}: ratio pi / pi-host, text turn (wall)`,
        other.textTurnMs.p50 / host.textTurnMs.p50,
        "x",
        null,
        "higher",
      ),
    );
    if (host.eventsPerSecond)
      checks.push(
        check(
          `${level}: ratio pi-host / pi, events per second`,
          host.eventsPerSecond.p50 / other.eventsPerSecond.p50,
          "x",
          null,
          "higher",
        ),
      );
  }

  const file = writeResult("loop", {
    scenario: {
      toolTurnsPerRun: N_TOOL_TURNS,
      textAnswerChars: TEXT_ANSWER.length,
      tokensPerDelta: TOKENS_PER_DELTA,
      rounds: ROUNDS,
      warmupRounds: WARMUP_ROUNDS,
    },
    loadavgAtStart: loadStart,
    ...(pi.skipped ? { piSkipped: pi.skipped } : {}),
    systems: names,
    stats,
    samples,
    checks,
  });
  printChecks(checks);
  console.log(
    `  load average at start ${loadStart.join(" / ")}, at end ${loadavg()
      .map((v) => round(v))
      .join(" / ")}`,
  );
  console.log(`  results: ${file}`);
  for (const name of names) await systems[name].shutdown();
  pi.faux?.unregister();
}

await main();
