/**
 * The terminal view: turns keys and session events into view state, and view state into the rows of a
 * frame (the transcript, then the live area: status, queued messages, picker or editor, completions,
 * footer). It drives the agent only through the `agent/session` contract (and the session store for
 * listings and labels), so another front end can do the same. All it remembers lives in the plugin's
 * kernel state; the caches here are rebuilt by a new generation.
 */
import type { SessionEvent, SessionState, SessionStats } from "pi-host";
import type { KeyOutcome, TuiFrame, TuiKey, TuiStart, TuiTerminalColors, TuiView } from "pi-host";
import { join } from "node:path";
import { parseCommand } from "./commands.js";
import type { ExtraCommand } from "./complete.js";
import * as editor from "./editor.js";
import { renderEntry, type EntryStyle } from "./entries.js";
import { renderFooter } from "./footer.js";
import { imagesShown } from "./image-render.js";
import { composeFullscreen, type FullscreenLayout, fullscreenKey } from "./fullscreen.js";
import { copySelection } from "./fullscreen-copy.js";
import { isAction, KeybindingsFile } from "./keybindings.js";
import { renderPicker } from "./picker.js";
import { startupHeaderRows } from "./startup-header.js";
import type { ViewState } from "./state.js";
import { oneLine, truncate } from "./text.js";
import { DEFAULT_THEME, loadTheme, type Theme } from "./theme.js";
import { reportTerminalColors, takeTerminalColors } from "./theme-system.js";
import { applyEvent, notice } from "./transcript.js";
import { rebuildFromSession } from "./transcript-rebuild.js";
import { SearchCache } from "./transcript-search.js";
import { parseBang, runBang, type BangRun } from "./view-bash.js";
import { runCommand } from "./view-commands.js";
import { syncCall, type ViewActions, type ViewDeps } from "./view-deps.js";
import { appKey, ctrlC } from "./view-app-keys.js";
import { dialogKey, renderDialog } from "./view-dialog.js";
import { noteRunEnd, programStatus } from "./program-status.js";
import { StackedCompletion } from "./view-complete.js";
import { afterEdit, completionKey, editKey } from "./view-keys.js";
import { handleLabelKey, handlePickerKey } from "./view-pickers.js";
import { billingNotice, rebuildNotices } from "./cache-notices-live.js";
import { shortcutId } from "./shortcut-id.js";
import { ViewSurfaces } from "./surfaces.js";
import { completionRows, workingRows } from "./working.js";

/** Actions that open what a slash command opens. */
const SESSION_ACTIONS: Array<[string, string]> = [
  ["app.session.new", "new"],
  ["app.session.tree", "tree"],
  ["app.session.fork", "fork"],
  ["app.session.resume", "resume"],
];

/** The view behind the `tui/view` contract. */
export class TerminalView implements TuiView, ViewActions {
  private readonly entryRows = new Map<number, { rev: number; style: string; rows: string[] }>();
  private theme: Theme | undefined = undefined;
  private info: { state: SessionState | undefined; stats: SessionStats | undefined } = {
    state: undefined,
    stats: undefined,
  };
  private extra: ExtraCommand[] = [];
  private height = 24;
  private width = 80;
  /** This instance drew a frame (a new generation after a swap has not, until its first). */
  private rendered = false;
  /** Sequences for the terminal that the next frame carries (a clipboard copy's OSC 52). */
  private readonly terminalOutput: string[] = [];
  /** The user's `!` command while it runs. */
  private bang: BangRun | undefined = undefined;
  /** Fullscreen: where the last frame put the transcript, and the search's matches. */
  private layout: FullscreenLayout = { transcript: [], top: 0, rows: 1, width: 80, prompts: [] };
  private readonly search = new SearchCache();

  private readonly keybindings: KeybindingsFile;
  /** What other plugins draw: header, footer, editor, widgets, overlays, their messages and tools. */
  private readonly surfaces: ViewSurfaces;
  /** Completion through what other plugins stack over the view's own (pi's addAutocompleteProvider). */
  private readonly completion: StackedCompletion;

  constructor(readonly deps: ViewDeps) {
    this.keybindings = new KeybindingsFile(join(deps.agentDir, "keybindings.json"));
    // A new generation after a reload paints the system theme as the terminal's reported colours say.
    reportTerminalColors(syncCall(() => deps.state().terminalColors, undefined));
    this.surfaces = new ViewSurfaces(deps.surfaceProviders ?? (() => []));
    this.completion = new StackedCompletion(this.surfaces, this, () => this.extra);
  }

  // ── contract ────────────────────────────────────────────────────────────────────────────────

  start(info: TuiStart): void {
    const s = this.deps.state();
    // The session's folder is the one the agent works in; the shell's is the process's.
    s.cwd =
      syncCall(() => (this.deps.store.available ? this.deps.store.api.current()?.cwd : undefined), undefined) ??
      info.cwd;
    this.height = info.height;
    this.width = info.width;
    s.terminalColors = info.terminalColors ?? {};
    reportTerminalColors(s.terminalColors);
    // The mode is the run's; the scroll, search and selection of an earlier run do not carry over.
    s.fullscreen = {
      ...s.fullscreen,
      ...(info.fullscreen ?? {}),
      enabled: info.tuiMode === "fullscreen",
      scrollTop: null,
      search: null,
      selection: null,
    };
    const first = !s.started;
    s.started = true;
    s.running = true;
    if (first && s.entries.length === 0) this.rebuild(s);
    const startupNotices = [...this.keybindings.current().warnings];
    if (first && info.tuiMode === "fullscreen") startupNotices.unshift(...(this.deps.hostNotices?.() ?? []));
    this.refreshInfo();
    this.deps.save(s);
    // The session opens its file and picks its model on first use; ask it to, so the footer shows the model.
    // keybindings.json's warnings follow, so the transcript that the opened session rebuilds keeps them.
    this.background(
      "start",
      () => this.deps.session.api.availableModels(),
      () =>
        this.later((state) => {
          for (const warning of startupNotices) notice(state, warning, "warning");
        }),
    );
    void this.deps
      .settingsTheme(info.cwd)
      .then((name) => this.later((state) => name !== undefined && name !== state.theme && this.useTheme(state, name)));
    this.refreshExtra(info.cwd);
    if (first && info.initialMessages.length > 0) {
      const messages = [...info.initialMessages];
      this.background("prompt", async () => {
        for (const message of messages) await this.deps.session.api.prompt(message);
      });
    } else if (first) {
      // A durable run a crash interrupted goes on at once (docs/durable.md); a parked one says so.
      this.background("resume", () => this.deps.session.api.resumeInterrupted());
    }
  }

  handleEvent(event: SessionEvent): void {
    const s = this.deps.state();
    const outcome = applyEvent(s, event);
    noteRunEnd(s, event);
    if (outcome === "rebuild") this.rebuild(s);
    billingNotice(s, event, this.deps.store);
    if (
      event.type === "message_end" ||
      event.type === "agent_end" ||
      event.type === "model_change" ||
      event.type === "session_change" ||
      event.type === "compaction_end"
    ) {
      this.refreshInfo();
    }
    this.deps.save(s);
  }

  resize(width: number, height: number): void {
    this.width = width;
    this.height = height;
  }

  stop(): void {
    const s = this.deps.state();
    s.running = false;
    this.deps.save(s);
    this.deps.settleAllDialogs();
  }

  handleKey(key: TuiKey): KeyOutcome {
    const s = this.deps.state();
    // Fullscreen keys act on the last frame's layout: a new generation lays one out first.
    if (s.fullscreen.enabled && !this.rendered) this.render(this.width, this.height);
    const outcome = this.key(s, key);
    this.deps.save(s);
    return outcome;
  }

  render(width: number, height: number): TuiFrame {
    this.height = height;
    this.width = width;
    this.rendered = true;
    const s = this.deps.state();
    const theme = this.currentTheme(s);
    const style: EntryStyle = {
      ...{ width, theme, thinkingExpanded: s.thinkingExpanded, toolsExpanded: s.toolsExpanded },
      ...{ surfaces: this.surfaces, hiddenThinkingLabel: s.working.hiddenThinkingLabel },
    };
    const styleKey = `${width}|${s.renderersRev ?? 0}|${theme.key}|${s.thinkingExpanded}|${s.toolsExpanded}|${style.hiddenThinkingLabel}|${imagesShown()}`;
    const lines: string[] = this.surfaces.slot("header", width)?.rows ?? startupHeaderRows(width, theme);
    const alive = new Set<number>();
    const prompts: number[] = [];
    for (const entry of s.entries) {
      alive.add(entry.id);
      if (entry.kind === "user") prompts.push(lines.length);
      let cached = this.entryRows.get(entry.id);
      if (cached === undefined || cached.rev !== entry.rev || cached.style !== styleKey) {
        cached = { rev: entry.rev, style: styleKey, rows: renderEntry(entry, style) };
        this.entryRows.set(entry.id, cached);
      }
      for (const row of cached.rows) lines.push(row);
    }
    if (this.entryRows.size > alive.size)
      for (const id of this.entryRows.keys()) if (!alive.has(id)) this.entryRows.delete(id);

    const transcriptEnd = lines.length;
    lines.push("");
    if (s.busy || s.compacting) for (const row of workingRows(s, theme, width)) lines.push(row);
    for (const text of s.queue.steering) lines.push(theme.fg("muted", truncate(` Steering: ${oneLine(text)}`, width)));
    for (const text of s.queue.followUp) lines.push(theme.fg("muted", truncate(` Follow-up: ${oneLine(text)}`, width)));
    if (s.queue.steering.length + s.queue.followUp.length > 0)
      lines.push(theme.fg("muted", truncate(" ↳ alt+up to edit all queued messages", width)));
    if (s.hint !== "") lines.push(theme.fg("warning", truncate(` ${s.hint}`, width)));

    let cursor: TuiFrame["cursor"] = null;
    const widgets = (placement: "aboveEditor" | "belowEditor"): void => {
      for (const widget of Object.values(s.widgets)) {
        if (widget.placement === placement) for (const row of widget.lines) lines.push(truncate(` ${row}`, width));
      }
      for (const row of this.surfaces.slot(placement, width)?.rows ?? []) lines.push(row);
    };
    widgets("aboveEditor");
    const dialog = s.dialogs[0];
    const custom = dialog === undefined && s.picker === null ? this.surfaces.slot("editor", width) : undefined;
    if (custom !== undefined) {
      if (custom.cursor !== undefined) cursor = { row: lines.length + custom.cursor.row, col: custom.cursor.col };
      for (const row of custom.rows) lines.push(row);
    } else if (dialog !== undefined) {
      const rows = renderDialog(dialog, width, theme);
      if (rows.cursor !== undefined) cursor = { row: lines.length + rows.cursor.row, col: rows.cursor.col };
      for (const row of rows.lines) lines.push(row);
    } else if (s.picker !== null) {
      for (const row of renderPicker(s.picker, width, height, theme)) lines.push(row);
    } else {
      lines.push(theme.fg("borderMuted", "─".repeat(width)));
      const layout = editor.layoutEditor(s.editor, width);
      cursor = { row: lines.length + layout.cursorRow, col: layout.cursorCol };
      for (const row of layout.rows) lines.push(row);
      lines.push(theme.fg("borderMuted", "─".repeat(width)));
    }
    for (const row of dialog === undefined && s.picker === null ? completionRows(s, width, theme) : []) lines.push(row);
    widgets("belowEditor");
    const statuses = Object.values(s.statuses);
    if (statuses.length > 0) lines.push(theme.fg("muted", truncate(` ${statuses.join(" · ")}`, width)));
    // The session picks its model once it is ready; until then, ask again each frame.
    if (this.info.state?.model == null) this.refreshInfo();
    const footer = this.surfaces.slot("footer", width)?.rows;
    for (const row of footer ?? renderFooter(s.cwd, this.info.state, this.info.stats, width, theme)) lines.push(row);
    // Fullscreen while the run lasts; a stopped view renders the whole document (left on the normal screen).
    if (s.fullscreen.enabled && s.running) {
      const screen = composeFullscreen(
        { lines, transcriptEnd, cursor, prompts },
        width,
        height,
        s.fullscreen,
        this.search,
      );
      this.layout = screen.layout;
      this.surfaces.drawOverlays(screen.lines, width);
      return this.frame(s, screen.lines, screen.cursor);
    }
    if (s.running) this.surfaces.drawOverlaysOnTail(lines, width, height);
    return this.frame(s, lines, cursor);
  }

  private frame(s: ViewState, lines: string[], cursor: TuiFrame["cursor"]): TuiFrame {
    const frame: TuiFrame = s.title !== "" ? { lines, cursor, title: s.title } : { lines, cursor };
    frame.programStatus = programStatus(s, this.surfaces.blocked(), this.info.state?.sessionName);
    if (this.terminalOutput.length > 0) frame.terminalOutput = this.terminalOutput.splice(0).join("");
    return frame;
  }

  // ── keys ────────────────────────────────────────────────────────────────────────────────────

  private key(s: ViewState, key: TuiKey): KeyOutcome {
    const loaded = this.keybindings.current();
    for (const warning of loaded.warnings) notice(s, warning, "warning");
    const is = (action: string): boolean => isAction(loaded.bindings, action, key);
    // A custom screen or focused overlay of another plugin (or its terminal-input listener) comes first.
    if (key.name !== "mouse" && s.dialogs.length === 0 && s.picker === null && this.surfaces.input(key))
      return this.deps.takeKeyOutcome?.() ?? {};
    const isClear = is("app.clear");
    if (!isClear && s.hint !== "") s.hint = "";
    if (s.fullscreen.enabled && (key.name === "mouse" || (s.dialogs.length === 0 && s.picker === null))) {
      const outcome = fullscreenKey(s.fullscreen, key, is, {
        layout: this.layout,
        search: this.search,
        copy: (text) => copySelection(this, text),
        listFocused: s.completion !== null,
      });
      if (outcome !== undefined) return outcome;
    }
    if (key.name === "mouse") return {};
    if (s.dialogs.length > 0) {
      dialogKey(s.dialogs[0]!, key, (id, value) => this.deps.settleDialog(id, value), is);
      return {};
    }
    if (s.picker !== null) {
      if (s.picker.labelEdit !== undefined) return handleLabelKey(this, s, s.picker, key);
      handlePickerKey(this, s, s.picker, key, is);
      return {};
    }
    if (isClear) return ctrlC(s, (this.deps.now ?? Date.now)());
    if (is("app.exit") && s.editor.text === "") return { exit: true };
    if (is("app.interrupt")) {
      if (s.completion !== null) s.completion = null;
      else if (this.bang !== undefined) this.bang.abort.abort();
      else if (s.busy || s.compacting || s.statuses.branchSummary !== undefined)
        this.background("abort", () => this.deps.session.api.abort());
      return {};
    }
    const stack = this.completion.stack();
    const listed = stack === undefined ? undefined : this.completion.key(s, stack, is);
    if (listed !== undefined) return listed === "taken" ? {} : this.submit(s, "steer");
    if (stack === undefined && s.completion !== null && completionKey(s, this.extra, is)) return {};
    const backward = is("app.model.cycleBackward");
    if (backward || is("app.model.cycleForward")) {
      this.background("cycle model", () => this.deps.session.api.cycleModel(backward ? "backward" : "forward"));
      return {};
    }
    if (is("app.model.select")) return runCommand(this, s, "model", "");
    if (is("app.thinking.cycle")) {
      this.background("thinking level", () => this.deps.session.api.cycleThinkingLevel());
      return {};
    }
    if (is("app.thinking.toggle")) {
      s.thinkingExpanded = !s.thinkingExpanded;
      return {};
    }
    if (is("app.tools.expand")) {
      s.toolsExpanded = !s.toolsExpanded;
      return {};
    }
    for (const [action, command] of SESSION_ACTIONS) if (is(action)) return runCommand(this, s, command, "");
    if (is("tui.input.newLine")) {
      editor.insert(s, "\n");
      return afterEdit(s, this.extra);
    }
    if (is("app.message.followUp")) return this.submit(s, "followUp");
    if (is("tui.input.submit")) return this.submit(s, "steer");
    const app = appKey(this, s, key, is);
    if (app !== undefined) return app;
    // A key none of the view's bindings takes may be another plugin's shortcut (not plain typing).
    const id = shortcutId(key);
    if (id !== undefined && this.deps.shortcut?.(id) === true) return {};
    const wasSlash = s.editor.text.startsWith("/");
    const [text, list] = [s.editor.text, s.completion];
    const outcome = editKey(s, key, this.extra, is, this.terminalHeight());
    if (stack !== undefined && s.editor.text !== text) this.completion.follow(s, stack, list);
    // A "/" starting the line re-reads the templates and skills: a /reload may have changed them.
    if (!wasSlash && s.editor.text.startsWith("/")) this.refreshExtra(s.cwd);
    return outcome;
  }

  /** Re-reads the `/` names of the resources plugins, then recomputes an open completion list. */
  private refreshExtra(cwd: string): void {
    void this.deps.extraCommands(cwd).then(
      (extra) => {
        this.extra = extra;
        // Typed meanwhile, "/llam" may have matched nothing in the old list: recompute whenever "/" leads.
        this.later((state) => {
          if (state.editor.text.startsWith("/")) this.completion.refresh(state, () => afterEdit(state, extra));
        });
      },
      () => undefined,
    );
  }

  /**
   * Enter: a command, a `!`/`!!` shell line, or a prompt — sent now, or as steering (Enter) / a
   * follow-up (Alt+Enter) while the agent works.
   */
  private submit(s: ViewState, whileBusy: "steer" | "followUp"): KeyOutcome {
    const text = s.editor.text;
    if (text.trim() === "") return {};
    const command = parseCommand(text);
    const bang = command === undefined ? parseBang(text) : undefined;
    if (bang !== undefined && this.bang !== undefined) {
      s.hint = "A bash command is already running. Press esc to cancel it first.";
      return {};
    }
    editor.pushHistory(s, text);
    editor.setText(s, "");
    s.completion = null;
    if (command !== undefined) return runCommand(this, s, command.name, command.args);
    if (bang !== undefined) {
      const run = runBang(this, s, bang, () => {
        if (this.bang === run) this.bang = undefined;
      });
      this.bang = run;
      return {};
    }
    const session = this.deps.session;
    if (s.busy) this.background(whileBusy === "steer" ? "steer" : "follow-up", () => session.call(whileBusy, text));
    else this.background("prompt", () => session.api.prompt(text));
    return {};
  }

  // ── themes ────────────────────────────────────────────────────────────────────────────────

  writeToTerminal(sequence: string): void {
    this.terminalOutput.push(sequence);
  }

  /** Switches to a theme by name; one that fails to load becomes an error notice. */
  useTheme(s: ViewState, name: string): void {
    try {
      this.theme = loadTheme(name, this.deps.agentDir);
      s.theme = name;
    } catch (error) {
      notice(s, (error as Error).message, "error");
    }
  }

  /** The theme to paint with (the run's themes keep it loaded; a reloaded theme file is a new one). */
  private currentTheme(s: ViewState): Theme {
    try {
      this.theme = loadTheme(s.theme, this.deps.agentDir);
    } catch {
      this.theme = loadTheme(DEFAULT_THEME, this.deps.agentDir);
    }
    return this.theme;
  }

  /** The terminal's height in rows at the last frame (pickers page by it). */
  terminalHeight(): number {
    return this.height;
  }

  /** The rows the last frame's size renders now, for `/debug` (a pending OSC 52 stays for the next frame). */
  renderedFrame(): { width: number; height: number; lines: string[] } {
    const frame = this.render(this.width, this.height);
    if (frame.terminalOutput !== undefined) this.terminalOutput.unshift(frame.terminalOutput);
    return { width: this.width, height: this.height, lines: frame.lines };
  }

  /** 1.5: the terminal switched light/dark; the `system` theme and light/dark pairs follow its new colours. */
  terminalColorsChanged(colors: TuiTerminalColors): void {
    this.later((s) => takeTerminalColors(s, colors));
  }

  /** The session's state as of the last refresh. */
  sessionState(): SessionState | undefined {
    return this.info.state;
  }

  /** Rebuilds the transcript from the session's messages and forgets queued messages. */
  rebuild(s: ViewState): void {
    rebuildFromSession(s, this.deps, rebuildNotices(this.deps.store));
    s.queue = { steering: [], followUp: [] };
    this.refreshInfo();
  }

  private refreshInfo(): void {
    const session = this.deps.session;
    this.info = {
      state: syncCall(() => session.api.state(), this.info.state),
      stats: syncCall(() => session.api.stats(), this.info.stats),
    };
  }

  /** Runs a session operation without blocking the key; its failure becomes a notice. */
  background<T>(what: string, operation: () => T | Promise<T>, after?: (value: T) => void): void {
    let pending: Promise<T>;
    try {
      pending = Promise.resolve(operation());
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (value) => {
        after?.(value);
        this.later(() => this.refreshInfo());
      },
      (error: unknown) =>
        this.later((state) => notice(state, `${what}: ${(error as Error)?.message ?? String(error)}`, "error")),
    );
  }

  /** Changes state after an await, then asks for a frame; a view that was swapped out meanwhile does nothing. */
  later(change: (state: ViewState) => void): void {
    let state: ViewState;
    try {
      state = this.deps.state();
    } catch {
      return;
    }
    change(state);
    this.deps.save(state);
    this.deps.redraw();
  }
}
