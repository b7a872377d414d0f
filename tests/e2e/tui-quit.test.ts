/**
 * Leaving the interactive TUI mid-answer acts at once (built CLI in tmux): a double Ctrl+C or `/quit`
 * while a provider is still streaming ends the process promptly, leaves the terminal as it found it
 * (alternate screen off, cursor shown), and the session file stays whole with the partial answer saved as
 * an aborted assistant message, as pi does. The mock server streams a few words and then holds the
 * stream open, so only an abort that reaches the provider's request can end the turn.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, completionsText, sessionLines, type AgentHome } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";

const SOCKET = `pi-tui-quit-${process.pid}`;
const HAS_TMUX = (() => {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
if (!HAS_TMUX) console.log("tui-quit tests skipped: tmux is not installed");

function tmux(...args: string[]): string {
  return execFileSync("tmux", ["-L", SOCKET, "-f", "/dev/null", ...args], { encoding: "utf8" });
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** A pi in a tmux pane; the pane's shell prints "[pi exited N]" when pi ends. */
class Pane {
  constructor(readonly name: string) {}

  static start(user: AgentHome, args: string[]): Pane {
    const pane = new Pane(`q${Math.random().toString(36).slice(2, 8)}`);
    const env = Object.entries({ ...user.env, TERM: "xterm-256color" })
      .map(([k, v]) => `${k}=${quote(v)}`)
      .join(" ");
    const command = `cd ${quote(user.project)} && env ${env} ${quote(process.execPath)} ${quote(PI_BIN)} ${args.map(quote).join(" ")}; echo "[pi exited $?]"; sleep 600`;
    tmux("new-session", "-d", "-s", pane.name, "-x", "100", "-y", "30", command);
    return pane;
  }

  capture(): string {
    return tmux("capture-pane", "-p", "-t", this.name);
  }

  keys(...keys: string[]): void {
    tmux("send-keys", "-t", this.name, ...keys);
  }

  type(text: string): void {
    tmux("send-keys", "-t", this.name, "-l", text);
  }

  /** `alternate_on` and `cursor_flag` of the pane: "0 1" is a normal screen with the cursor shown. */
  terminalModes(): string {
    return tmux("display-message", "-p", "-t", this.name, "#{alternate_on} #{cursor_flag}").trim();
  }

  async waitFor(test: (screen: string) => boolean, timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.capture();
      if (test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`the screen never showed what was expected; it shows:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Milliseconds from now until "[pi exited N]" shows, or undefined past `limitMs`; and N. */
  async timeToExit(limitMs: number): Promise<{ ms: number | undefined; code: string | undefined }> {
    const started = Date.now();
    while (Date.now() - started < limitMs) {
      const match = /\[pi exited (\d+)\]/.exec(this.capture());
      if (match) return { ms: Date.now() - started, code: match[1] };
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { ms: undefined, code: undefined };
  }

  kill(): void {
    try {
      tmux("kill-session", "-t", this.name);
    } catch {
      // already gone
    }
  }
}

// The bound a user feels is 0.5 s; the test allows for a loaded shared machine and tmux polling, and is still
// far below the old behaviour (the process stayed until the held-open answer ended, i.e. never).
const EXIT_BOUND_MS = 3_000;

let server: MockLlmServer;
let panes: Pane[] = [];

beforeAll(() => {
  if (!existsSync(PI_BIN)) throw new Error(`${PI_BIN} is missing; run "npm run build" first`);
  if (HAS_TMUX) tmux("new-session", "-d", "-s", "keeper", "sleep 3600");
});
afterAll(() => {
  if (!HAS_TMUX) return;
  try {
    tmux("kill-server");
  } catch {
    // already gone
  }
});
afterEach(async () => {
  for (const pane of panes) pane.kill();
  panes = [];
  await server?.close();
});

/** A user whose model streams "Partial answer" and then holds the stream open. */
async function slowUser(): Promise<AgentHome> {
  server = await new MockLlmServer().start();
  server.enqueue({ sse: completionsText("Partial answer that never finishes"), stallAfter: 4 });
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
}

describe.skipIf(!HAS_TMUX)("leaving the TUI mid-answer (built CLI in tmux)", { timeout: 90_000 }, () => {
  it("a double Ctrl+C while the scripted faux provider streams slowly exits at once too", async () => {
    const user = agentHome();
    user.scriptFaux([{ content: `Partial answer ${"streaming slowly ".repeat(200)}` }]);
    writeFileSync(
      join(user.agent, "settings.json"),
      JSON.stringify({ defaultProvider: "faux", defaultModel: "faux-1" }),
    );
    writeFileSync(
      join(user.agent, "plugins.json"),
      JSON.stringify({
        plugins: [
          ...JSON.parse(readFileSync(join(user.agent, "plugins.json"), "utf8")).plugins.map((p: Record<string, any>) =>
            p.id === "provider-faux" ? { ...p, config: { ...p.config, tokensPerSecond: 20 } } : p,
          ),
        ],
      }),
    );
    const pane = Pane.start(user, []);
    panes.push(pane);
    await pane.waitFor((s) => s.includes("faux-1"));
    pane.type("hello");
    pane.keys("Enter");
    await pane.waitFor((s) => s.includes("Partial an"));
    pane.keys("C-c");
    pane.keys("C-c");
    const exit = await pane.timeToExit(EXIT_BOUND_MS);
    console.log(`faux: pi exited ${exit.ms} ms after the quit (screen polling included)`);
    expect(exit.ms, "pi was still running after the quit").toBeDefined();
    expect(exit.code).toBe("0");
    expect(pane.terminalModes()).toBe("0 1");
    expectAbortedPartialAnswer(user);
  });

  for (const how of ["a double Ctrl+C", "/quit"] as const) {
    it(`${how} while the answer streams exits at once, restores the terminal, and saves the partial answer`, async () => {
      const user = await slowUser();
      const pane = Pane.start(user, []);
      panes.push(pane);
      await pane.waitFor((s) => s.includes("mock-1"));
      pane.type("hello");
      pane.keys("Enter");
      await pane.waitFor((s) => s.includes("Partial an"));
      if (how === "/quit") {
        pane.type("/quit");
        pane.keys("Enter");
      } else {
        pane.keys("C-c");
        pane.keys("C-c");
      }
      const exit = await pane.timeToExit(EXIT_BOUND_MS);
      console.log(`${how}: pi exited ${exit.ms} ms after the quit (screen polling included)`);
      expect(exit.ms, "pi was still running after the quit").toBeDefined();
      expect(exit.code).toBe("0");
      expect(pane.terminalModes()).toBe("0 1");
      expectAbortedPartialAnswer(user);
    });
  }
});
