/**
 * pi's `!command` and `!!command` in the built CLI's terminal UI, in tmux, against a local
 * OpenAI-compatible server that records each request: `!` puts the run in the next request, `!!` only
 * shows it.
 */
import { existsSync } from "node:fs";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, completionsText, type AgentHome } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";
import { HAS_TMUX, TmuxServer } from "./tmux-pane.js";

if (!HAS_TMUX) console.warn("[skip] tmux is not on PATH: skipping the TUI !command end-to-end tests");

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
  user = agentHome();
  user.useMockServer(`${server.url}/v1`);
});
afterEach(() => tmux?.killPanes());

/** The text of every user message of a recorded Chat Completions body. */
function userTexts(body: any): string[] {
  return (body.messages as any[])
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : m.content.map((p: any) => p.text ?? "").join("")));
}

describe.skipIf(!HAS_TMUX)("TUI !command in tmux (built CLI)", { timeout: 60_000 }, () => {
  it("!echo hi shows hi and the next request carries the run", async () => {
    server.enqueue({ sse: completionsText("I saw the run.") });
    const pane = tmux!.start({ cwd: user.project, env: user.env, args: ["--model", "mock/mock-1"] });
    await pane.waitFor("mock-1");
    pane.type("!echo hi");
    pane.keys("Enter");
    await pane.waitFor((s) => s.includes("$ echo hi") && /^\s*hi\s*$/m.test(s));
    pane.type("what was printed?");
    pane.keys("Enter");
    await pane.waitFor("I saw the run.");
    expect(server.requests).toHaveLength(1);
    expect(userTexts(server.requests[0]!.body)).toEqual(["Ran `echo hi`\n```\nhi\n\n```", "what was printed?"]);
  });

  it("!!echo hi shows hi and the next request does not carry it", async () => {
    server.enqueue({ sse: completionsText("Nothing to see.") });
    const pane = tmux!.start({ cwd: user.project, env: user.env, args: ["--model", "mock/mock-1"] });
    await pane.waitFor("mock-1");
    pane.type("!!echo hi");
    pane.keys("Enter");
    await pane.waitFor((s) => s.includes("$ echo hi (not sent to the model)") && /^\s*hi\s*$/m.test(s));
    pane.type("anything?");
    pane.keys("Enter");
    await pane.waitFor("Nothing to see.");
    expect(server.requests).toHaveLength(1);
    expect(userTexts(server.requests[0]!.body)).toEqual(["anything?"]);
  });
});
