/**
 * The interactive mode in-process: the real session stack (see agent-session/harness.ts) plus the tui and
 * mode-interactive plugins, running on fake terminal streams that feed a VirtualTerminal. Tests type into
 * stdin and wait for the screen to show something — waiting on the terminal's writes, never on a clock.
 */
import { PassThrough, Writable } from "node:stream";
import { ModeContract } from "../../../contracts/mode.js";
import modeInteractive from "../../../plugins/modes/mode-interactive/index.js";
import tui from "../../../plugins/ui/tui/index.js";
import { hostPluginsEntry } from "../../support/host-plugins.js";
import { bootSession, type SessionHarness } from "../agent-session/harness.js";
import { VirtualTerminal } from "../mode-interactive/virtual-terminal.js";

export interface TuiHarness extends SessionHarness {
  vt: VirtualTerminal;
  /** Sends raw bytes as typed keys. */
  type(bytes: string): void;
  /** Resolves when `predicate(screen text)` holds after some write; rejects after `timeoutMs` with the screen. */
  waitFor(predicate: string | RegExp | ((screen: string) => boolean), timeoutMs?: number): Promise<string>;
  resize(width: number, height: number): void;
  /** Screen rows joined by newlines. */
  screen(): string;
  /** Every byte written to the terminal so far (control sequences included). */
  written(): string;
  stop(): Promise<number>;
  exited: Promise<number>;
}

export async function bootTui(
  options: Parameters<typeof bootSession>[0] & {
    width?: number;
    height?: number;
    /** The terminal mode; "regular" (the normal screen and its scrollback), which these tests were written for. */
    tuiMode?: "fullscreen" | "regular";
  } = {},
): Promise<TuiHarness> {
  const host = hostPluginsEntry();
  const h = await bootSession({
    ...options,
    extra: [...(options.extra ?? []), tui],
    entries: [
      host.entry,
      {
        id: modeInteractive.id,
        source: { kind: "inline", label: modeInteractive.id, definition: modeInteractive },
        config: { tuiMode: options.tuiMode ?? "regular" },
      },
      ...(options.entries ?? []),
    ],
  });
  host.table.attach(h.kernel);
  const vt = new VirtualTerminal(options.width ?? 80, options.height ?? 24);
  const waiters = new Set<() => void>();
  let written = "";
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      written += chunk.toString("utf8");
      vt.write(chunk.toString("utf8"));
      for (const check of [...waiters]) check();
      callback();
    },
  }) as Writable & { columns: number; rows: number };
  stdout.columns = vt.width;
  stdout.rows = vt.height;
  const stdin = new PassThrough();
  const stderr = new PassThrough();
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const mode = h.kernel
    .useAll(ModeContract)
    .list()
    .find((m) => m.peek()?.name === "interactive");
  if (mode === undefined) throw new Error("no interactive mode");
  const exited = mode.call("run", { messages: [], images: [] }, { stdin, stdout, stderr, stopped });
  const screen = (): string => vt.lines().join("\n");

  const waitFor: TuiHarness["waitFor"] = (predicate, timeoutMs = 10_000) => {
    const test =
      typeof predicate === "string"
        ? (s: string) => s.includes(predicate)
        : predicate instanceof RegExp
          ? (s: string) => predicate.test(s)
          : predicate;
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (!test(screen())) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(screen());
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`screen never showed ${String(predicate)}; it shows:\n${screen()}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  };

  return {
    ...h,
    vt,
    type: (bytes) => stdin.write(bytes),
    waitFor,
    resize(width, height) {
      vt.resize(width, height);
      stdout.columns = width;
      stdout.rows = height;
      stdout.emit("resize");
    },
    screen,
    written: () => written,
    async stop() {
      stop();
      return exited;
    },
    exited,
  };
}
