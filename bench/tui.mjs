/**
 * tui: what does the interactive UI cost the terminal, and how long does one frame take?
 *
 * 1. Bytes written for a 2,000-token answer streamed at 100 tokens/s. A local Chat Completions server on
 *    127.0.0.1 streams the same answer (markdown prose with paragraphs, a list and a code block; one token
 *    per SSE chunk every 10 ms) to both agents, each configured through its own models.json as an
 *    "openai-completions" provider. Each agent's BUILT CLI runs in a detached tmux pane (100×40) and
 *    `tmux pipe-pane` records every byte it writes from just before the prompt is typed until its output has
 *    been still for 1.5 s after the last token is on screen. pi-host: dist/cli.js; pi 0.73.1:
 *    bench/node_modules. Target: ≤ 150 KB (pi measured 1.30 MB). pi-host runs twice: in fullscreen mode (the
 *    default: the alternate screen, the transcript scrolling in a viewport) and with `--tui-mode regular`.
 * 2. One frame with a 10,000-row transcript: the tui view's render() plus the shell's differential
 *    renderer, for a frame in which the streaming answer grew by one token (the steady state while
 *    streaming), median of 300 frames; also the first frame (every entry rendered) and a full redraw
 *    (new width). The view and renderer modules are loaded from source through jiti (the built ones live
 *    in hashed code-split chunks with no stable entry); the JavaScript that runs is the same.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { check, DIST_API, DIST_CLI, PI_CLI, printChecks, round, ROOT, sleep, summarize, writeResult } from "./lib.mjs";

const TOKENS = 2_000;
const TOKENS_PER_SECOND = 100;
const WIDTH = 100;
const HEIGHT = 40;
const TARGET_BYTES = 150 * 1024;
const END_MARKER = "END-OF-ANSWER";
const SOCKET = `pi-tui-bench-${process.pid}`;

// ── the answer and the server ───────────────────────────────────────────────────────────────────

/** 2,000 tokens of markdown, one token per chunk; the last one is the end marker. */
function answerTokens() {
  const words = "the renderer writes only what changed since the last frame so a long answer costs little".split(" ");
  const tokens = [];
  let i = 0;
  while (tokens.length < TOKENS - 1) {
    const n = tokens.length;
    if (n % 400 === 200) tokens.push("\n\n```ts\n", "const ", "frame ", "= ", "render(", "width", ");\n", "```\n\n");
    else if (n % 150 === 100) tokens.push("\n\n- ", "a ", "list ", "item\n", "- ", "another ", "one\n\n");
    else if (n % 60 === 59) tokens.push(".\n\n");
    else tokens.push(`${words[i++ % words.length]} `);
  }
  tokens.length = TOKENS - 1;
  tokens.push(END_MARKER);
  return tokens;
}

function chunk(delta, finish = null) {
  return `data: ${JSON.stringify({ id: "bench", object: "chat.completion.chunk", created: 0, model: "bench-model", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

/** A Chat Completions server streaming the answer at the given pace to every request. */
async function startServer(tokens) {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", async () => {
      res.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        connection: "keep-alive",
      });
      res.write(chunk({ role: "assistant", content: "" }));
      const start = performance.now();
      for (let i = 0; i < tokens.length; i++) {
        if (res.destroyed) return;
        res.write(chunk({ content: tokens[i] }));
        const due = start + ((i + 1) * 1000) / TOKENS_PER_SECOND;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
      }
      res.write(chunk({}, "stop"));
      res.write(
        `data: ${JSON.stringify({ id: "bench", object: "chat.completion.chunk", created: 0, model: "bench-model", choices: [], usage: { prompt_tokens: 50, completion_tokens: TOKENS, total_tokens: TOKENS + 50 } })}\n\n`,
      );
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

// ── one agent in tmux ───────────────────────────────────────────────────────────────────────────

function tmux(...args) {
  return execFileSync("tmux", ["-L", SOCKET, "-f", "/dev/null", ...args], { encoding: "utf8" });
}

const quote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;

/** An agent home whose models.json points provider "bench" at the local server. */
function makeHome(port) {
  const home = mkdtempSync(join(tmpdir(), "pi-tui-bench-"));
  const agent = join(home, "agent");
  const work = join(home, "work");
  mkdirSync(agent, { recursive: true });
  mkdirSync(work, { recursive: true });
  const model = {
    id: "bench-model",
    name: "Bench",
    reasoning: false,
    input: ["text"],
    contextWindow: 128_000,
    maxTokens: 16_384,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  };
  writeFileSync(
    join(agent, "models.json"),
    JSON.stringify({
      providers: {
        bench: {
          baseUrl: `http://127.0.0.1:${port}/v1`,
          api: "openai-completions",
          apiKey: "bench-key",
          models: [model],
        },
      },
    }),
  );
  writeFileSync(
    join(agent, "settings.json"),
    JSON.stringify({ defaultProvider: "bench", defaultModel: "bench-model", quietStartup: true }),
  );
  return { home, agent, work };
}

async function waitFor(predicate, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (predicate()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** Runs one agent's CLI in tmux, types a prompt, and counts the bytes it writes until the answer is done. */
async function measureBytes(name, cli, port, args = []) {
  const { home, agent, work } = makeHome(port);
  const session = `bench-${name}`;
  const log = join(home, "terminal.log");
  const command = `cd ${quote(work)} && env PI_CODING_AGENT_DIR=${quote(agent)} HOME=${quote(home)} TERM=xterm-256color ${quote(process.execPath)} ${quote(cli)} ${args.map(quote).join(" ")}; sleep 600`;
  tmux("new-session", "-d", "-s", session, "-x", String(WIDTH), "-y", String(HEIGHT), command);
  try {
    const screen = () => tmux("capture-pane", "-p", "-t", session);
    // Ready: the editor is drawn (both draw a horizontal rule around it) and start-up output has settled.
    await waitFor(() => screen().includes("─".repeat(20)), 30_000, `${name} to start`);
    await sleep(1_000);
    writeFileSync(log, "");
    tmux("pipe-pane", "-o", "-t", session, `cat >> ${quote(log)}`);
    const started = performance.now();
    tmux("send-keys", "-t", session, "-l", "write the long answer");
    tmux("send-keys", "-t", session, "Enter");
    await waitFor(() => screen().includes(END_MARKER), 120_000, `${name}'s answer to finish`);
    const streamedMs = performance.now() - started;
    // Done when nothing more has been written for 1.5 s (spinners stop, footers update).
    let size = -1;
    let stillSince = performance.now();
    await waitFor(
      () => {
        const now = statSync(log).size;
        if (now !== size) {
          size = now;
          stillSince = performance.now();
        }
        return performance.now() - stillSince > 1_500;
      },
      60_000,
      `${name} to go quiet`,
    );
    tmux("pipe-pane", "-t", session);
    return { bytes: statSync(log).size, streamedMs: round(streamedMs, 0) };
  } finally {
    try {
      tmux("kill-session", "-t", session);
    } catch {
      // gone
    }
    rmSync(home, { recursive: true, force: true });
  }
}

// ── frame time ──────────────────────────────────────────────────────────────────────────────────

/** Frame times in regular mode, or (`fullscreen`) with the view laying out the screen for the alternate one. */
async function measureFrames(fullscreen = false) {
  const { createJiti } = await import("jiti");
  // The view's files import the kernel and contracts as "pi-host" (type-only today); point that name at
  // the built host this run measures, as the kernel does for source-loaded plugins.
  const jiti = createJiti(join(ROOT, "bench", "tui.mjs"), { moduleCache: false, alias: { "pi-host": DIST_API } });
  const { TerminalView } = await jiti.import(join(ROOT, "plugins/ui/tui/view.ts"));
  const { initialViewState } = await jiti.import(join(ROOT, "plugins/ui/tui/state.ts"));
  const { DiffRenderer } = await jiti.import(join(ROOT, "plugins/modes/mode-interactive/renderer.ts"));

  // A 10,000-row transcript: user questions and markdown answers, then one answer still streaming.
  const state = initialViewState();
  state.started = true;
  state.cwd = ROOT;
  const paragraph =
    "The differential renderer compares each row with the last frame and writes only the rows that changed, so the cost of a frame follows the change, not the transcript.";
  for (let i = 0; i < 700; i++) {
    state.entries.push({ id: state.nextId++, rev: 0, kind: "user", text: `question ${i}` });
    state.entries.push({
      id: state.nextId++,
      rev: 0,
      kind: "text",
      text: `${paragraph}\n\n\`\`\`ts\nconst row = ${i};\n\`\`\`\n\n- one\n- two\n\n${paragraph}`,
    });
  }
  const streaming = { id: state.nextId++, rev: 0, kind: "text", text: "Streaming: ", streaming: true };
  state.entries.push(streaming);
  state.busy = true;
  state.running = true;
  state.fullscreen = { ...state.fullscreen, enabled: fullscreen };

  const sessionState = {
    model: { id: "bench-model", provider: "bench", reasoning: false },
    thinkingLevel: "off",
    sessionName: undefined,
  };
  const stats = {
    tokens: { input: 1200, output: 34000, cacheRead: 0, cacheWrite: 0, total: 35200 },
    cost: 0.42,
    contextUsage: { tokens: 35200, contextWindow: 128000, percent: 27.5 },
  };
  const session = {
    call: (method) =>
      method === "state" ? sessionState : method === "stats" ? stats : method === "messages" ? [] : undefined,
    available: true,
  };
  const view = new TerminalView({
    state: () => state,
    save: () => {},
    session,
    store: { call: () => undefined, available: false },
    settingsTheme: async () => undefined,
    extraCommands: async () => [],
    redraw: () => {},
    requestReload: () => {},
    plugins: () => [],
    agentDir: tmpdir(),
  });
  let written = 0;
  const renderer = new DiffRenderer((bytes) => (written += bytes.length), fullscreen ? "alternate" : "normal");

  let t = performance.now();
  let frame = view.render(WIDTH, HEIGHT);
  const firstViewMs = performance.now() - t;
  renderer.render(frame, WIDTH, HEIGHT);
  const rows = frame.lines.length;

  const viewTimes = [];
  const diffTimes = [];
  const totals = [];
  for (let i = 0; i < 320; i++) {
    streaming.text += `word${i} `;
    streaming.rev++;
    t = performance.now();
    frame = view.render(WIDTH, HEIGHT);
    const mid = performance.now();
    renderer.render(frame, WIDTH, HEIGHT);
    const end = performance.now();
    if (i >= 20) {
      viewTimes.push(mid - t);
      diffTimes.push(end - mid);
      totals.push(end - t);
    }
  }
  t = performance.now();
  frame = view.render(WIDTH - 20, HEIGHT);
  renderer.render(frame, WIDTH - 20, HEIGHT);
  const fullRedrawMs = performance.now() - t;
  return {
    rows,
    firstViewMs,
    view: summarize(viewTimes),
    diff: summarize(diffTimes),
    total: summarize(totals),
    fullRedrawMs,
  };
}

// ── run ─────────────────────────────────────────────────────────────────────────────────────────

if (!existsSync(DIST_CLI)) {
  console.error(`${DIST_CLI} is missing; run "npm run build" at the repository root first`);
  process.exit(1);
}
let hasTmux = true;
try {
  execFileSync("tmux", ["-V"], { stdio: "ignore" });
} catch {
  hasTmux = false;
}

const checks = [];
const result = {};
let piSkipped;
if (hasTmux) {
  const server = await startServer(answerTokens());
  const port = server.address().port;
  // An idle session keeps the tmux server up between the two agents' sessions.
  tmux("new-session", "-d", "-s", "keeper", "sleep 3600");
  try {
    console.log(`streaming ${TOKENS} tokens at ${TOKENS_PER_SECOND}/s to pi-host in tmux ...`);
    result.piHost = await measureBytes("pi-host", DIST_CLI, port);
    console.log(`  pi-host (fullscreen): ${result.piHost.bytes} bytes in ${result.piHost.streamedMs} ms`);
    result.piHostRegular = await measureBytes("pi-host-regular", DIST_CLI, port, ["--tui-mode", "regular"]);
    console.log(`  pi-host (regular): ${result.piHostRegular.bytes} bytes in ${result.piHostRegular.streamedMs} ms`);
    if (existsSync(PI_CLI)) {
      console.log(`streaming the same answer to pi 0.73.1 ...`);
      try {
        result.pi = await measureBytes("pi", PI_CLI, port);
        console.log(`  pi: ${result.pi.bytes} bytes in ${result.pi.streamedMs} ms`);
      } catch (error) {
        piSkipped = `pi's TUI could not be driven in tmux: ${error.message}`;
      }
    } else piSkipped = `pi is not installed (${PI_CLI} missing)`;
  } finally {
    server.close();
    try {
      execFileSync("tmux", ["-L", SOCKET, "kill-server"], { stdio: "ignore" });
    } catch {
      // no server left
    }
  }
  checks.push(
    check(
      `bytes for a ${TOKENS}-token answer (pi-host, fullscreen)`,
      result.piHost.bytes / 1024,
      "KB",
      TARGET_BYTES / 1024,
    ),
    check(
      `bytes for a ${TOKENS}-token answer (pi-host, --tui-mode regular)`,
      result.piHostRegular.bytes / 1024,
      "KB",
      TARGET_BYTES / 1024,
    ),
  );
  if (result.pi) {
    checks.push(check(`bytes for the same answer (pi 0.73.1)`, result.pi.bytes / 1024, "KB", null));
    checks.push(check("pi bytes / pi-host bytes", result.pi.bytes / result.piHost.bytes, "x", null));
  }
} else {
  piSkipped = "tmux is not installed: the terminal byte counts need it (apt-get install tmux)";
}

console.log("rendering frames with a 10,000-row transcript ...");
const frames = await measureFrames();
result.frames = frames;
checks.push(check(`frame while streaming, ${frames.rows} rows (p50)`, frames.total.p50, "ms", null));
checks.push(check(`  of which view render (p50)`, frames.view.p50, "ms", null));
checks.push(check(`  of which diff + write (p50)`, frames.diff.p50, "ms", null));
checks.push(check(`frame while streaming (p95)`, frames.total.p95, "ms", null));
checks.push(check(`first frame, every entry rendered`, frames.firstViewMs, "ms", null));
checks.push(check(`full redraw at a new width`, frames.fullRedrawMs, "ms", null));
const fullscreenFrames = await measureFrames(true);
result.fullscreenFrames = fullscreenFrames;
checks.push(check(`fullscreen frame while streaming (p50)`, fullscreenFrames.total.p50, "ms", null));
checks.push(check(`  of which diff + write (p50)`, fullscreenFrames.diff.p50, "ms", null));
checks.push(check(`fullscreen frame while streaming (p95)`, fullscreenFrames.total.p95, "ms", null));

printChecks(checks);
writeResult("tui", { checks, ...result, ...(piSkipped ? { piSkipped } : {}) });
