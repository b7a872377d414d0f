/**
 * Project trust in the interactive mode, end to end: the BUILT `pi` in a detached tmux pane, in a folder
 * whose `.pi/extensions`, `.pi/settings.json` `mcpServers` and `.pi/plugins.json` each touch a marker
 * file when they run. With `defaultProjectTrust` at its "ask" default, pi-host asks once before the
 * session starts: "n" keeps everything out (the screen says what was skipped; trust.json saves false),
 * "y" loads it all (trust.json saves true). Skipped with a reason when tmux is absent.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { PI_BIN } from "../e2e/run-pi.js";

const SOCKET = `pi-trust-tui-${process.pid}`;
const HAS_TMUX = (() => {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
if (!HAS_TMUX) console.log("skipping the interactive trust tests: tmux is not installed");

function tmux(...args: string[]): string {
  return execFileSync("tmux", ["-L", SOCKET, "-f", "/dev/null", ...args], { encoding: "utf8" });
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

const started: string[] = [];

/** Starts pi in a pane of its own; returns the pane's name. */
function startPi(home: string, cwd: string): string {
  const name = `pi${Math.random().toString(36).slice(2, 8)}`;
  const env = `PI_CODING_AGENT_DIR=${shellQuote(join(home, "agent"))} HOME=${shellQuote(home)} TERM=xterm-256color`;
  tmux(
    "new-session",
    "-d",
    "-s",
    name,
    "-x",
    "120",
    "-y",
    "40",
    `cd ${shellQuote(cwd)} && env ${env} ${shellQuote(process.execPath)} ${shellQuote(PI_BIN)}; echo "[pi exited $?]"; sleep 600`,
  );
  started.push(name);
  return name;
}

/** Polls the pane's history and screen until `text` shows; fails with what it shows. */
async function waitFor(name: string, text: string, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const screen = tmux("capture-pane", "-p", "-J", "-S", "-", "-E", "-", "-t", name);
    if (screen.includes(text)) return screen;
    if (Date.now() > deadline) throw new Error(`the screen never showed ${JSON.stringify(text)}; it shows:\n${screen}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A home with faux models and a hostile project; returns where the markers go. */
function makeWorld(): { home: string; cwd: string; agent: string; markers: string[] } {
  const home = mkdtempSync(join(tmpdir(), "pi-trust-tui-"));
  const agent = join(home, "agent");
  const cwd = join(home, "work");
  mkdirSync(agent, { recursive: true });
  mkdirSync(join(cwd, ".pi", "extensions"), { recursive: true });
  mkdirSync(join(cwd, ".pi", "plugins"), { recursive: true });
  writeFileSync(
    join(agent, "models.json"),
    JSON.stringify({
      providers: { faux: { api: "faux", baseUrl: "http://localhost:0", apiKey: "none", models: [{ id: "faux-1" }] } },
    }),
  );
  writeFileSync(join(agent, "settings.json"), JSON.stringify({ defaultProvider: "faux", defaultModel: "faux-1" }));
  writeFileSync(
    join(agent, "plugins.json"),
    JSON.stringify({
      plugins: [{ id: "provider-faux", config: { tokensPerSecond: 1000, responses: [{ content: "FAUX-ANSWER" }] } }],
    }),
  );
  const marker = (name: string): string => join(home, `marker-${name}`);
  const touch = (m: string): string =>
    `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(m)}, "ran");\n`;
  writeFileSync(
    join(cwd, ".pi", "extensions", "mark.ts"),
    `${touch(marker("extension"))}export default function () {}\n`,
  );
  writeFileSync(
    join(cwd, ".pi", "plugins", "mark.ts"),
    `${touch(marker("plugin"))}export default { id: "project-mark", version: "1.0.0", setup() {} };\n`,
  );
  writeFileSync(
    join(cwd, ".pi", "plugins.json"),
    JSON.stringify({ plugins: [{ id: "project-mark", use: "./plugins/mark.ts" }] }),
  );
  writeFileSync(
    join(cwd, ".pi", "settings.json"),
    JSON.stringify({
      mcpServers: {
        project: {
          command: process.execPath,
          args: ["-e", `require("node:fs").writeFileSync(${JSON.stringify(marker("mcp"))}, "ran")`],
        },
      },
    }),
  );
  return { home, cwd, agent, markers: ["extension", "plugin", "mcp"].map(marker) };
}

beforeAll(() => {
  if (!HAS_TMUX) return;
  if (!existsSync(PI_BIN)) throw new Error(`${PI_BIN} is missing; run "npm run build" first`);
  tmux("new-session", "-d", "-s", "keeper", "sleep 3600");
});
afterEach(() => {
  for (const name of started.splice(0)) {
    try {
      tmux("kill-session", "-t", name);
    } catch {
      // already gone
    }
  }
});
afterAll(() => {
  if (!HAS_TMUX) return;
  try {
    tmux("kill-server");
  } catch {
    // already gone
  }
});

describe.skipIf(!HAS_TMUX)("the interactive mode asks once before the session starts", () => {
  it('"n": nothing runs, the screen names what was skipped, trust.json saves false', async () => {
    const world = makeWorld();
    const pane = startPi(world.home, world.cwd);
    await waitFor(pane, "Trust it?");
    tmux("send-keys", "-t", pane, "-l", "n");
    tmux("send-keys", "-t", pane, "Enter");
    await waitFor(pane, "skipped project resources in");
    await waitFor(pane, "ctrl+c twice exit");
    tmux("send-keys", "-t", pane, "-l", "hello");
    tmux("send-keys", "-t", pane, "Enter");
    await waitFor(pane, "FAUX-ANSWER");
    expect(world.markers.filter(existsSync)).toEqual([]);
    expect(JSON.parse(readFileSync(join(world.agent, "trust.json"), "utf8"))).toEqual({ [world.cwd]: false });
  }, 60_000);

  it('"y": everything loads, trust.json saves true', async () => {
    const world = makeWorld();
    const pane = startPi(world.home, world.cwd);
    await waitFor(pane, "Trust it?");
    tmux("send-keys", "-t", pane, "-l", "y");
    tmux("send-keys", "-t", pane, "Enter");
    await waitFor(pane, "ctrl+c twice exit");
    tmux("send-keys", "-t", pane, "-l", "hello");
    tmux("send-keys", "-t", pane, "Enter");
    await waitFor(pane, "FAUX-ANSWER");
    const deadline = Date.now() + 20_000;
    while (world.markers.some((m) => !existsSync(m)) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(world.markers.filter((m) => !existsSync(m))).toEqual([]);
    expect(JSON.parse(readFileSync(join(world.agent, "trust.json"), "utf8"))).toEqual({ [world.cwd]: true });
  }, 60_000);
});
