/**
 * session-cli: the 20,000-message session as a user meets it — `pi --session <file> -p "..."` opens the
 * file, sends the whole history to the model and appends the turn — pi-host next to pi 1.6.0 (both on
 * Node 22, the targets) and pi 0.73.1 (machine's Node), against the same local model server.
 *
 * The file is session-file.mjs's (15.3 MB, 20,002 entries), with its header's `cwd` set to each tool's
 * project folder (pi 1.6.0 refuses a session whose stored folder does not exist). Every run works on a
 * fresh copy, so the appended turns never pile up. The server is cli.mjs's (`--serve`), an OpenAI-compatible
 * Chat Completions server in its own process; it answers a plain question with its fixed answer, and each
 * run is checked: that answer on stdout, exit 0, and the turn appended to the file after the whole history
 * (2 to 4 entries, the last one the answer), each a whole JSON line.
 *
 * Measured per run, as cli.mjs does: wall time from spawn to exit, and through a `--require` preload the
 * process's peak RSS (`process.resourceUsage().maxRSS`) and CPU time (user + system, all threads) at exit.
 * Peak RSS and CPU move far less than wall time on the shared cores; the targets are the issue's: pi 1.6.0
 * / pi-host ≥ 4× (wall p50) and pi-host's peak RSS ≤ 90 MB.
 *
 * Commands run interleaved in a rotating order after WARMUP untimed rounds, RUNS timed rounds each.
 *
 *   node bench/session-cli.mjs                       (or: node bench/run.mjs session-cli)
 *   PI_BENCH_SESSION_RUNS=9 node bench/session-cli.mjs
 *   PI_BENCH_SESSION_BASELINE=/tmp/old/dist node bench/session-cli.mjs   (another build, on Node 22, as one more tool)
 *   PI_BENCH_SESSION_ONLY=pi-host node bench/session-cli.mjs             (tools whose name starts with it)
 */
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import {
  BENCH_DIR,
  check,
  DIST_CLI,
  NODE22,
  PI16_CLI,
  PI_CLI,
  printChecks,
  round,
  summarize,
  writeResult,
} from "./lib.mjs";
import { generateSession, SESSION_CWD } from "./session-file.mjs";

const WARMUP = Number(process.env.PI_BENCH_SESSION_WARMUP ?? 1);
const RUNS = Number(process.env.PI_BENCH_SESSION_RUNS ?? 7);
const TARGET_RATIO = 4;
const TARGET_RSS_MB = 90;
const MODEL = "bench/bench-1";
const PROMPT = "Say hello.";
/** cli.mjs's server answers a plain question with this. */
const ANSWER = "Hello from the bench server: a short answer of a few words, streamed in pieces.";

/** cli.mjs in server mode: prints its port, serves until killed. */
async function startServer(root) {
  const notes = join(root, "notes.txt");
  writeFileSync(notes, "unused\n");
  const child = spawn(process.execPath, [join(BENCH_DIR, "cli.mjs"), "--serve", notes], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once("data", (d) => resolve(Number(String(d).trim())));
    child.once("exit", (code) => reject(new Error(`model server exited (${code}) before listening`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

/** A throwaway user for one tool (HOME, agent folder with models.json, project) and its copy of the session. */
function userFor(name, root, serverUrl, source) {
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
          {
            id: "bench-1",
            name: "Bench 1",
            reasoning: false,
            input: ["text"],
            contextWindow: 10_000_000,
            maxTokens: 4096,
          },
        ],
      },
    },
  };
  writeFileSync(join(agent, "models.json"), JSON.stringify(models, null, 2));
  // The session as this user's own: the same bytes but the header's folder.
  const original = readFileSync(source, "utf8");
  const master = join(home, "session-master.jsonl");
  writeFileSync(master, original.replace(JSON.stringify(SESSION_CWD), JSON.stringify(project)));
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
  return { home, agent, project, env, master, session: join(home, "session.jsonl") };
}

/** On exit, the process's peak resident set (KB) and CPU time (µs) go to $PI_BENCH_USAGE_FILE. */
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

function runToExit(node, args, { cwd, env }) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(node, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code, signal) =>
      resolve({ ms: Number(process.hrtime.bigint() - start) / 1e6, code, signal, stdout, stderr }),
    );
  });
}

/** The file's lines parsed as JSON (throws on a line that is not). */
function jsonLines(path) {
  const lines = readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "");
  return lines.map((line, i) => {
    try {
      return JSON.parse(line);
    } catch {
      throw new Error(`${path}: line ${i + 1} is not JSON`);
    }
  });
}

async function main() {
  if (!existsSync(DIST_CLI))
    throw new Error(`${DIST_CLI} is missing; run "npm run build" at the repository root first`);
  if (!existsSync(NODE22)) throw new Error(`${NODE22} is missing; run "npm ci --prefix bench"`);
  const loadavgAtStart = loadavg().map((v) => round(v));
  const root = mkdtempSync(join(tmpdir(), "pi-bench-session-cli-"));
  const source = join(root, "session-20k.jsonl");
  const generated = generateSession(source);
  const baseLines = generated.entries + 1;
  console.log(
    `session-cli: ${generated.messages} messages (${generated.entries} entries, ${(generated.bytes / 1_048_576).toFixed(1)} MB)`,
  );
  const preload = writePreload(root);
  const usageFile = join(root, "usage.json");
  const server = await startServer(root);

  const tools = [{ name: "pi-host (Node 22)", node: NODE22, cli: DIST_CLI }];
  const baseline = process.env.PI_BENCH_SESSION_BASELINE;
  if (baseline) {
    const cli = join(baseline, "cli.js");
    if (!existsSync(cli)) throw new Error(`PI_BENCH_SESSION_BASELINE=${baseline}: no cli.js there`);
    tools.push({ name: "pi-host baseline (Node 22)", node: NODE22, cli });
  }
  const missing = [PI16_CLI, PI_CLI].filter((f) => !existsSync(f));
  if (existsSync(PI16_CLI)) tools.push({ name: "pi 1.6.0 (Node 22)", node: NODE22, cli: PI16_CLI });
  if (existsSync(PI_CLI)) tools.push({ name: "pi 0.73.1", node: process.execPath, cli: PI_CLI });
  const only = process.env.PI_BENCH_SESSION_ONLY;
  const chosen = only ? tools.filter((t) => t.name.startsWith(only)) : tools;
  for (const [i, tool] of chosen.entries()) tool.user = userFor(`tool-${i}`, root, server.url, source);

  const runOnce = async (tool) => {
    copyFileSync(tool.user.master, tool.user.session);
    rmSync(usageFile, { force: true });
    const run = await runToExit(
      tool.node,
      ["--require", preload, tool.cli, "--session", tool.user.session, "-p", "--model", MODEL, PROMPT],
      { cwd: tool.user.project, env: { ...tool.user.env, PI_BENCH_USAGE_FILE: usageFile } },
    );
    if (run.code !== 0 || run.stdout.trim() !== ANSWER)
      throw new Error(
        `${tool.name}: exit ${run.code ?? run.signal}, stdout ${JSON.stringify(run.stdout.slice(0, 300))}; stderr ${run.stderr.slice(-800)}`,
      );
    // The turn appended: the prompt and the answer (pi 1.6.0 also a system-prompt entry, pi-host a model
    // and thinking-level change for --model), after every line of the history, unchanged in number.
    const records = jsonLines(tool.user.session);
    const last = records.at(-1);
    const lastText = last?.message?.role === "assistant" ? last.message.content.map((b) => b.text ?? "").join("") : "";
    if (records.length < baseLines + 2 || records.length > baseLines + 4 || lastText !== ANSWER)
      throw new Error(
        `${tool.name}: ${records.length - baseLines} entries appended (expected 2 to 4), the last one ${JSON.stringify(last).slice(0, 200)}`,
      );
    const usage = JSON.parse(readFileSync(usageFile, "utf8"));
    return { ms: run.ms, cpuMs: usage.cpuUs / 1000, rssMb: usage.maxRssKb / 1024 };
  };

  const samples = Object.fromEntries(chosen.map((t) => [t.name, { ms: [], cpuMs: [], rssMb: [] }]));
  try {
    for (let round = 0; round < WARMUP + RUNS; round++) {
      for (let k = 0; k < chosen.length; k++) {
        const tool = chosen[(round + k) % chosen.length];
        const sample = await runOnce(tool);
        if (round < WARMUP) continue;
        for (const field of ["ms", "cpuMs", "rssMb"]) samples[tool.name][field].push(sample[field]);
      }
      process.stdout.write(`  round ${round + 1}/${WARMUP + RUNS}${round < WARMUP ? " (warm-up)" : ""}\n`);
    }
  } finally {
    server.stop();
    rmSync(root, { recursive: true, force: true });
  }

  const stats = Object.fromEntries(
    chosen.map((t) => [t.name, Object.fromEntries(Object.entries(samples[t.name]).map(([f, v]) => [f, summarize(v)]))]),
  );
  const host = stats["pi-host (Node 22)"];
  const pi16 = stats["pi 1.6.0 (Node 22)"];
  const checks = [];
  for (const t of chosen) {
    const s = stats[t.name];
    const target = t.name === "pi-host (Node 22)" ? TARGET_RSS_MB : null;
    checks.push(check(`${t.name}: wall p50`, s.ms.p50, "ms", null));
    checks.push(check(`${t.name}: CPU p50`, s.cpuMs.p50, "ms", null));
    checks.push(check(`${t.name}: peak RSS p50`, s.rssMb.p50, "MB", target));
  }
  if (host && pi16) {
    checks.push(check("pi 1.6.0 / pi-host, wall p50", pi16.ms.p50 / host.ms.p50, "×", TARGET_RATIO, "higher"));
    checks.push(check("pi 1.6.0 / pi-host, CPU p50", pi16.cpuMs.p50 / host.cpuMs.p50, "×", null));
  }
  const base = stats["pi-host baseline (Node 22)"];
  if (host && base) {
    checks.push(check("baseline / pi-host, wall p50", base.ms.p50 / host.ms.p50, "×", null));
    checks.push(check("baseline / pi-host, CPU p50", base.cpuMs.p50 / host.cpuMs.p50, "×", null));
  }
  const loadavgAtEnd = loadavg().map((v) => round(v));
  console.log(
    `session-cli: ${RUNS} timed runs per tool after ${WARMUP} warm-up round(s), interleaved; load ${loadavgAtStart[0]} → ${loadavgAtEnd[0]}`,
  );
  for (const t of chosen) {
    const s = stats[t.name];
    console.log(
      `  ${t.name}: wall ${round(s.ms.p50)} ms (${round(s.ms.min)}–${round(s.ms.max)}), CPU ${round(s.cpuMs.p50)} ms, peak RSS ${round(s.rssMb.p50)} MB (${round(s.rssMb.min)}–${round(s.rssMb.max)})`,
    );
  }
  const piNote = missing.length > 0 ? `${missing.join(", ")} missing; run "npm ci --prefix bench"` : undefined;
  if (piNote) console.log(`  NOTE: ${piNote}`);
  printChecks(checks);
  writeResult("session-cli", {
    config: { warmup: WARMUP, runs: RUNS, model: MODEL, prompt: PROMPT },
    session: generated,
    tools: chosen.map((t) => ({ name: t.name, node: t.node, cli: t.cli })),
    loadavgAtStart,
    loadavgAtEnd,
    samples,
    stats,
    piSkipped: piNote ?? null,
    checks,
  });
}

await main();
