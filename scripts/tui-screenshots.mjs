#!/usr/bin/env node
/**
 * Renders one screenshot per TUI mode for the docs: docs/images/tui-fullscreen.png and tui-regular.png.
 * The built `pi` (run `npm run build` first) runs in a 100×30 tmux pane with a throwaway agent folder whose
 * one provider is a local OpenAI-compatible server streaming a fixed markdown answer; the pane is captured
 * with its colours, turned into HTML and photographed in headless Chromium on the dark theme's background.
 * Usage: npm run screenshots
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PI_BIN = join(ROOT, "dist", "cli.js");
const OUT_DIR = join(ROOT, "docs", "images");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const WIDTH = 100;
const HEIGHT = 30;
/** The dark theme's `export.pageBg`, okhsl(262 14% 16%), as sRGB: what pi's HTML export paints behind it. */
const PAGE_BG = { mode: "okhsl", h: 262, s: 0.14, l: 0.16 };
const PROMPT = "How do I read a JSON file in Node?";
const LAST_WORDS = "the file is missing.";
const ANSWER = [
  "## Reading JSON",
  "",
  "Use `readFile` from `node:fs/promises` and **parse** the text:",
  "",
  "```js",
  'import { readFile } from "node:fs/promises";',
  "",
  'const config = JSON.parse(await readFile("config.json", "utf8"));',
  "console.log(config.name);",
  "```",
  "",
  "- `JSON.parse` throws a *SyntaxError* on bad input.",
  `- Wrap it in \`try\` to report when ${LAST_WORDS}`,
].join("\n");

function fail(message) {
  console.error(message);
  process.exit(1);
}

function has(command, args) {
  try {
    execFileSync(command, args, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** A streamed chat.completions answer: the text in small chunks, then a stop and the usage. */
function startServer() {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (!req.url?.endsWith("/chat/completions")) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const chunk = (delta, extra = {}) =>
        `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 0, model: "mock-1", choices: [{ index: 0, delta, finish_reason: null, ...extra }] })}\n\n`;
      res.write(chunk({ role: "assistant", content: "" }));
      for (let i = 0; i < ANSWER.length; i += 24) res.write(chunk({ content: ANSWER.slice(i, i + 24) }));
      res.write(chunk({}, { finish_reason: "stop" }));
      const usage = { prompt_tokens: 1432, completion_tokens: 96, total_tokens: 1528 };
      res.write(`data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", choices: [], usage })}\n\n`);
      res.end("data: [DONE]\n\n");
    });
  });
  return new Promise((done) => server.listen(0, "127.0.0.1", () => done(server)));
}

/** A temp HOME: an agent folder whose only provider is the local server, on the dark theme; an empty project. */
function makeHome(baseUrl) {
  const home = mkdtempSync(join(tmpdir(), "pi-screenshots-"));
  const agent = join(home, "agent");
  const cwd = join(home, "my-project");
  mkdirSync(agent, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const model = { id: "mock-1", name: "Mock 1", contextWindow: 128000, maxTokens: 4096 };
  const providers = { local: { baseUrl, api: "openai-completions", apiKey: "none", models: [model] } };
  writeFileSync(join(agent, "models.json"), JSON.stringify({ providers }));
  writeFileSync(join(agent, "settings.json"), JSON.stringify({ defaultProvider: "local", defaultModel: "mock-1", theme: "dark" }));
  return { home, agent, cwd };
}

const quote = (value) => `'${String(value).replaceAll("'", "'\\''")}'`;

/** Runs pi in a fresh tmux pane, asks one question, and returns the answered screen with its SGR colours. */
async function capture(socket, mode, baseUrl) {
  const { home, agent, cwd } = makeHome(baseUrl);
  const tmux = (...args) => execFileSync("tmux", ["-L", socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  const env = `TERM=xterm-256color COLORTERM=truecolor PI_CODING_AGENT_DIR=${quote(agent)} HOME=${quote(home)}`;
  const command = `cd ${quote(cwd)} && env ${env} ${quote(process.execPath)} ${quote(PI_BIN)} --tui-mode ${mode}; sleep 600`;
  const name = `shot-${mode}`;
  tmux("new-session", "-d", "-s", name, "-x", String(WIDTH), "-y", String(HEIGHT), command);
  const screen = () => tmux("capture-pane", "-p", "-t", name);
  const waitFor = async (predicate, what) => {
    for (let tries = 0; tries < 300; tries++) {
      if (predicate(screen())) return;
      await new Promise((done) => setTimeout(done, 100));
    }
    fail(`${mode}: timed out waiting for ${what}; the screen was:\n${screen()}`);
  };
  try {
    await waitFor((s) => s.includes("mock-1"), "the editor and footer");
    tmux("send-keys", "-t", name, "-l", PROMPT);
    tmux("send-keys", "-t", name, "Enter");
    await waitFor((s) => s.includes(LAST_WORDS) && !s.includes("Working"), "the answer");
    await new Promise((done) => setTimeout(done, 300));
    // -N keeps trailing blanks, so a row's background (the user message) spans the pane as on screen.
    return tmux("capture-pane", "-p", "-e", "-N", "-t", name);
  } finally {
    tmux("kill-session", "-t", name);
    rmSync(home, { recursive: true, force: true });
  }
}

/** The captured screen as a standalone HTML page: a monospace grid of WIDTH×HEIGHT cells on the theme's bg. */
async function toHtml(ansi, background, foreground) {
  const { default: Convert } = await import("ansi-to-html");
  const convert = new Convert({ fg: foreground, bg: background, escapeXML: true, newline: false });
  const lines = ansi.replace(/\n$/, "").split("\n").slice(0, HEIGHT);
  const body = convert.toHtml(lines.join("\n"));
  return `<!doctype html><html><head><meta charset="utf-8"><style>
html, body { margin: 0; background: ${background}; }
pre { margin: 0; padding: 14px 18px; display: inline-block; color: ${foreground}; background: ${background};
  font: 14px/18px "DejaVu Sans Mono", "Liberation Mono", monospace; white-space: pre;
  min-width: ${WIDTH}ch; min-height: ${HEIGHT * 18}px; }
</style></head><body><pre id="screen">${body}</pre></body></html>`;
}

async function main() {
  if (!has("tmux", ["-V"])) fail("tmux is not installed (apt-get install tmux)");
  if (!existsSync(CHROMIUM)) fail(`${CHROMIUM} is not installed (apt-get install chromium, or set CHROMIUM_PATH)`);
  if (!existsSync(PI_BIN)) fail(`${PI_BIN} is missing; run "npm run build" first`);
  const { formatHex } = await import("culori");
  const background = formatHex(PAGE_BG);
  const foreground = "#e4e4e7";
  const server = await startServer();
  const baseUrl = `http://127.0.0.1:${server.address().port}/v1`;
  const socket = `pi-shots-${process.pid}`;
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
  mkdirSync(OUT_DIR, { recursive: true });
  try {
    execFileSync("tmux", ["-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "keeper", "sleep 3600"]);
    for (const mode of ["fullscreen", "regular"]) {
      const ansi = await capture(socket, mode, baseUrl);
      const page = await browser.newPage({ deviceScaleFactor: 1 });
      await page.setContent(await toHtml(ansi, background, foreground));
      const file = join(OUT_DIR, `tui-${mode}.png`);
      await page.locator("#screen").screenshot({ path: file });
      await page.close();
      console.log(`wrote ${file}`);
    }
  } finally {
    await browser.close();
    server.close();
    try {
      execFileSync("tmux", ["-L", socket, "kill-server"], { stdio: "ignore" });
    } catch {
      // already gone
    }
  }
}

await main();
