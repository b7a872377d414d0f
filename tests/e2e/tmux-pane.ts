/**
 * The built `pi` in a detached tmux pane of a fixed size, on its own tmux server socket: tests type with
 * `send-keys` and read the screen with `capture-pane`, synchronizing by polling the screen for expected
 * text with a timeout — never by sleeping.
 */
import { execFileSync } from "node:child_process";
import { PI_BIN } from "./run-pi.js";

/** Whether tmux is on PATH (the tests skip without it). */
export const HAS_TMUX = (() => {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

/** One tmux server: its panes, and an idle session that keeps it alive between tests. */
export class TmuxServer {
  private readonly socket = `pi-e2e-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  private panes: Pane[] = [];

  constructor() {
    // A server whose last session was just killed is still shutting down when the next one starts.
    this.run("new-session", "-d", "-s", "keeper", "sleep 3600");
  }

  /** Starts pi in `cwd` with `env`, in a pane `width` × `height`. */
  start(options: { cwd: string; env: Record<string, string>; args?: string[]; width?: number; height?: number }): Pane {
    const pane = new Pane(this, `pi${Math.random().toString(36).slice(2, 8)}`);
    const env = Object.entries({ TERM: "xterm-256color", ...options.env })
      .map(([key, value]) => `${key}=${shellQuote(value)}`)
      .join(" ");
    const args = (options.args ?? []).map(shellQuote).join(" ");
    const command = `cd ${shellQuote(options.cwd)} && env ${env} ${shellQuote(process.execPath)} ${shellQuote(PI_BIN)} ${args}; echo "[pi exited $?]"; sleep 600`;
    this.run(
      "new-session",
      "-d",
      "-s",
      pane.name,
      "-x",
      String(options.width ?? 80),
      "-y",
      String(options.height ?? 24),
      command,
    );
    this.panes.push(pane);
    return pane;
  }

  /** Kills every pane started since the last call. */
  killPanes(): void {
    for (const pane of this.panes) pane.kill();
    this.panes = [];
  }

  /** Stops the server. */
  close(): void {
    try {
      this.run("kill-server");
    } catch {
      // already gone
    }
  }

  /** Runs one tmux command against this server. */
  run(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  }
}

/** A pi running in a tmux pane. */
export class Pane {
  constructor(
    private readonly server: TmuxServer,
    readonly name: string,
  ) {}

  /** Scrollback and screen. */
  captureAll(): string {
    return this.server.run("capture-pane", "-p", "-S", "-", "-E", "-", "-t", this.name);
  }

  /** Named keys (Enter, Escape, C-c...). */
  keys(...keys: string[]): void {
    this.server.run("send-keys", "-t", this.name, ...keys);
  }

  /** Literal text. */
  type(text: string): void {
    this.server.run("send-keys", "-t", this.name, "-l", text);
  }

  /** Polls the whole history until `predicate` holds; fails with it after `timeoutMs`. */
  async waitFor(predicate: string | ((screen: string) => boolean), timeoutMs = 15_000): Promise<string> {
    const test = typeof predicate === "string" ? (s: string) => s.includes(predicate) : predicate;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.captureAll();
      if (test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`the screen never showed ${String(predicate)}; it shows:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  kill(): void {
    try {
      this.server.run("kill-session", "-t", this.name);
    } catch {
      // already gone
    }
  }
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
