/**
 * The terminal UI's view: everything the interactive mode shows, and all the state behind it (transcript,
 * editor, history, pickers), behind a contract. The interactive mode (the "shell") owns the terminal — raw
 * mode, key decoding, resize, frame timing, bytes — and holds no UI state: it hands every key and every
 * session event to the view and asks it for each frame. Each of those is one call through a stable handle,
 * so the kernel can swap the view between two frames while the session stays open.
 */
import { defineContract } from "../kernel/index.js";
import type { SessionEvent } from "./agent-session.js";

/**
 * One decoded key press (or a paste). `name` is a key name as pi's keybindings.md spells them ("a",
 * "enter", "escape", "up", "backspace", "tab", "-", ...), or "text" for typed printable characters (in
 * `text`, possibly several at once) or "paste" for a bracketed paste (in `text`).
 */
export interface TuiKey {
  name: string;
  text?: string;
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
  /** For `name: "mouse"`: a mouse report (fullscreen mode turns SGR mouse reporting on). */
  mouse?: TuiMouse;
}

/**
 * One SGR mouse report: what happened, where (0-based screen cell), and the button (0 left, 1 middle,
 * 2 right). Wheel events come as "wheelUp"/"wheelDown" with the pointer's position.
 */
export interface TuiMouse {
  action: "press" | "drag" | "release" | "wheelUp" | "wheelDown" | "move";
  button: number;
  row: number;
  col: number;
}

/**
 * How the interactive mode uses the terminal, as pi 1.6.0's `tuiMode` setting and `--tui-mode` flag name
 * it: "fullscreen" (the alternate screen, the transcript scrolling inside it) or "regular" (the normal
 * screen, the transcript going into the terminal's scrollback).
 */
export type TuiMode = "fullscreen" | "regular";

/** Fullscreen options (pi's `fullscreen*` settings) the view applies. */
export interface TuiFullscreenOptions {
  /** `fullscreenScrollbar`: "auto" shows it while the transcript is scrolled away from its end. */
  scrollbar: "auto" | "always" | "hidden";
  /** `fullscreenCopyOnSelect`: a mouse selection is copied when the button is released. */
  copyOnSelect: boolean;
  /** `fullscreenWheelScrollLines`: lines per wheel event, or "auto". */
  wheelScrollLines: "auto" | number;
}

/**
 * A frame: the whole document (transcript and live area), one entry per terminal row, and the cursor. In
 * fullscreen mode the document is the screen: at most `height` rows, the transcript's visible part in a
 * viewport above the live area. After `stop`, a view renders the whole document again (what fullscreen
 * mode leaves on the normal screen when it exits).
 */
export interface TuiFrame {
  /** Rows of at most the render width in terminal cells; SGR colour codes only, no cursor movement. */
  lines: string[];
  /** Where the terminal cursor goes (row is an index into `lines`); null hides it. */
  cursor: { row: number; col: number } | null;
  /** The terminal's window title, when the view wants one. */
  title?: string;
  /** Control sequences the shell writes before the frame, once (OSC 52 for a clipboard copy). */
  terminalOutput?: string;
  /** 1.5.0: what the program is doing, for terminals that show it (pi's program status, OSC 7501). */
  programStatus?: TuiProgramStatus;
}

/**
 * pi's program status: `working` (a run or compaction), `blocked` (a dialog waits for the user; `kind`
 * says why, `message` is its title), `done` / `error` (how the last run ended), `idle`. The shell reports
 * it to a terminal that answers the protocol's query (or with `PI_PROGRAM_STATUS=1`).
 */
export interface TuiProgramStatus {
  state: "idle" | "working" | "blocked" | "done" | "error";
  kind?: "question" | "permission" | "auth";
  message?: string;
}

/** What a key did that the shell must act on. */
export interface KeyOutcome {
  /** The user asked to leave (Ctrl+C twice, Ctrl+D on an empty editor, /quit). */
  exit?: boolean;
  /** pi's `app.suspend`: give the terminal back, stop the process (SIGTSTP), and redraw in full on SIGCONT. */
  suspend?: boolean;
  /**
   * pi's `app.editor.external`: the shell leaves the TUI, edits `content` in `$VISUAL`/`$EDITOR`, and hands the
   * result back as a key named `EXTERNAL_EDITOR_KEY` (`text` the new content) or `EXTERNAL_EDITOR_FAILED_KEY`
   * (`text` a one-line reason, the editor text unchanged).
   */
  externalEditor?: { content: string };
}

/** Key name of an external editor's result (see `KeyOutcome.externalEditor`). */
export const EXTERNAL_EDITOR_KEY = "external-editor";
/** Key name the shell sends when it cannot suspend (`text` a one-line reason). */
export const SUSPEND_FAILED_KEY = "suspend-failed";
/** Key name of an external editor that failed (see `KeyOutcome.externalEditor`). */
export const EXTERNAL_EDITOR_FAILED_KEY = "external-editor-failed";

/** A colour the terminal reported, 0-255 a channel. */
export interface TuiRgb {
  r: number;
  g: number;
  b: number;
}

/**
 * The terminal's default colours as it reported them to OSC 10 / OSC 11 at start-up (pi 1.6.0 asks the
 * same); a terminal that did not answer leaves them out.
 */
export interface TuiTerminalColors {
  foreground?: TuiRgb;
  background?: TuiRgb;
  /** 1.4: ANSI colours 0-15 as reported to OSC 4, present only when all 16 arrived (the `system` theme takes its hues from them). */
  palette?: TuiRgb[];
  /** 1.6: the terminal's last light/dark report (mode 2031); counts only while no background was reported. */
  scheme?: "dark" | "light";
}

/** What the shell tells the view when a run of the interactive mode starts. */
export interface TuiStart {
  /** The folder the agent works in, for the footer and @file completion. */
  cwd: string;
  width: number;
  height: number;
  /** Messages from the command line (`pi "fix it"`), sent as the first prompts. */
  initialMessages: string[];
  /** The terminal mode of this run; absent means "regular" (an older shell). */
  tuiMode?: TuiMode;
  /** Fullscreen options, with `tuiMode: "fullscreen"`. */
  fullscreen?: TuiFullscreenOptions;
  /** 1.3: the colours the terminal reported (the `system` theme picks dark or light by the background). */
  terminalColors?: TuiTerminalColors;
}

/**
 * The view. Calls are short and, once the view's code is loaded, synchronous; a view may answer its first
 * calls with a promise while it loads its code (so a run that never shows a UI never loads it). Async
 * work (a prompt) runs on and reports through session events. The shell makes one call at a time.
 */
export interface TuiView {
  /** A run of the interactive mode begins: read the open session's transcript if the view has none. */
  start(info: TuiStart): void | Promise<void>;
  handleKey(key: TuiKey): KeyOutcome | Promise<KeyOutcome>;
  handleEvent(event: SessionEvent): void | Promise<void>;
  render(width: number, height: number): TuiFrame | Promise<TuiFrame>;
  resize(width: number, height: number): void | Promise<void>;
  /** The run ends: the view stops answering dialogs (they take their defaults). */
  stop(): void | Promise<void>;
  /**
   * 1.6: the terminal switched between light and dark while running (a mode 2031 report) and its colours
   * were asked again: what it answered now (a colour it did not answer again keeps its earlier value).
   */
  terminalColorsChanged(colors: TuiTerminalColors): void | Promise<void>;
}

/**
 * Bus event the view emits when its state changed outside a key or event call (a picker's list loaded,
 * a command finished), so the shell draws a frame. Payload: none.
 */
export const TUI_REDRAW_EVENT = "tui:redraw";

/**
 * Bus event the view emits for `/reload`: a request to the host to reload plugins (payload
 * `{ pluginIds?: string[] }`, all file-based plugins when absent). Plugins cannot reach the kernel; a host
 * that wants `/reload` to work listens for this.
 */
export const HOST_RELOAD_REQUEST_EVENT = "host:reload-request";

/**
 * One view; it swaps between frames (nothing it runs outlives a call), so the gate deadline is short.
 * 1.3.0: `TuiStart.terminalColors`. 1.4.0: `TuiTerminalColors.palette`. 1.5.0: `TuiFrame.programStatus`.
 * 1.6.0: `terminalColorsChanged` and the reported scheme.
 */
export const TuiViewContract = defineContract<TuiView>({
  id: "tui/view",
  version: "1.6.0",
  kind: "single",
  gate: "boundary",
  deadlineMs: 250,
  shape: {
    start: "function",
    handleKey: "function",
    handleEvent: "function",
    render: "function",
    resize: "function",
    stop: "function",
  },
  methods: {
    start: "async",
    handleKey: "async",
    handleEvent: "async",
    render: "async",
    resize: "async",
    stop: "async",
    terminalColorsChanged: "async",
  },
});

/**
 * Keyboard shortcuts other plugins add to the terminal view (pi extensions' `registerShortcut`). The
 * view asks, for a key none of its own bindings takes, whether a provider has it: key ids as pi's
 * keybindings.md spells them, modifiers in the order ctrl, shift, alt ("ctrl+shift+p", "alt+x", "f5").
 */
export interface TuiShortcuts {
  /** The key ids this provider handles now. */
  keys(): string[];
  /** Runs the shortcut's handler; failures are the provider's to report. */
  run(keyId: string): Promise<void>;
}

/** Any number of providers; the first (in distribution order) that has a key runs it. */
export const TuiShortcutsContract = defineContract<TuiShortcuts>({
  id: "tui/shortcuts",
  version: "1.0.0",
  kind: "many",
  gate: "overlap",
  shape: { keys: "function", run: "function" },
  methods: { keys: "sync", run: "async" },
});
