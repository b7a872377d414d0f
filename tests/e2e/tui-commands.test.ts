/**
 * pi 1.6.0's `/thinking`, `/clone` and `/copy` in the built CLI's terminal UI, in tmux, against a local
 * OpenAI-compatible server that records each request.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, completionsText, type AgentHome } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";
import { HAS_TMUX, TmuxServer } from "./tmux-pane.js";

if (!HAS_TMUX) console.warn("[skip] tmux is not on PATH: skipping the TUI slash command end-to-end tests");

let server: MockLlmServer;
let tmux: TmuxServer | undefined;
let user: AgentHome;

beforeAll(async () => {
  if (!existsSync(PI_BIN)) throw new Error(`${PI_BIN} is missing; run "npm run build" first`);
  server = await new MockLlmServer().start();
  if (HAS_TMUX) tmux = new TmuxServer();
});
afterAll(async () => {
  tmux?.close();
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  server.clearScript();
  user = agentHome();
  // One reasoning model, so a thinking level reaches the request as reasoning_effort.
  writeFileSync(
    join(user.agent, "models.json"),
    JSON.stringify({
      providers: {
        mock: {
          baseUrl: `${server.url}/v1`,
          api: "openai-completions",
          apiKey: "MOCK_KEY",
          models: [{ id: "think-1", reasoning: true, contextWindow: 128000, maxTokens: 4096 }],
        },
      },
    }),
  );
});
afterEach(() => tmux?.killPanes());

/** Waits until the answer is on screen and the run around it has ended (the working line is gone). */
const answered = (pane: ReturnType<typeof start>, text: string) =>
  pane.waitFor((screen) => screen.includes(text) && !screen.includes("Working…"));

const start = () =>
  tmux!.start({
    cwd: user.project,
    env: { ...user.env, DISPLAY: "", WAYLAND_DISPLAY: "" },
    args: ["--model", "mock/think-1"],
  });

describe.skipIf(!HAS_TMUX)("TUI slash commands in tmux (built CLI)", { timeout: 60_000 }, () => {
  it("/thinking high sets the level the next request carries; /thinking alone picks from the levels", async () => {
    server.enqueue({ sse: completionsText("first") }, { sse: completionsText("second") });
    const pane = start();
    await pane.waitFor("think-1");
    pane.type("/thinking high");
    pane.keys("Enter");
    await pane.waitFor("Thinking level: high");
    pane.type("one");
    pane.keys("Enter");
    await pane.waitFor("first");
    expect((server.requests[0]!.body as { reasoning_effort?: string }).reasoning_effort).toBe("high");
    pane.type("/thinking");
    pane.keys("Enter");
    await pane.waitFor("Thinking level");
    pane.type("minimal");
    pane.keys("Enter");
    await pane.waitFor("think-1 • minimal");
    pane.type("two");
    pane.keys("Enter");
    await pane.waitFor("second");
    expect((server.requests[1]!.body as { reasoning_effort?: string }).reasoning_effort).toBe("minimal");
  });

  it("/clone copies the session into a new file and carries on there", async () => {
    server.enqueue({ sse: completionsText("the first answer") }, { sse: completionsText("after the clone") });
    const pane = start();
    await pane.waitFor("think-1");
    pane.type("remember this");
    pane.keys("Enter");
    await answered(pane, "the first answer");
    pane.type("/clone");
    pane.keys("Enter");
    await pane.waitFor("Cloned into a new session");
    pane.type("and now?");
    pane.keys("Enter");
    await pane.waitFor("after the clone");
    const files = user.sessionFiles();
    expect(files).toHaveLength(2);
    const clone = readFileSync(files[1]!, "utf8");
    expect(clone).toContain("remember this");
    expect(clone).toContain("and now?");
    expect(readFileSync(files[0]!, "utf8")).not.toContain("and now?");
  });

  it("/copy puts the last answer on the terminal's clipboard (OSC 52 without a display)", async () => {
    tmux!.run("set-option", "-s", "set-clipboard", "on");
    server.enqueue({ sse: completionsText("copy me, please") });
    const pane = start();
    await pane.waitFor("think-1");
    pane.type("say it");
    pane.keys("Enter");
    await answered(pane, "copy me, please");
    pane.type("/copy");
    pane.keys("Enter");
    await pane.waitFor("Copied the last assistant message");
    expect(tmux!.run("show-buffer")).toBe("copy me, please");
  });

  it("/copy before any answer says there is nothing to copy", async () => {
    const pane = start();
    await pane.waitFor("think-1");
    pane.type("/copy");
    pane.keys("Enter");
    await pane.waitFor("Nothing to copy");
  });
});
