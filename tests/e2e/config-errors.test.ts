/**
 * Broken user config files and the exit-code policy, through the built CLI: a corrupt settings.json,
 * auth.json as a folder, a wrong-typed settings key and a bad models.json are each one line naming the
 * file (and the key or field), and exit code 2 in every mode — print, json, rpc, and interactive in tmux.
 * Also: `pi -r` on a terminal picks a session from a list and resumes it (tmux), and print mode running an
 * extension `/command` that makes no model turn exits 0. Terminal tests skip, saying why, without tmux.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { agentHome, type AgentHome } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";

const HELLO_COMMAND = fileURLToPath(new URL("../fixtures/pi-extensions/hello-command.ts", import.meta.url));

/** A models.json whose one model has a text context window: the field the error must name. */
const BAD_MODELS = JSON.stringify({
  providers: {
    local: {
      baseUrl: "http://127.0.0.1:9",
      api: "openai-completions",
      apiKey: "none",
      models: [{ id: "m1", contextWindow: "big" }],
    },
  },
});
const BAD_MODELS_LINE = /models\.json: providers\.local\.models\[0\]\.contextWindow: expected integer, got "big"/;

let user: AgentHome;
beforeEach(() => {
  user = agentHome();
});

/** How often `needle` occurs in `text`. */
function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

describe("broken config files through the built CLI", { timeout: 60_000 }, () => {
  it("a corrupt settings.json is reported once, naming the file, exit 2", async () => {
    writeFileSync(join(user.agent, "settings.json"), "{ not json");
    const run = await user.pi(["-p", "hi"]);
    expect(run.code).toBe(2);
    expect(count(run.stderr, `${join(user.agent, "settings.json")}: not valid JSON`)).toBe(1);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("auth.json that is a folder names the path, exit 2", async () => {
    mkdirSync(join(user.agent, "auth.json"));
    const run = await user.pi(["-p", "--model", "anthropic/claude-sonnet-4-5", "hi"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${join(user.agent, "auth.json")}: is a folder`);
  });

  it("a wrong-typed defaultProvider names the file, the key and both types, exit 2", async () => {
    writeFileSync(
      join(user.agent, "settings.json"),
      JSON.stringify({ defaultProvider: 5, defaultModel: "claude-sonnet-4-5" }),
    );
    const run = await user.pi(["-p", "hi"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `${join(user.agent, "settings.json")}: "defaultProvider" must be a string, got a number (5)`,
    );
  });

  /** Every non-terminal mode, each with the same bad models.json (interactive start is the tmux test below). */
  const BAD_MODELS_MODES: Array<[mode: string, args: string[], input?: string]> = [
    ["print", ["-p", "--model", "local/m1", "hi"]],
    ["json", ["--mode", "json", "--model", "local/m1", "hi"]],
    [
      "rpc",
      ["--mode", "rpc", "--model", "local/m1"],
      `${JSON.stringify({ id: "1", type: "prompt", message: "hi" })}\n`,
    ],
    ["--list-models", ["--list-models"]],
  ];
  for (const [mode, args, input] of BAD_MODELS_MODES) {
    it(`a bad models.json exits 2 in ${mode}, its line naming file, provider and field on stderr`, async () => {
      writeFileSync(join(user.agent, "models.json"), BAD_MODELS);
      const run = await user.pi(args, input === undefined ? undefined : { input });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(join(user.agent, "models.json"));
      expect(run.stderr).toMatch(BAD_MODELS_LINE);
      // Nothing started: no session header, no rpc response, no list.
      expect(run.stdout).toBe("");
      expect(user.sessionFiles()).toEqual([]);
    });
  }

  /** Other bad input: the exit code and the one line that says what to do. */
  const BAD_INPUT: Array<[what: string, args: string[], code: number, line: string | RegExp]> = [
    [
      "an unknown provider names the closest ones",
      ["-p", "--model", "xaii/grok-4", "hi"],
      1,
      'unknown provider "xaii": did you mean xai, zai?',
    ],
    [
      "a missing key names the variable and pi auth login",
      ["-p", "--model", "xai/grok-4", "hi"],
      1,
      /^no API key for "xai": set XAI_API_KEY, run "pi auth login xai", add /,
    ],
    [
      "--provider without --model is refused as pi 1.6 words it",
      ["-p", "--provider", "anthropic", "hi"],
      2,
      /--provider requires --model \(for example: --provider anthropic --model <pattern>\)/,
    ],
  ];
  for (const [what, args, code, line] of BAD_INPUT) {
    it(`${what}: exit ${code}, one line`, async () => {
      const run = await user.pi(args);
      expect(run.code).toBe(code);
      expect(run.stdout).toBe("");
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      if (typeof line === "string") expect(run.stderr).toContain(line);
      else expect(run.stderr.trim()).toMatch(line);
    });
  }

  it("with no default model, the bad models.json line is the one shown, not 'no model selected'", async () => {
    writeFileSync(join(user.agent, "models.json"), BAD_MODELS);
    const run = await user.pi(["-p", "hi"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(join(user.agent, "models.json"));
    expect(run.stderr).toMatch(BAD_MODELS_LINE);
    expect(run.stderr).not.toContain("no model selected");
  });

  it("print mode running an extension /command that makes no model turn exits 0", async () => {
    user.scriptFaux([{ content: "unused" }]);
    const run = await user.pi(["-p", "--model", "faux/faux-1", "-e", HELLO_COMMAND, "/hello e2e"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  });

  it("print mode runs an extension /command with no model configured at all, exit 0; a plain message still needs a model", async () => {
    const command = await user.pi(["-p", "-e", HELLO_COMMAND, "/hello e2e"]);
    expect(command.stderr).toBe("");
    expect(command.code).toBe(0);
    const message = await user.pi(["-p", "-e", HELLO_COMMAND, "hello"]);
    expect(message.code).toBe(1);
    expect(message.stderr).toContain("no model selected");
  });

  it("print mode still fails when a model turn started and gave no answer", async () => {
    // An empty script: the faux provider has nothing to say, so the turn ends in an error.
    user.scriptFaux([]);
    const run = await user.pi(["-p", "--model", "faux/faux-1", "hi"]);
    expect(run.code).toBe(1);
  });
});

// ── a real terminal (tmux) ─────────────────────────────────────────────────────────────────────────

const SOCKET = `pi-config-e2e-${process.pid}`;
const HAS_TMUX = (() => {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
if (!HAS_TMUX) console.log("skipping the interactive config-error and pi -r tests: tmux is not installed");

function tmux(...args: string[]): string {
  return execFileSync("tmux", ["-L", SOCKET, "-f", "/dev/null", ...args], { encoding: "utf8" });
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Starts the built pi in a detached pane of its own; the pane stays after pi exits and shows the exit code. */
function startPane(home: AgentHome, args: string[]): string {
  const name = `pi${Math.random().toString(36).slice(2, 8)}`;
  const env = Object.entries({ ...home.env, TERM: "xterm-256color" })
    .map(([key, value]) => `${key}=${shellQuote(value)}`)
    .join(" ");
  const command = `cd ${shellQuote(home.project)} && env ${env} ${shellQuote(process.execPath)} ${shellQuote(PI_BIN)} ${args.map(shellQuote).join(" ")}; echo "[pi exited $?]"; sleep 600`;
  tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "30", command);
  return name;
}

/** Polls the pane's screen until it shows `text`; fails with the screen after a generous wait. */
async function waitForScreen(pane: string, text: string | RegExp, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const screen = tmux("capture-pane", "-p", "-S", "-", "-E", "-", "-t", pane);
    if (typeof text === "string" ? screen.includes(text) : text.test(screen)) return screen;
    if (Date.now() > deadline) throw new Error(`the screen never showed ${String(text)}; it shows:\n${screen}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!HAS_TMUX)("on a terminal (tmux, built CLI)", { timeout: 90_000 }, () => {
  beforeAll(() => {
    // An idle session keeps this file's tmux server up between tests.
    tmux("new-session", "-d", "-s", "keeper", "sleep 3600");
  });
  afterAll(() => {
    try {
      tmux("kill-server");
    } catch {
      // already gone
    }
  });

  it("interactive mode exits 2 on the same bad models.json, with its line", async () => {
    writeFileSync(join(user.agent, "models.json"), BAD_MODELS);
    const pane = startPane(user, ["--model", "local/m1"]);
    const screen = await waitForScreen(pane, /\[pi exited \d+\]/);
    expect(screen).toContain("[pi exited 2]");
    expect(screen.replace(/\n/g, "")).toMatch(BAD_MODELS_LINE);
  });

  it("pi -r lists this folder's sessions and resumes the chosen one in the interactive UI", async () => {
    user.scriptFaux([{ content: "answer one" }, { content: "answer two" }]);
    expect((await user.pi(["-p", "--model", "faux/faux-1", "older question"])).code).toBe(0);
    expect((await user.pi(["-p", "--model", "faux/faux-1", "newer question"])).code).toBe(0);
    const before = user.sessionFiles();
    expect(before).toHaveLength(2);

    const pane = startPane(user, ["-r", "--model", "faux/faux-1"]);
    const list = await waitForScreen(pane, "Resume a session");
    // Newest first: the newer session is selected, the older one below it.
    expect(list.indexOf("newer question")).toBeGreaterThan(-1);
    expect(list.indexOf("older question")).toBeGreaterThan(list.indexOf("newer question"));
    expect(list).not.toContain("no plugin provides");

    tmux("send-keys", "-t", pane, "Down", "Enter");
    // The older session's transcript is shown: its question and its answer.
    const resumed = await waitForScreen(pane, "answer one");
    expect(resumed).toContain("older question");
    tmux("send-keys", "-t", pane, "C-c", "C-c");
    expect(await waitForScreen(pane, /\[pi exited \d+\]/)).toContain("[pi exited 0]");
    // Resuming opened an existing session; no new file was written.
    expect(user.sessionFiles()).toEqual(before);
  });
});
