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
  start(options: {
    cwd: string;
    env: Record<string, string>;
    args?: string[];
    width?: number;
    height?: number;
    /** What `waitFor` polls by default: the whole history (default) or the visible screen. */
    watch?: "history" | "screen";
  }): Pane {
    const name = `pi${Math.random().toString(36).slice(2, 8)}`;
    const pane = new Pane(this, name, options.width ?? 80, options.height ?? 24, options.watch ?? "history");
    const env = Object.entries({ TERM: "xterm-256color", ...options.env })
      .map(([key, value]) => `${key}=${shellQuote(value)}`)
      .join(" ");
    const args = (options.args ?? []).map(shellQuote).join(" ");
    // After pi ends the pane's shell prints its exit code and the terminal's line discipline: a pi that left
    // raw mode on shows "-icanon -echo" there.
    const command = `cd ${shellQuote(options.cwd)} && env ${env} ${shellQuote(process.execPath)} ${shellQuote(PI_BIN)} ${args}; echo "[pi exited $?]"; echo "[tty $(stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' ')]"; sleep 600`;
    this.run("new-session", "-d", "-s", pane.name, "-x", String(pane.width), "-y", String(pane.height), command);
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
    public width: number,
    public height: number,
    private readonly watch: "history" | "screen" = "history",
  ) {}

  /** The visible screen. */
  capture(): string {
    return this.server.run("capture-pane", "-p", "-t", this.name);
  }

  /** The visible screen with its colours (SGR sequences as tmux keeps them). */
  captureColors(): string {
    return this.server.run("capture-pane", "-p", "-e", "-t", this.name);
  }

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

  /** Resizes the pane's window. */
  resize(width: number, height: number): void {
    this.server.run("resize-window", "-t", this.name, "-x", String(width), "-y", String(height));
    this.width = width;
    this.height = height;
  }

  /** `alternate_on` and `cursor_flag` of the pane: "0 1" is a normal screen with the cursor shown. */
  terminalModes(): string {
    return this.server.run("display-message", "-p", "-t", this.name, "#{alternate_on} #{cursor_flag}").trim();
  }

  /** `mouse_any_flag` and `mouse_sgr_flag` of the pane: "1 1" while SGR mouse reporting is on. */
  mouseModes(): string {
    return this.server.run("display-message", "-p", "-t", this.name, "#{mouse_any_flag} #{mouse_sgr_flag}").trim();
  }

  /** The line discipline after pi ended ("icanon echo" is cooked mode), or undefined while pi runs. */
  ttyAfterExit(): string | undefined {
    return /\[tty ([^\]]*)\]/.exec(this.captureAll())?.[1]?.trim();
  }

  /** pi's exit code once "[pi exited N]" shows, else undefined. */
  exitCode(): number | undefined {
    const match = /\[pi exited (\d+)\]/.exec(this.captureAll());
    return match ? Number(match[1]) : undefined;
  }

  /**
   * Polls until `predicate` holds — over the whole history (`all: true`) or the visible screen (`all: false`;
   * the default follows the pane's `watch`) — and fails with what it saw after `timeoutMs`.
   */
  async waitFor(
    predicate: string | RegExp | ((screen: string) => boolean),
    options: { timeoutMs?: number; all?: boolean } = {},
  ): Promise<string> {
    const test =
      typeof predicate === "string"
        ? (s: string) => s.includes(predicate)
        : predicate instanceof RegExp
          ? (s: string) => predicate.test(s)
          : predicate;
    const deadline = Date.now() + (options.timeoutMs ?? 15_000);
    for (;;) {
      const all = options.all ?? this.watch === "history";
      const screen = all ? this.captureAll() : this.capture();
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
