/**
 * json-size: bytes a JSON-mode client reads for one 2,000-token answer streamed at 100 tokens/s, pi-host
 * next to pi 1.6.0 (Node 22) against the same local OpenAI-compatible server. pi-host merges the text
 * deltas that arrive within 40 ms into one `message_update` line (pi 1.6.0's shape, fewer lines); pi
 * 1.6.0 writes one line per token. The server streams one token every 10 ms; each run's output is checked
 * to hold the whole answer, so a run that lost text cannot look small.
 *
 *   node bench/json-size.mjs        (or: node bench/run.mjs json-size)
 */
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { check, DIST_CLI, NODE22, PI16_CLI, printChecks, writeResult } from "./lib.mjs";

const TOKENS = 2000;
const TOKEN_GAP_MS = 10;
const TARGET_KB = 300;
const token = (i) => `t${String(i % 1000).padStart(3, "0")}`;
const ANSWER = Array.from({ length: TOKENS }, (_, i) => token(i)).join("");

/** An OpenAI-compatible Chat Completions server streaming ANSWER one token per TOKEN_GAP_MS. */
function startServer() {
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
        await new Promise((resolve) => setTimeout(resolve, TOKEN_GAP_MS));
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
function run(node, cli, place) {
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

const server = await startServer();
const port = server.address().port;
const host = await run(process.execPath, DIST_CLI, agentFolder(port));
const checks = [check(`JSON bytes, ${TOKENS} tokens at 100 tok/s (pi-host)`, host.bytes / 1024, "KB", TARGET_KB)];
checks.push(check("  lines (pi-host)", host.lines, "", null));
let pi16;
if (existsSync(NODE22) && existsSync(PI16_CLI)) {
  pi16 = await run(NODE22, PI16_CLI, agentFolder(port));
  checks.push(check("JSON bytes, same answer (pi 1.6.0)", pi16.bytes / 1024, "KB", null));
  checks.push(check("  lines (pi 1.6.0)", pi16.lines, "", null));
  checks.push(check("pi 1.6.0 bytes / pi-host bytes", pi16.bytes / host.bytes, "x", 1, "higher"));
} else {
  console.log("  pi 1.6.0 is not installed in bench/node_modules (npm ci --prefix bench): its side is skipped");
}
server.close();
printChecks(checks);
writeResult("json-size", { tokens: TOKENS, tokenGapMs: TOKEN_GAP_MS, piHost: host, pi16, checks });
