/**
 * json-size: bytes a JSON-mode client reads for one 2,000-token answer, pi-host next to pi 1.6.0 (Node 22)
 * against the same local OpenAI-compatible server, at each of several token rates. pi-host merges the
 * text deltas that arrive within 40 ms into one `message_update` line (pi 1.6.0's shape, fewer lines); pi
 * 1.6.0 writes one line per token. At a slow rate the deltas arrive further apart than that window, so
 * each line carries one token there: the rate matters. Each run's output is checked to hold the whole
 * answer, so a run that lost text cannot look small.
 *
 *   node bench/json-size.mjs [--rates 20,50,100] [--keep DIR]
 *   (--rates: tokens per second, default 20,50,100; --keep: each run's output to DIR/<who>-<rate>.jsonl)
 *   (or: node bench/run.mjs json-size)
 */
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { check, DIST_CLI, NODE22, PI16_CLI, printChecks, writeResult } from "./lib.mjs";

const TOKENS = 2000;
const ratesArg = process.argv.indexOf("--rates");
const RATES = (ratesArg >= 0 ? process.argv[ratesArg + 1] : "20,50,100").split(",").map(Number);
if (RATES.some((r) => !(r > 0))) throw new Error("--rates takes tokens per second, e.g. --rates 20,50,100");
const keepArg = process.argv.indexOf("--keep");
const KEEP = keepArg >= 0 ? process.argv[keepArg + 1] : undefined;
if (KEEP !== undefined) mkdirSync(KEEP, { recursive: true });
const TARGET_KB = 300;
const token = (i) => `t${String(i % 1000).padStart(3, "0")}`;
const ANSWER = Array.from({ length: TOKENS }, (_, i) => token(i)).join("");

/** An OpenAI-compatible Chat Completions server streaming ANSWER one token per `gapMs`. */
function startServer(gapMs) {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", async () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const send = (fields) =>
        res.write(
          `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "bench-1", ...fields })}\n\n`,
        );
      for (let i = 0; i < TOKENS; i++) {
        send({ choices: [{ index: 0, delta: { content: token(i) }, finish_reason: null }] });
        await new Promise((resolve) => setTimeout(resolve, gapMs));
      }
      send({
        choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
        usage: { prompt_tokens: 5, completion_tokens: TOKENS, total_tokens: TOKENS + 5 },
      });
      res.end("data: [DONE]\n\n");
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** A temp agent folder whose models.json points the "bench" provider at the server. */
function agentFolder(port) {
  const home = mkdtempSync(join(tmpdir(), "pi-bench-json-"));
  const agent = join(home, "agent");
  mkdirSync(agent, { recursive: true });
  writeFileSync(
    join(agent, "models.json"),
    JSON.stringify({
      providers: {
        bench: {
          baseUrl: `http://127.0.0.1:${port}/v1`,
          api: "openai-completions",
          apiKey: "BENCH_KEY",
          models: [{ id: "bench-1", contextWindow: 128000, maxTokens: 8192 }],
        },
      },
    }),
  );
  return { home, agent };
}

/** Runs one JSON-mode turn; returns the bytes and lines written, after checking the answer is whole. */
function run(node, cli, place, keepAs) {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [cli, "--mode", "json", "--model", "bench/bench-1", "hi"], {
      cwd: place.home,
      env: { ...process.env, HOME: place.home, PI_CODING_AGENT_DIR: place.agent, PI_OFFLINE: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (KEEP !== undefined) writeFileSync(join(KEEP, `${keepAs}.jsonl`), out);
      const text = out
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l))
        .filter((e) => e.type === "message_update" && e.assistantMessageEvent?.type === "text_delta")
        .map((e) => e.assistantMessageEvent.delta)
        .join("");
      if (code !== 0 || text !== ANSWER)
        reject(new Error(`${cli}: exit ${code}, answer whole: ${text === ANSWER}; ${err}`));
      else resolve({ bytes: Buffer.byteLength(out), lines: out.split("\n").filter((l) => l !== "").length });
    });
  });
}

const withPi16 = existsSync(NODE22) && existsSync(PI16_CLI);
if (!withPi16)
  console.log("  pi 1.6.0 is not installed in bench/node_modules (npm ci --prefix bench): its side is skipped");
const checks = [];
const runs = [];
for (const rate of RATES) {
  const gapMs = 1000 / rate;
  const server = await startServer(gapMs);
  const port = server.address().port;
  const host = await run(process.execPath, DIST_CLI, agentFolder(port), `pi-host-${rate}`);
  checks.push(check(`JSON bytes, ${TOKENS} tokens at ${rate} tok/s (pi-host)`, host.bytes / 1024, "KB", TARGET_KB));
  checks.push(check("  lines (pi-host)", host.lines, "", null));
  let pi16;
  if (withPi16) {
    pi16 = await run(NODE22, PI16_CLI, agentFolder(port), `pi16-${rate}`);
    checks.push(check(`JSON bytes, same answer at ${rate} tok/s (pi 1.6.0)`, pi16.bytes / 1024, "KB", null));
    checks.push(check("  lines (pi 1.6.0)", pi16.lines, "", null));
    checks.push(check("pi 1.6.0 bytes / pi-host bytes", pi16.bytes / host.bytes, "x", 1, "higher"));
  }
  server.close();
  runs.push({ rate, tokenGapMs: gapMs, piHost: host, pi16 });
}
printChecks(checks);
writeResult("json-size", { tokens: TOKENS, runs, checks });
