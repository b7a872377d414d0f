/**
 * One run of the interactive mode: owns the terminal while it lasts — raw mode, bracketed paste, key
 * decoding, resize, frame timing and the renderer — and keeps no UI state. Every key, session event and
 * frame is one call to the view through its handle, made one at a time in arrival order, so the kernel can
 * swap the view between any two of them.
 *
 * In fullscreen mode the run takes the alternate screen (with mouse reporting) and gives it back on every
 * way out: a normal exit, a stop signal, and a process that ends first (an uncaught error, `process.exit`)
 * through an exit hook; the terminal is left on its normal screen with the cursor shown and, as pi does,
 * the transcript printed there so it stays in the scrollback.
 */
import { StringDecoder } from "node:string_decoder";
import type { SessionEvent } from "pi-host";
import { EXTERNAL_EDITOR_FAILED_KEY, EXTERNAL_EDITOR_KEY, SUSPEND_FAILED_KEY } from "pi-host";
import type { ModeInput, ModeIO } from "pi-host";
import type { TuiFullscreenOptions, TuiMode, TuiTerminalColors, TuiView } from "pi-host";
import type { Handle } from "pi-host";
import { cellWidth, truncateToWidth } from "./ansi.js";
import { FrameScheduler } from "./frame-scheduler.js";
import { KeyDecoder } from "./keys.js";
import { ProgramStatusReporter } from "./program-status.js";
import { DiffRenderer, LEAVE_ALTERNATE } from "./renderer.js";
import { ColorSchemeWatch } from "./color-scheme-watch.js";
import { SCHEME_REPORTS_OFF, SCHEME_REPORTS_ON, stripLateReplies } from "./terminal-colors.js";
import { TERMINAL_COLOR_QUERY, TERMINAL_COLOR_WAIT_MS, TerminalColorReplies } from "./terminal-colors.js";

/** How long an unfinished escape sequence may wait for its remaining bytes. */
const ESCAPE_WAIT_MS = 30;
const BRACKETED_PASTE_ON = "\x1b[?2004h";
const BRACKETED_PASTE_OFF = "\x1b[?2004l";

/** What the shell needs besides the streams. */
export interface ShellOptions {
  view: Handle<TuiView>;
  cwd: string;
  /** Frame coalescing interval while streaming. */
  frameIntervalMs?: number;
  /** The terminal mode; default "regular" (the normal screen). */
  tuiMode?: TuiMode;
  /** Fullscreen options handed to the view. */
  fullscreen?: TuiFullscreenOptions;
  /** pi's `fullscreenExitOutput`: what is left on the normal screen when fullscreen mode exits. */
  exitOutput?: "transcript" | "resume-hint";
  /** pi's `externalEditor` setting, read at each Ctrl+G; undefined falls back to `$VISUAL`/`$EDITOR`. */
  externalEditor?: () => Promise<string | undefined>;
  /** How long start-up waits for the terminal's colour replies (default pi's 100 ms). */
  colorQueryMs?: number;
}

/** pi's fullscreen defaults. */
export const DEFAULT_FULLSCREEN: TuiFullscreenOptions = {
  scrollbar: "auto",
  copyOnSelect: true,
  wheelScrollLines: "auto",
};

type TtyIn = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
type TtyOut = NodeJS.WritableStream & {
  columns?: number;
  rows?: number;
  on(event: "resize", listener: () => void): unknown;
  off?(event: string, listener: (...args: any[]) => void): unknown;
};

/** A running interactive session on a pair of terminal streams. */
export class InteractiveShell {
  private readonly decoder = new KeyDecoder();
  /** Keeps a UTF-8 character split between two reads whole. */
  private readonly utf8 = new StringDecoder("utf8");
  private readonly renderer: DiffRenderer;
  private readonly frames: FrameScheduler;
  /** pi's program status (OSC 7501) for terminals that show it. */
  private readonly status: ProgramStatusReporter;
  /** Every call to the view goes through this chain, so keys, events and frames keep their order. */
  private chain: Promise<unknown> = Promise.resolve();
  private escapeTimer: NodeJS.Timeout | undefined = undefined;
  private finished = false;
  private finish!: (code: number) => void;
  /** An external `kill -TSTP`: restores the terminal first, as Ctrl+Z does (listened to while the run owns it). */
  private readonly onStopSignal = (): void => {
    this.enqueue(() => (this.finished ? undefined : this.suspend()));
  };
  private listeningForStop = false;
  /** While start-up asks the terminal for its colours: the replies, and the keys typed meanwhile. */
  private colorReplies: { replies: TerminalColorReplies; typed: string; settle(): void } | undefined = undefined;
  /** Light/dark switches while running: the colours asked again and handed to the view. */
  private readonly schemeWatch = new ColorSchemeWatch(
    (sequence) => this.io.stdout.write(sequence),
    (colors) => {
      this.enqueue(() => this.options.view.api.terminalColorsChanged(colors));
      this.frames.request();
    },
  );
  readonly errors: string[] = [];

  constructor(
    private readonly input: ModeInput,
    private readonly io: ModeIO,
    private readonly options: ShellOptions,
  ) {
    this.renderer = new DiffRenderer(
      (bytes) => this.io.stdout.write(bytes),
      options.tuiMode === "fullscreen" ? "alternate" : "normal",
    );
    this.frames = new FrameScheduler(() => this.drawFrame(), options.frameIntervalMs ?? 16);
    this.status = new ProgramStatusReporter((bytes) => this.io.stdout.write(bytes));
  }

  /** Bytes and frames written so far. */
  get stats(): DiffRenderer["stats"] {
    return this.renderer.stats;
  }

  /** Runs until the user leaves or the host stops the mode; resolves with the exit code. */
  async run(): Promise<number> {
    const stdin = this.io.stdin as TtyIn;
    const stdout = this.io.stdout as TtyOut;
    const done = new Promise<number>((resolve) => (this.finish = resolve));
    const onData = (chunk: Buffer | string): void =>
      this.onInput(typeof chunk === "string" ? chunk : this.utf8.write(chunk));
    const onResize = (): void => {
      const { width, height } = this.size();
      this.enqueue(() => this.options.view.api.resize(width, height));
      this.frames.drawNow();
    };
    if (stdin.isTTY === true) stdin.setRawMode?.(true);
    stdin.on("data", onData);
    stdin.resume();
    stdout.on("resize", onResize);
    void this.io.stopped.then(() => this.stop(0));

    const { width, height } = this.size();
    const fullscreen = this.options.tuiMode === "fullscreen";
    // Should the process end before the run does, the terminal still gets its normal screen back.
    const onExit = (): void => {
      this.io.stdout.write(`${LEAVE_ALTERNATE}${BRACKETED_PASTE_OFF}${SCHEME_REPORTS_OFF}`);
      if (stdin.isTTY === true) stdin.setRawMode?.(false);
    };
    if (fullscreen) process.once("exit", onExit);
    this.io.stdout.write(BRACKETED_PASTE_ON);
    this.renderer.begin(width, height);
    this.listenForStop(true);
    const { colors, typed } = await this.queryColors(stdin.isTTY === true);
    this.enqueue(() =>
      this.options.view.api.start({
        cwd: this.options.cwd,
        width,
        height,
        initialMessages: this.input.messages,
        tuiMode: fullscreen ? "fullscreen" : "regular",
        ...(fullscreen ? { fullscreen: this.options.fullscreen ?? DEFAULT_FULLSCREEN } : {}),
        terminalColors: colors,
      }),
    );
    this.frames.drawNow();
    if (stdin.isTTY === true) this.io.stdout.write(SCHEME_REPORTS_ON);
    if (typed !== "") this.onInput(typed);

    const code = await done;
    await this.frames.stop();
    this.enqueue(() => this.options.view.api.stop());
    let exitDocument: string[] = [];
    // A stopped view renders the whole document: what fullscreen mode leaves on the normal screen.
    if (fullscreen && this.options.exitOutput !== "resume-hint") {
      this.enqueue(async () => {
        const { width: w, height: h } = this.size();
        exitDocument = (await this.options.view.api.render(w, h)).lines;
      });
    }
    await this.chain;
    this.listenForStop(false);
    clearTimeout(this.escapeTimer);
    stdin.off("data", onData);
    stdout.off?.("resize", onResize);
    this.status.clear();
    this.schemeWatch.stop();
    if (stdin.isTTY === true) this.io.stdout.write(SCHEME_REPORTS_OFF);
    this.renderer.end();
    if (fullscreen) {
      process.off("exit", onExit);
      this.io.stdout.write(exitTranscript(exitDocument, this.size().width));
    }
    this.io.stdout.write(BRACKETED_PASTE_OFF);
    if (stdin.isTTY === true) stdin.setRawMode?.(false);
    stdin.pause();
    for (const error of this.errors) this.io.stderr.write(`pi: ${error}\n`);
    return code;
  }

  /** A session event: the view updates its transcript; a frame follows within the coalescing interval. */
  onSessionEvent(event: SessionEvent): void {
    if (this.finished) return;
    this.enqueue(() => this.options.view.api.handleEvent(event));
    this.frames.request();
  }

  /** The view (or a swap of it) changed what it shows: draw soon. */
  redraw(): void {
    if (!this.finished) this.frames.request();
  }

  /**
   * A plugin was swapped: a new view generation learns the terminal's size (it lays out fullscreen keys
   * by it) before the next frame.
   */
  swapped(): void {
    if (this.finished) return;
    const { width, height } = this.size();
    this.enqueue(() => this.options.view.api.resize(width, height));
    this.frames.request();
  }

  /** Ends the run with `code`. */
  stop(code: number): void {
    if (this.finished) return;
    this.finished = true;
    this.finish(code);
  }

  private size(): { width: number; height: number } {
    const stdout = this.io.stdout as TtyOut;
    return { width: Math.max(10, stdout.columns ?? 80), height: Math.max(4, stdout.rows ?? 24) };
  }

  /**
   * Asks a terminal for its default colours and waits for the DA1 reply that ends its answers, at most
   * `colorQueryMs`. Keys typed meanwhile are kept for after the view has started. Not a terminal: no query.
   */
  private async queryColors(tty: boolean): Promise<{ colors: TuiTerminalColors; typed: string }> {
    if (!tty) return { colors: {}, typed: "" };
    const replies = new TerminalColorReplies();
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((settle) => {
      this.colorReplies = { replies, typed: "", settle };
      timer = setTimeout(settle, this.options.colorQueryMs ?? TERMINAL_COLOR_WAIT_MS);
      this.io.stdout.write(this.status.query() + TERMINAL_COLOR_QUERY);
    });
    clearTimeout(timer);
    const typed = this.colorReplies!.typed + replies.flush();
    this.colorReplies = undefined;
    return { colors: replies.colors, typed };
  }

  private onInput(input: string): void {
    if (this.finished) return;
    const raw = this.status.takeReplies(input);
    const asking = this.colorReplies;
    if (asking !== undefined) {
      asking.typed += asking.replies.feed(raw);
      if (asking.replies.done) asking.settle();
      return;
    }
    const chunk = stripLateReplies(this.schemeWatch.feed(raw));
    if (chunk === "") return;
    clearTimeout(this.escapeTimer);
    const keys = this.decoder.feed(chunk);
    if (this.decoder.hasPending) {
      this.escapeTimer = setTimeout(() => this.deliver(this.decoder.flushPending()), ESCAPE_WAIT_MS);
    }
    this.deliver(keys);
  }

  private deliver(keys: ReturnType<KeyDecoder["feed"]>): void {
    if (keys.length === 0) return;
    for (const key of keys) {
      this.enqueue(async () => {
        if (this.finished) return;
        const outcome = await this.options.view.api.handleKey(key);
        if (outcome?.exit) this.stop(0);
        else if (outcome?.suspend) await this.suspend();
        else if (outcome?.externalEditor) await this.externalEdit(outcome.externalEditor.content);
      });
    }
    // A keystroke is drawn at once, after every key of this chunk.
    void this.chain.then(() => this.frames.drawNow());
  }

  /** Gives the terminal back for a while (cooked mode, the normal screen, input not read). */
  private releaseTerminal(): void {
    const stdin = this.io.stdin as TtyIn;
    this.schemeWatch.stop();
    this.renderer.end();
    this.io.stdout.write(`${BRACKETED_PASTE_OFF}${stdin.isTTY === true ? SCHEME_REPORTS_OFF : ""}`);
    if (stdin.isTTY === true) stdin.setRawMode?.(false);
    stdin.pause();
    // Last: a stop signal during the restore is still caught; from here on its default action stops pi.
    this.listenForStop(false);
  }

  /** Takes the terminal again after `releaseTerminal` and draws the whole frame afresh. */
  private retakeTerminal(): void {
    const stdin = this.io.stdin as TtyIn;
    if (stdin.isTTY === true) stdin.setRawMode?.(true);
    stdin.resume();
    this.io.stdout.write(`${BRACKETED_PASTE_ON}${stdin.isTTY === true ? SCHEME_REPORTS_ON : ""}`);
    const { width, height } = this.size();
    this.renderer.begin(width, height);
    this.listenForStop(true);
    void this.chain.then(() => this.frames.drawNow());
  }

  /**
   * SIGTSTP is caught only while the run owns the terminal: a child that has it (the external editor) or a
   * released terminal lets the signal stop the process as usual. Only real changes touch the listener, so
   * no gap opens where a stop would catch the TUI drawn.
   */
  private listenForStop(listen: boolean): void {
    if (process.platform === "win32" || listen === this.listeningForStop) return;
    this.listeningForStop = listen;
    if (listen) process.on("SIGTSTP", this.onStopSignal);
    else process.off("SIGTSTP", this.onStopSignal);
  }

  /**
   * pi's Ctrl+Z (and an external SIGTSTP): the terminal restored, the process stopped; on SIGCONT the TUI
   * comes back in full.
   */
  private async suspend(): Promise<void> {
    const { canSuspend } = await import("./job-control.js");
    if (!canSuspend()) {
      const text = "Cannot suspend: pi was not started by a shell with job control";
      const key = { name: SUSPEND_FAILED_KEY, text, ctrl: false, alt: false, shift: false };
      this.enqueue(async () => {
        if (!this.finished) await this.options.view.api.handleKey(key);
      });
      return;
    }
    return new Promise((resolve) => {
      // Keeps the event loop alive while stopped, so the process is still there to resume.
      const keepAlive = setInterval(() => {}, 2 ** 30);
      const ignoreSigint = (): void => {};
      process.on("SIGINT", ignoreSigint);
      process.once("SIGCONT", () => {
        clearInterval(keepAlive);
        process.off("SIGINT", ignoreSigint);
        if (!this.finished) this.retakeTerminal();
        resolve();
      });
      this.releaseTerminal();
      process.kill(process.pid, "SIGTSTP");
    });
  }

  /** pi's Ctrl+G: the prompt edited in `$VISUAL`/`$EDITOR`, the result handed to the view as a key. */
  private async externalEdit(content: string): Promise<void> {
    const { editExternally, editorCommand } = await import("./external-editor.js");
    const configured = await this.options.externalEditor?.().catch(() => undefined);
    const command = configured ?? editorCommand();
    this.releaseTerminal();
    this.io.stdout.write(`Launching external editor: ${command}\r\nPi will resume when the editor exits.\r\n`);
    let result: Awaited<ReturnType<typeof editExternally>>;
    try {
      result = await editExternally(content, command);
    } catch (error) {
      result = { ok: false, message: `External editor failed: ${(error as Error).message}` };
    } finally {
      if (!this.finished) this.retakeTerminal();
    }
    const key = result.ok
      ? { name: EXTERNAL_EDITOR_KEY, text: result.content, ctrl: false, alt: false, shift: false }
      : { name: EXTERNAL_EDITOR_FAILED_KEY, text: result.message, ctrl: false, alt: false, shift: false };
    this.enqueue(async () => {
      if (!this.finished) await this.options.view.api.handleKey(key);
    });
    void this.chain.then(() => this.frames.drawNow());
  }

  private async drawFrame(): Promise<void> {
    await this.enqueue(async () => {
      if (this.finished) return;
      const { width, height } = this.size();
      const frame = await this.options.view.api.render(width, height);
      if (!this.finished && frame.terminalOutput) this.io.stdout.write(frame.terminalOutput);
      if (!this.finished) this.renderer.render(frame, width, height);
      if (!this.finished) this.status.report(frame.programStatus);
    });
  }

  /** Runs `step` after every earlier step; a failing step is recorded, never breaks the chain. */
  private enqueue(step: () => unknown): Promise<void> {
    const next = this.chain.then(step).then(
      () => undefined,
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        if (this.errors.length < 20) this.errors.push(`the terminal view failed: ${message}`);
      },
    );
    this.chain = next;
    return next;
  }
}

/** The document printed on the normal screen after fullscreen mode: rows cut to the width, colours reset. */
export function exitTranscript(lines: string[], width: number): string {
  let out = "";
  for (const line of lines) {
    const fitted = cellWidth(line) > width ? truncateToWidth(line, width) : line;
    out += `${fitted}\x1b[0m\r\n`;
  }
  return out;
}
