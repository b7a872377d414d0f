/**
 * `/plugins` in the built CLI on a real terminal (tmux): the TUI lists the plugin table the host serves
 * as `host/plugins`, so the running distribution shows with generations and contracts, and an entry the
 * user switched off shows as not serving.
 */
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentHome } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";

const SOCKET = `pi-plugins-e2e-${process.pid}`;
const HAS_TMUX = (() => {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
if (!HAS_TMUX) console.log("skipping the /plugins terminal test: tmux is not installed");

function tmux(...args: string[]): string {
  return execFileSync("tmux", ["-L", SOCKET, "-f", "/dev/null", ...args], { encoding: "utf8" });
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Polls the pane's screen until it shows `text`; fails with the screen after a generous wait. */
async function waitForScreen(pane: string, text: string | RegExp, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const screen = tmux("capture-pane", "-p", "-t", pane);
    if (typeof text === "string" ? screen.includes(text) : text.test(screen)) return screen;
    if (Date.now() > deadline) throw new Error(`the screen never showed ${String(text)}; it shows:\n${screen}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!HAS_TMUX)("/plugins on a terminal (tmux, built CLI)", { timeout: 60_000 }, () => {
  beforeAll(() => {
    tmux("new-session", "-d", "-s", "keeper", "sleep 3600");
  });
  afterAll(() => {
    try {
      tmux("kill-server");
    } catch {
      // already gone
    }
  });

  it("lists the served plugins with generation and contracts, and a switched-off one as not serving", async () => {
    const user = agentHome();
    user.scriptFaux([{ content: "ok" }]);
    const env = Object.entries({ ...user.env, TERM: "xterm-256color" })
      .map(([key, value]) => `${key}=${shellQuote(value)}`)
      .join(" ");
    const args = ["--model", "faux/faux-1", "--no-plugin", "tool-ls"];
    const command = `cd ${shellQuote(user.project)} && env ${env} ${shellQuote(process.execPath)} ${shellQuote(PI_BIN)} ${args.map(shellQuote).join(" ")}; echo "[pi exited $?]"; sleep 600`;
    tmux("new-session", "-d", "-s", "plugins", "-x", "120", "-y", "60", command);
    await waitForScreen("plugins", "faux-1");
    tmux("send-keys", "-t", "plugins", "-l", "/plugins");
    tmux("send-keys", "-t", "plugins", "Enter");
    const screen = await waitForScreen("plugins", "Not serving:");
    expect(screen).toContain("Plugins serving this session:");
    expect(screen).toMatch(/tui\s+gen 1\s+tui\/view/);
    expect(screen).toMatch(/session-jsonl\s+gen 1\s+session\/store/);
    expect(screen).toMatch(/tool-read\s+gen 1\s+tool/);
    expect(screen).toMatch(/tool-ls\s+disabled/);
    expect(screen).not.toContain("host-environment");
    tmux("send-keys", "-t", "plugins", "C-c", "C-c");
    expect(await waitForScreen("plugins", /\[pi exited \d+\]/)).toContain("[pi exited 0]");
  });
});
