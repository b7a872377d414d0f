/**
 * Leaving the interactive TUI mid-answer acts at once (built CLI in tmux): a double Ctrl+C or `/quit`
 * while a provider is still streaming ends the process while the stream is still going — the local model
 * server paces its events over many seconds and counts the streams it finished, so a pi that waited for
 * the answer's end fails here without any clock in the assertion. The terminal is left as found (normal
 * screen, cursor shown, cooked mode) and the session file stays whole with the partial answer saved as an
 * aborted assistant message, as pi 1.6.0 writes it.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, completionsText, sessionLines, type AgentHome } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";
import { HAS_TMUX, TmuxServer, type Pane } from "./tmux-pane.js";

if (!HAS_TMUX) console.log("tui-quit tests skipped: tmux is not installed");

let tmux: TmuxServer | undefined;
let server: MockLlmServer | undefined;

beforeAll(() => {
  if (!existsSync(PI_BIN)) throw new Error(`${PI_BIN} is missing; run "npm run build" first`);
  if (HAS_TMUX) tmux = new TmuxServer();
});
afterAll(() => tmux?.close());
afterEach(async () => {
  tmux?.killPanes();
  await server?.close();
  server = undefined;
});

/** A user whose model streams a long answer, one event every 150 ms (tens of seconds in all). */
async function slowUser(): Promise<AgentHome> {
  server = await new MockLlmServer().start();
  server.enqueue({ sse: completionsText(`Partial answer ${"that goes on and on ".repeat(20)}`), intervalMs: 150 });
  const user = agentHome();
  user.useMockServer(server.url);
  writeFileSync(join(user.agent, "settings.json"), JSON.stringify({ defaultProvider: "mock", defaultModel: "mock-1" }));
  return user;
}

/** The session file is whole JSONL and ends with the aborted partial answer. */
function expectAbortedPartialAnswer(user: AgentHome): void {
  const files = user.sessionFiles();
  expect(files).toHaveLength(1);
  const entries = sessionLines(files[0]!);
  const messages = entries.filter((e) => e.type === "message").map((e) => e.message);
  expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  const answer = messages[1]!;
  expect(answer.stopReason).toBe("aborted");
  expect(JSON.stringify(answer.content)).toContain("Partial an");
  expect(JSON.stringify(answer.content)).not.toContain("on and on on and on ".repeat(19));
}

/** pi ended with 0 and left the terminal as it found it. */
async function expectCleanExit(pane: Pane): Promise<void> {
  await pane.waitFor(/\[tty [^\]]*\]/);
  expect(pane.exitCode()).toBe(0);
  expect(pane.terminalModes()).toBe("0 1");
  const tty = pane.ttyAfterExit()!.split(" ");
  expect(tty).toContain("icanon");
  expect(tty).toContain("echo");
}

describe.skipIf(!HAS_TMUX)("leaving the TUI mid-answer (built CLI in tmux)", { timeout: 90_000 }, () => {
  it("a double Ctrl+C while the scripted faux provider streams slowly exits at once too", async () => {
    const user = agentHome();
    user.scriptFaux([{ content: `Partial answer ${"streaming slowly ".repeat(200)}` }]);
    writeFileSync(
      join(user.agent, "settings.json"),
      JSON.stringify({ defaultProvider: "faux", defaultModel: "faux-1" }),
    );
    const plugins = JSON.parse(readFileSync(join(user.agent, "plugins.json"), "utf8")).plugins;
    writeFileSync(
      join(user.agent, "plugins.json"),
      JSON.stringify({
        plugins: plugins.map((p: Record<string, any>) =>
          p.id === "provider-faux" ? { ...p, config: { ...p.config, tokensPerSecond: 20 } } : p,
        ),
      }),
    );
    const pane = tmux!.start({ cwd: user.project, env: user.env, width: 100, height: 30 });
    await pane.waitFor("faux-1");
    pane.type("hello");
    pane.keys("Enter");
    await pane.waitFor("Partial an");
    pane.keys("C-c");
    pane.keys("C-c");
    // 200 × "streaming slowly " at 20 tokens a second takes minutes; the exit comes long before.
    await pane.waitFor("[pi exited");
    await expectCleanExit(pane);
    expectAbortedPartialAnswer(user);
  });

  for (const how of ["a double Ctrl+C", "/quit"] as const) {
    it(`${how} while the answer streams exits mid-stream, restores the terminal, and saves the partial answer`, async () => {
      const user = await slowUser();
      const pane = tmux!.start({ cwd: user.project, env: user.env, width: 100, height: 30 });
      await pane.waitFor("mock-1");
      pane.type("hello");
      pane.keys("Enter");
      await pane.waitFor("Partial an");
      if (how === "/quit") {
        pane.type("/quit");
        pane.keys("Enter");
      } else {
        pane.keys("C-c");
        pane.keys("C-c");
      }
      await pane.waitFor("[pi exited", { timeoutMs: 30_000 });
      // The server had not written its last event when pi was gone.
      expect(server!.streamsFinished).toBe(0);
      await expectCleanExit(pane);
      expectAbortedPartialAnswer(user);
    });
  }
});
