/**
 * The set-up every tmux end-to-end file of the TUI shares, once: a local OpenAI-compatible server, one
 * tmux server for the file, a fresh user per test whose models.json points provider "mock" at the server,
 * and the panes killed after each test. A file calls `tuiSuite(...)` at its top and reads the live parts
 * through the returned object, so each test file holds only its own steps.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { type AgentHome, agentHome, completionsText } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";
import { HAS_TMUX, TmuxServer } from "./tmux-pane.js";

/** One model of the mock provider, as models.json writes it. */
export interface MockModel {
  id: string;
  reasoning?: boolean;
}

/** What a TUI test file reads: live for the current test once its hooks have run. */
export interface TuiSuite {
  readonly server: MockLlmServer;
  readonly tmux: TmuxServer;
  readonly user: AgentHome;
  /** Whether tmux is here (the file's describe skips without it). */
  readonly hasTmux: boolean;
  /** Starts pi with `--model mock/<first model>` in the user's project, no display (so no clipboard). */
  start(options?: { env?: Record<string, string>; width?: number; height?: number }): TuiPane;
}

/**
 * Registers the file's hooks and returns its live parts. `what` names the tests for the skip line
 * printed when tmux is absent; `models` are the mock provider's models (the first is the one started with).
 */
export function tuiSuite(what: string, models: MockModel[] = [{ id: "mock-1" }]): TuiSuite {
  if (!HAS_TMUX) console.warn(`[skip] tmux is not on PATH: skipping ${what}`);
  let server: MockLlmServer | undefined;
  let tmux: TmuxServer | undefined;
  let user: AgentHome | undefined;

  beforeAll(async () => {
    if (!existsSync(PI_BIN)) throw new Error(`${PI_BIN} is missing; run "npm run build" first`);
    server = await new MockLlmServer().start();
    if (HAS_TMUX) tmux = new TmuxServer();
  });
  afterAll(async () => {
    tmux?.close();
    await server?.close();
  });
  beforeEach(() => {
    server!.requests.length = 0;
    server!.clearScript();
    user = agentHome();
    writeMockModels(user, `${server!.url}/v1`, models);
  });
  afterEach(() => tmux?.killPanes());

  return {
    get server() {
      return server!;
    },
    get tmux() {
      return tmux!;
    },
    get user() {
      return user!;
    },
    hasTmux: HAS_TMUX,
    start(options = {}) {
      return tmux!.start({
        cwd: user!.project,
        env: { ...user!.env, DISPLAY: "", WAYLAND_DISPLAY: "", ...options.env },
        args: ["--model", `mock/${models[0]!.id}`],
        width: options.width,
        height: options.height,
      });
    },
  };
}

/** The user's models.json: provider "mock" (Chat Completions) at `baseUrl` with `models`. */
function writeMockModels(user: AgentHome, baseUrl: string, models: MockModel[]): void {
  const entries = models.map((model) => ({ ...model, contextWindow: 128000, maxTokens: 4096 }));
  writeFileSync(
    join(user.agent, "models.json"),
    JSON.stringify({
      providers: { mock: { baseUrl, api: "openai-completions", apiKey: "MOCK_KEY", models: entries } },
    }),
  );
}

/** A pane pi runs in. */
export type TuiPane = ReturnType<TmuxServer["start"]>;

/** Types `prompt`, queues `answer` as the model's reply, and waits until it is shown and the run has ended. */
export async function askAndWait(suite: TuiSuite, pane: TuiPane, prompt: string, answer: string): Promise<void> {
  suite.server.enqueue({ sse: completionsText(answer) });
  pane.type(prompt);
  pane.keys("Enter");
  await pane.waitFor((screen) => screen.includes(answer) && !screen.includes("Working…"));
}

/** Types a line into the editor and submits it. */
export function command(pane: TuiPane, line: string): void {
  pane.type(line);
  pane.keys("Enter");
}
