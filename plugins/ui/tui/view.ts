/**
 * The terminal view: turns keys and session events into view state, and view state into the rows of a
 * frame (the transcript, then the live area: status, queued messages, picker or editor, completions,
 * footer). It drives the agent only through the `agent/session` contract (and the session store for
 * listings and labels), so another front end can do the same. All it remembers lives in the plugin's
 * kernel state; the caches here are rebuilt by a new generation.
 */
import type { AgentSession, SessionEvent, SessionState, SessionStats } from "pi-host";
import type { SessionStore, TreeNode } from "pi-host";
import type { KeyOutcome, TuiFrame, TuiKey, TuiStart, TuiView } from "pi-host";
import type { Handle } from "pi-host";
import { COMMANDS, KEY_HELP, parseCommand } from "./commands.js";
import { applyCompletion, computeCompletion, type ExtraCommand } from "./complete.js";
import * as editor from "./editor.js";
import { renderEntry, type EntryStyle } from "./entries.js";
import { renderFooter, shortPath } from "./footer.js";
import { filtered, pickerKey, renderPicker, visibleRows } from "./picker.js";
import type { Dialog, Picker, PickerItem, ViewState } from "./state.js";
import { oneLine, padTo, truncate, wrapText } from "./text.js";
import { loadTheme, Theme } from "./theme.js";
import { applyEvent, contentText, notice, rebuildFromMessages } from "./transcript.js";

/** Two Ctrl+C presses within this window exit. */
const DOUBLE_CTRL_C_MS = 2_000;

/** A plugin serving the session, as `/plugins` lists it. */
export interface PluginLine {
  id: string;
  generation: number | undefined;
  contracts: string[];
}

/** What the view needs from its plugin: its state, the session, and a way to ask for a frame. */
export interface ViewDeps {
  state(): ViewState;
  /** Hands the (mutated) state back to the kernel, which checks its shape. */
  save(state: ViewState): void;
  session: Handle<AgentSession>;
  store: Handle<SessionStore>;
  /** The selected theme name from settings.json, if any. */
  settingsTheme(cwd: string): Promise<string | undefined>;
  /** Prompt templates and skills, for `/` completion. */
  extraCommands(cwd: string): Promise<ExtraCommand[]>;
  redraw(): void;
  requestReload(): void;
  /** Answers a `ui` dialog (undefined: dismissed, its default). */
  settleDialog(id: string, value: unknown): void;
  /** Every open dialog takes its default (the run ended). */
  settleAllDialogs(): void;
  plugins(): PluginLine[];
  agentDir: string;
  now?: () => number;
}

/**
 * Calls a synchronous method of the session or store. While a reload holds the handle the call fails
 * with HandleHeldError instead of waiting; the view then shows `fallback` and catches up on its next call.
 */
function unlessHeld<T>(produce: () => T, fallback: T): T {
  try {
    return produce();
  } catch {
    // HandleHeldError is the expected failure; any other (no provider, a retired generation) shows the fallback too.
    return fallback;
  }
}

/** The view behind the `tui/view` contract. */
export class TerminalView implements TuiView {
  private readonly entryRows = new Map<number, { rev: number; style: string; rows: string[] }>();
  private theme: Theme | undefined = undefined;
  private info: { state: SessionState | undefined; stats: SessionStats | undefined } = { state: undefined, stats: undefined };
  private extra: ExtraCommand[] = [];
  private height = 24;

  constructor(private readonly deps: ViewDeps) {}

  // ── contract ────────────────────────────────────────────────────────────────────────────────

  start(info: TuiStart): void {
    const s = this.deps.state();
    // The session's folder is the one the agent works in; the shell's is the process's.
    s.cwd = unlessHeld(() => this.deps.store.available ? this.deps.store.api.current()?.cwd : undefined, undefined) ?? info.cwd;
    this.height = info.height;
    const first = !s.started;
    s.started = true;
    s.running = true;
    if (first && s.entries.length === 0) rebuildFromMessages(s, unlessHeld(() => this.deps.session.api.messages(), []));
    this.refreshInfo();
    this.deps.save(s);
    // The session opens its file and picks its model on first use; ask it to, so the footer shows the model.
    this.background("start", () => this.deps.session.api.availableModels());
    void this.deps.settingsTheme(info.cwd).then((name) => this.later((state) => name !== undefined && name !== state.theme && this.useTheme(state, name)));
    void this.deps.extraCommands(info.cwd).then((extra) => (this.extra = extra), () => undefined);
    if (first && info.initialMessages.length > 0) {
      const messages = [...info.initialMessages];
      this.background("prompt", async () => {
        for (const message of messages) await this.deps.session.api.prompt(message);
      });
    }
  }

  handleEvent(event: SessionEvent): void {
    const s = this.deps.state();
    const outcome = applyEvent(s, event);
    if (outcome === "rebuild") this.rebuild(s);
    if (event.type === "message_end" || event.type === "agent_end" || event.type === "model_change" || event.type === "session_change" || event.type === "compaction_end") {
      this.refreshInfo();
    }
    this.deps.save(s);
  }

  resize(_width: number, height: number): void {
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
    const outcome = this.key(s, key);
    this.deps.save(s);
    return outcome;
  }

  render(width: number, height: number): TuiFrame {
    this.height = height;
    const s = this.deps.state();
    const theme = this.currentTheme(s);
    const style: EntryStyle = { width, theme, thinkingExpanded: s.thinkingExpanded, toolsExpanded: s.toolsExpanded };
    const styleKey = `${width}|${theme.name}|${s.thinkingExpanded}|${s.toolsExpanded}`;
    const lines: string[] = this.header(width, theme);
    const alive = new Set<number>();
    for (const entry of s.entries) {
      alive.add(entry.id);
      let cached = this.entryRows.get(entry.id);
      if (cached === undefined || cached.rev !== entry.rev || cached.style !== styleKey) {
        cached = { rev: entry.rev, style: styleKey, rows: renderEntry(entry, style) };
        this.entryRows.set(entry.id, cached);
      }
      for (const row of cached.rows) lines.push(row);
    }
    if (this.entryRows.size > alive.size) for (const id of this.entryRows.keys()) if (!alive.has(id)) this.entryRows.delete(id);

    lines.push("");
    if (s.busy || s.compacting) {
      const label = s.compacting ? "Compacting… (esc to abort)" : "Working… (esc to interrupt)";
      lines.push(` ${theme.fg("accent", "●")} ${theme.fg("muted", label)}`);
    }
    for (const text of s.queue.steering) lines.push(theme.fg("muted", truncate(` Steering: ${oneLine(text)}`, width)));
    for (const text of s.queue.followUp) lines.push(theme.fg("muted", truncate(` Follow-up: ${oneLine(text)}`, width)));
    if (s.hint !== "") lines.push(theme.fg("warning", truncate(` ${s.hint}`, width)));

    let cursor: TuiFrame["cursor"] = null;
    const widgets = (placement: "aboveEditor" | "belowEditor"): void => {
      for (const widget of Object.values(s.widgets)) {
        if (widget.placement === placement) for (const row of widget.lines) lines.push(truncate(` ${row}`, width));
      }
    };
    widgets("aboveEditor");
    const dialog = s.dialogs[0];
    if (dialog !== undefined) {
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
      if (s.completion !== null) {
        const page = Math.min(8, s.completion.items.length);
        const first = Math.max(0, Math.min(s.completion.selected - page + 1, s.completion.items.length - page));
        for (let i = first; i < first + page; i++) {
          const item = s.completion.items[i]!;
          const text = truncate(` ${item.value}${item.detail ? theme.fg("muted", `  ${item.detail}`) : ""}`, width);
          lines.push(i === s.completion.selected ? theme.bg("selectedBg", padTo(text, width)) : text);
        }
      }
    }
    widgets("belowEditor");
    const statuses = Object.values(s.statuses);
    if (statuses.length > 0) lines.push(theme.fg("muted", truncate(` ${statuses.join(" · ")}`, width)));
    // The session picks its model once it is ready; until then, ask again each frame.
    if (this.info.state?.model == null) this.refreshInfo();
    for (const row of renderFooter(s.cwd, this.info.state, this.info.stats, width, theme)) lines.push(row);
    return s.title !== "" ? { lines, cursor, title: s.title } : { lines, cursor };
  }

  // ── keys ────────────────────────────────────────────────────────────────────────────────────

  private key(s: ViewState, key: TuiKey): KeyOutcome {
    const isCtrlC = key.ctrl && !key.alt && key.name === "c";
    if (!isCtrlC && s.hint !== "") s.hint = "";
    if (s.dialogs.length > 0) {
      this.dialogKey(s.dialogs[0]!, key);
      return {};
    }
    if (s.picker !== null) {
      if (s.picker.labelEdit !== undefined) return this.labelKey(s, s.picker, key);
      this.pickerKey(s, s.picker, key);
      return {};
    }
    if (isCtrlC) return this.ctrlC(s);
    if (key.ctrl && key.name === "d" && !key.alt) {
      if (s.editor.text === "") return { exit: true };
      editor.deleteForward(s);
      return this.edited(s);
    }
    if (key.name === "escape") {
      if (s.completion !== null) s.completion = null;
      else if (s.busy || s.compacting) this.background("abort", () => this.deps.session.api.abort());
      return {};
    }
    if (s.completion !== null && this.completionKey(s, key)) return {};
    if (key.ctrl && key.name === "p") {
      this.background("cycle model", () => this.deps.session.api.cycleModel(key.shift ? "backward" : "forward"));
      return {};
    }
    if (key.ctrl && key.name === "l") return this.command(s, "model", "");
    if (key.name === "tab" && key.shift) {
      this.background("thinking level", () => this.deps.session.api.cycleThinkingLevel());
      return {};
    }
    if (key.ctrl && key.name === "t") {
      s.thinkingExpanded = !s.thinkingExpanded;
      return {};
    }
    if (key.ctrl && key.name === "o") {
      s.toolsExpanded = !s.toolsExpanded;
      return {};
    }
    if (key.name === "enter") {
      if (key.shift || (key.ctrl && !key.alt)) {
        editor.insert(s, "\n");
        return this.edited(s);
      }
      return this.submit(s, key.alt ? "followUp" : "steer");
    }
    return this.editKey(s, key);
  }

  private editKey(s: ViewState, key: TuiKey): KeyOutcome {
    const { ctrl, alt } = key;
    switch (key.name) {
      case "text":
      case "paste":
        editor.insert(s, (key.text ?? "").replace(/\r\n?/g, "\n"));
        return this.edited(s);
      case "space":
        editor.insert(s, " ");
        return this.edited(s);
      case "backspace":
        if (alt || ctrl) editor.killWordBackward(s);
        else editor.backspace(s);
        return this.edited(s);
      case "delete":
        if (alt) editor.killWordForward(s);
        else editor.deleteForward(s);
        return this.edited(s);
      case "left":
        if (alt || ctrl) editor.moveTo(s, editor.wordStartBefore(s.editor.text, s.editor.cursor));
        else editor.left(s);
        return this.moved(s);
      case "right":
        if (alt || ctrl) editor.moveTo(s, editor.wordEndAfter(s.editor.text, s.editor.cursor));
        else editor.right(s);
        return this.moved(s);
      case "home":
        editor.lineStart(s);
        return this.moved(s);
      case "end":
        editor.lineEnd(s);
        return this.moved(s);
      case "up":
        if (!editor.up(s)) editor.historyBack(s);
        return this.moved(s);
      case "down":
        if (!editor.down(s)) editor.historyForward(s);
        return this.moved(s);
      case "tab":
        s.completion = computeCompletion(s.editor, s.cwd, this.extra);
        if (s.completion?.items.length === 1) {
          s.editor = applyCompletion(s.editor, s.completion);
          s.completion = null;
        }
        return {};
    }
    if (ctrl && !alt) {
      switch (key.name) {
        case "a":
          editor.lineStart(s);
          return this.moved(s);
        case "e":
          editor.lineEnd(s);
          return this.moved(s);
        case "b":
          editor.left(s);
          return this.moved(s);
        case "f":
          editor.right(s);
          return this.moved(s);
        case "k":
          editor.killToLineEnd(s);
          return this.edited(s);
        case "u":
          editor.killToLineStart(s);
          return this.edited(s);
        case "w":
          editor.killWordBackward(s);
          return this.edited(s);
        case "y":
          editor.yank(s);
          return this.edited(s);
        case "-":
        case "z":
          editor.undo(s);
          return this.edited(s);
      }
    }
    if (alt && !ctrl) {
      switch (key.name) {
        case "b":
          editor.moveTo(s, editor.wordStartBefore(s.editor.text, s.editor.cursor));
          return this.moved(s);
        case "f":
          editor.moveTo(s, editor.wordEndAfter(s.editor.text, s.editor.cursor));
          return this.moved(s);
        case "d":
          editor.killWordForward(s);
          return this.edited(s);
        case "y":
          editor.yankPop(s);
          return this.edited(s);
      }
    }
    return {};
  }

  /** After an edit: the completion list follows the text. */
  private edited(s: ViewState): KeyOutcome {
    const before = s.editor.text.slice(0, s.editor.cursor);
    s.completion = before.startsWith("/") || before.includes("@") ? computeCompletion(s.editor, s.cwd, this.extra) : null;
    return {};
  }

  private moved(s: ViewState): KeyOutcome {
    s.completion = null;
    return {};
  }

  /** Keys the completion list takes; false to let the editor have the key. */
  private completionKey(s: ViewState, key: TuiKey): boolean {
    const completion = s.completion!;
    if (key.name === "up" || key.name === "down") {
      const n = completion.items.length;
      completion.selected = (completion.selected + (key.name === "up" ? n - 1 : 1)) % n;
      return true;
    }
    if (key.name === "tab" && !key.shift) {
      s.editor = applyCompletion(s.editor, completion);
      s.completion = null;
      this.edited(s);
      return true;
    }
    if (key.name === "enter" && !key.alt && !key.shift && completion.kind === "file") {
      s.editor = applyCompletion(s.editor, completion);
      s.completion = null;
      return true;
    }
    if (key.name === "enter" && !key.alt && !key.shift && completion.kind === "command") {
      const typed = s.editor.text.trim();
      if (!completion.items.some((i) => i.value === typed)) s.editor = applyCompletion(s.editor, completion);
      s.completion = null;
      return false;
    }
    return false;
  }

  private ctrlC(s: ViewState): KeyOutcome {
    const now = (this.deps.now ?? Date.now)();
    if (now - s.ctrlCAt < DOUBLE_CTRL_C_MS) return { exit: true };
    s.ctrlCAt = now;
    if (s.editor.text !== "") editor.setText(s, "");
    s.completion = null;
    s.hint = "Press ctrl+c again to exit";
    return {};
  }

  /** Enter: a command, or a prompt — sent now, or as steering (Enter) / a follow-up (Alt+Enter) while the agent works. */
  private submit(s: ViewState, whileBusy: "steer" | "followUp"): KeyOutcome {
    const text = s.editor.text;
    if (text.trim() === "") return {};
    const command = parseCommand(text);
    editor.pushHistory(s, text);
    editor.setText(s, "");
    s.completion = null;
    if (command !== undefined) return this.command(s, command.name, command.args);
    const session = this.deps.session;
    if (s.busy) this.background(whileBusy === "steer" ? "steer" : "follow-up", () => (whileBusy === "steer" ? session.api.steer(text) : session.api.followUp(text)));
    else this.background("prompt", () => session.api.prompt(text));
    return {};
  }

  /** Keys while a `ui` dialog is shown: choose among options, or type an answer; Esc dismisses. */
  private dialogKey(dialog: Dialog, key: TuiKey): void {
    if (key.name === "escape" || (key.ctrl && key.name === "c")) return this.deps.settleDialog(dialog.id, undefined);
    if (dialog.kind === "select" || dialog.kind === "confirm") {
      const count = dialog.options?.length ?? 0;
      if (key.name === "up") dialog.selected = Math.max(0, dialog.selected - 1);
      else if (key.name === "down") dialog.selected = Math.min(count - 1, dialog.selected + 1);
      else if (key.name === "enter") {
        const choice = dialog.options?.[dialog.selected];
        this.deps.settleDialog(dialog.id, dialog.kind === "confirm" ? choice === "Yes" : choice);
      } else if (dialog.kind === "confirm" && key.name === "text" && /^[yn]$/i.test(key.text ?? "")) {
        this.deps.settleDialog(dialog.id, key.text!.toLowerCase() === "y");
      }
      return;
    }
    if (key.name === "enter" && !(dialog.kind === "editor" && (key.shift || key.alt))) return this.deps.settleDialog(dialog.id, dialog.text);
    if (key.name === "enter") dialog.text += "\n";
    else if (key.name === "text" || key.name === "paste") dialog.text += (key.text ?? "").replace(/\r\n?/g, "\n");
    else if (key.name === "space") dialog.text += " ";
    else if (key.name === "backspace") dialog.text = dialog.text.slice(0, editor.previousBoundary(dialog.text, dialog.text.length));
  }

  // ── commands ────────────────────────────────────────────────────────────────────────────────

  private command(s: ViewState, name: string, args: string): KeyOutcome {
    const session = this.deps.session;
    switch (name) {
      case "quit":
        return { exit: true };
      case "help":
      case "hotkeys": {
        const keys = KEY_HELP.map(([k, what]) => `  ${k.padEnd(34)} ${what}`);
        const commands = name === "help" ? ["Commands:", ...COMMANDS.map((c) => `  /${c.name.padEnd(10)} ${c.description}`), ""] : [];
        notice(s, [...commands, "Keys:", ...keys].join("\n"));
        return {};
      }
      case "model":
        this.openPicker(s, { kind: "model", title: "Select a model", query: args }, async () => {
          const models = await session.api.availableModels();
          const current = this.info.state?.model;
          return models.map((m) => ({ label: `${m.provider}/${m.id}`, value: `${m.provider}/${m.id}`, detail: m.name !== m.id ? m.name : undefined, current: current?.provider === m.provider && current.id === m.id }));
        });
        return {};
      case "tree":
        this.openPicker(s, { kind: "tree", title: "Session tree", query: args }, async () => this.treeItems());
        return {};
      case "fork":
        this.openPicker(s, { kind: "fork", title: "Fork from a message", query: args }, async () =>
          [...(await session.api.forkPoints())].reverse().map((p) => ({ label: oneLine(p.text), value: p.entryId })),
        );
        return {};
      case "resume":
        this.openPicker(s, { kind: "resume", title: "Resume a session", query: args }, async () => {
          const current = unlessHeld(() => session.api.state(), undefined)?.sessionFile;
          const list = await this.deps.store.api.list({ cwd: s.cwd });
          return list.map((x) => ({
            label: oneLine(x.name ?? x.firstMessage ?? x.id) || "(empty)",
            value: x.path,
            detail: `${x.modified.replace("T", " ").slice(0, 16)} · ${x.messageCount} msgs`,
            current: x.path === current,
          }));
        });
        return {};
      case "new":
        this.background("new session", () => session.api.newSession());
        return {};
      case "compact":
        this.background("compact", () => session.api.compact(args === "" ? undefined : args));
        return {};
      case "name":
        if (args === "") notice(s, "Give a name: /name <name>", "warning");
        else this.background("name", () => session.api.setSessionName(args), () => this.later((state) => notice(state, `Session named "${args}"`)));
        return {};
      case "session": {
        const st = unlessHeld(() => session.api.state(), undefined);
        const stats = unlessHeld(() => session.api.stats(), undefined);
        const lines = [
          `Session ${st?.sessionName ? `"${st.sessionName}" ` : ""}${st?.sessionId ?? "(none)"}`,
          `  file: ${st?.sessionFile ? shortPath(st.sessionFile) : "(not saved)"}`,
          `  model: ${st?.model ? `${st.model.provider}/${st.model.id}` : "(none)"}, thinking ${st?.thinkingLevel ?? "off"}`,
        ];
        if (stats) {
          lines.push(`  messages: ${stats.userMessages} user, ${stats.assistantMessages} assistant, ${stats.toolCalls} tool calls (${stats.totalMessages} in all)`);
          lines.push(`  tokens: ${stats.tokens.input} in, ${stats.tokens.output} out, ${stats.tokens.cacheRead} cache read, ${stats.tokens.cacheWrite} cache write; cost $${stats.cost.toFixed(4)}`);
        }
        notice(s, lines.join("\n"));
        return {};
      }
      case "reload":
        this.deps.requestReload();
        notice(s, "Reloading plugins loaded from source (edited ones take effect; under pi --watch, saving a file does this by itself).");
        return {};
      case "plugins": {
        const plugins = this.deps.plugins();
        const lines = plugins.map((p) => `  ${p.id.padEnd(20)} gen ${String(p.generation ?? s.generations[p.id] ?? "-").padEnd(4)} ${p.contracts.join(", ")}`);
        notice(s, ["Plugins serving this session:", ...lines].join("\n"));
        return {};
      }
      case "theme":
        if (args === "") notice(s, `Theme: ${s.theme} (built in: dark, light; others from ${shortPath(this.deps.agentDir)}/themes/<name>.json)`);
        else this.useTheme(s, args);
        return {};
    }
    return {};
  }

  private useTheme(s: ViewState, name: string): void {
    try {
      this.theme = loadTheme(name, this.deps.agentDir);
      s.theme = name;
    } catch (error) {
      notice(s, (error as Error).message, "error");
    }
  }

  private currentTheme(s: ViewState): Theme {
    if (this.theme === undefined || this.theme.name !== s.theme) {
      try {
        this.theme = loadTheme(s.theme, this.deps.agentDir);
      } catch {
        this.theme = loadTheme("dark", this.deps.agentDir);
      }
    }
    return this.theme;
  }

  // ── pickers ─────────────────────────────────────────────────────────────────────────────────

  private openPicker(s: ViewState, spec: Pick<Picker, "kind" | "title" | "query">, load: () => Promise<PickerItem[]>): void {
    s.picker = { ...spec, items: [], selected: 0, scroll: 0, loading: true };
    s.completion = null;
    const kind = spec.kind;
    load().then(
      (items) =>
        this.later((state) => {
          if (state.picker?.kind !== kind) return;
          state.picker.items = items;
          state.picker.loading = false;
          const current = filtered(state.picker).findIndex(({ item }) => item.current === true && kind !== "tree");
          const leaf = kind === "tree" ? filtered(state.picker).findIndex(({ item }) => item.detail?.includes("current") === true) : -1;
          state.picker.selected = Math.max(0, leaf >= 0 ? leaf : current);
          state.picker.scroll = Math.max(0, state.picker.selected - visibleRows(this.height) + 1);
        }),
      (error: unknown) =>
        this.later((state) => {
          state.picker = null;
          notice(state, `${spec.title}: ${(error as Error).message}`, "error");
        }),
    );
  }

  private pickerKey(s: ViewState, picker: Picker, key: TuiKey): void {
    const action = pickerKey(picker, key, this.height);
    if (action.type === "close") s.picker = null;
    else if (action.type === "label") picker.labelEdit = "";
    else if (action.type === "choose") {
      s.picker = null;
      this.choose(s, picker, action.item);
    }
  }

  private labelKey(s: ViewState, picker: Picker, key: TuiKey): KeyOutcome {
    if (key.name === "escape" || (key.ctrl && key.name === "c")) picker.labelEdit = undefined;
    else if (key.name === "backspace") picker.labelEdit = picker.labelEdit!.slice(0, -1);
    else if (key.name === "text" || key.name === "paste") picker.labelEdit += (key.text ?? "").replace(/\n/g, " ");
    else if (key.name === "enter") {
      const choice = filtered(picker)[picker.selected];
      const label = picker.labelEdit!.trim();
      picker.labelEdit = undefined;
      if (choice !== undefined) {
        try {
          this.deps.store.api.appendLabel(choice.item.value, label === "" ? undefined : label);
          picker.items = this.treeItems();
        } catch (error) {
          notice(s, `label: ${(error as Error).message}`, "error");
        }
      }
    }
    return {};
  }

  private choose(s: ViewState, picker: Picker, item: PickerItem): void {
    const session = this.deps.session;
    switch (picker.kind) {
      case "model": {
        const slash = item.value.indexOf("/");
        this.background("model", () => session.api.setModel(item.value.slice(0, slash), item.value.slice(slash + 1)));
        return;
      }
      case "resume":
        this.background("resume", () => session.api.switchSession(item.value));
        return;
      case "fork":
        this.background("fork", async () => {
          const result = await session.api.fork(item.value);
          this.later((state) => editor.setText(state, result.text));
        });
        return;
      case "tree":
        this.navigate(item.value);
        return;
    }
  }

  /** Moves to a tree entry; a user message puts its text back in the editor and moves to before it, as pi does. */
  private navigate(entryId: string): void {
    const store = this.deps.store;
    const entry = unlessHeld(() => store.api.entry(entryId), undefined);
    this.background("tree", async () => {
      let text: string | undefined;
      if (entry?.type === "message" && entry.message.role === "user") {
        text = contentText((entry.message as { content: string }).content);
        if (entry.parentId === null) store.api.branch(null);
        else await this.deps.session.api.navigateTree(entry.parentId);
      } else {
        await this.deps.session.api.navigateTree(entryId);
      }
      this.later((state) => {
        this.rebuild(state);
        if (text !== undefined) editor.setText(state, text);
      });
    });
  }

  /** The session tree, flattened: indentation grows only where the conversation branches. */
  private treeItems(): PickerItem[] {
    const store = this.deps.store;
    const roots = unlessHeld(() => store.api.tree(), [] as TreeNode[]);
    const onPath = new Set(unlessHeld(() => store.api.path(), []).map((e) => e.id));
    const leaf = unlessHeld(() => store.api.leafId(), null);
    const items: PickerItem[] = [];
    const visit = (node: TreeNode, depth: number): void => {
      const label = describeEntry(node);
      if (label !== undefined) {
        const marks = [node.label ? `[${node.label}]` : "", node.entry.id === leaf ? "← current" : ""].filter(Boolean).join(" ");
        items.push({ label, value: node.entry.id, depth, current: onPath.has(node.entry.id), detail: marks || undefined });
      }
      const branches = node.children.length > 1;
      for (const child of node.children) visit(child, branches ? depth + 1 : depth);
    };
    // Iterative over long single chains would be nicer to the stack; sessions are far shallower than it.
    for (const root of roots) visit(root, 0);
    return items;
  }

  // ── helpers ─────────────────────────────────────────────────────────────────────────────────

  private rebuild(s: ViewState): void {
    rebuildFromMessages(s, unlessHeld(() => this.deps.session.api.messages(), []));
    s.queue = { steering: [], followUp: [] };
    this.refreshInfo();
  }

  private refreshInfo(): void {
    const session = this.deps.session;
    this.info = {
      state: unlessHeld(() => session.api.state(), this.info.state),
      stats: unlessHeld(() => session.api.stats(), this.info.stats),
    };
  }

  /** Runs a session operation without blocking the key; its failure becomes a notice. */
  private background<T>(what: string, operation: () => T | Promise<T>, after?: (value: T) => void): void {
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
      (error: unknown) => this.later((state) => notice(state, `${what}: ${(error as Error)?.message ?? String(error)}`, "error")),
    );
  }

  /** Changes state after an await, then asks for a frame; a view that was swapped out meanwhile does nothing. */
  private later(change: (state: ViewState) => void): void {
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

  private header(width: number, theme: Theme): string[] {
    const title = theme.bold(theme.fg("accent", " pi-host"));
    const help = theme.fg("dim", " · esc interrupt · ctrl+c twice exit · / commands · ctrl+p next model");
    return [truncate(title + help, width)];
  }
}

/** One row describing a tree entry, or undefined for entries the tree does not show. */
function describeEntry(node: TreeNode): string | undefined {
  const entry = node.entry;
  switch (entry.type) {
    case "message": {
      const m = entry.message as { role: string; content?: unknown; toolName?: string };
      if (m.role === "user") return `user: ${oneLine(contentText(m.content as string))}`;
      if (m.role === "assistant") {
        const blocks = (m.content as Array<{ type: string; text?: string; name?: string }>) ?? [];
        const text = blocks.map((b) => (b.type === "text" ? b.text : b.type === "toolCall" ? `[${b.name}]` : "")).join(" ");
        return `assistant: ${oneLine(text)}`;
      }
      if (m.role === "toolResult") return `tool result: ${m.toolName ?? ""}`;
      return `${m.role}`;
    }
    case "compaction":
      return `[compaction: ${entry.tokensBefore} tokens]`;
    case "branch_summary":
      return `[branch summary]`;
    case "model_change":
      return `[model ${entry.provider}/${entry.modelId}]`;
    case "thinking_level_change":
      return `[thinking ${entry.thinkingLevel}]`;
    case "custom_message":
      return `[${entry.customType}]`;
    default:
      return undefined;
  }
}

/** A `ui` dialog's rows in place of the editor, and where the cursor goes when it takes text. */
function renderDialog(dialog: Dialog, width: number, theme: Theme): { lines: string[]; cursor?: { row: number; col: number } } {
  const rows: string[] = [theme.fg("border", "─".repeat(width)), ` ${theme.bold(theme.fg("accent", truncate(dialog.title, width - 2)))}`];
  if (dialog.kind === "confirm" && dialog.message) rows.push(...wrapText(dialog.message, width - 2).map((r) => ` ${r}`));
  if (dialog.kind === "select" || dialog.kind === "confirm") {
    (dialog.options ?? []).forEach((option, i) => {
      const text = truncate(` ${i === dialog.selected ? "› " : "  "}${option}`, width);
      rows.push(i === dialog.selected ? theme.bg("selectedBg", padTo(text, width)) : text);
    });
    rows.push(theme.fg("dim", truncate(dialog.kind === "confirm" ? " enter choose · y/n · esc cancel" : " enter choose · esc cancel", width)));
    return { lines: rows };
  }
  const layout = editor.layoutEditor({ text: dialog.text, cursor: dialog.text.length }, width);
  const start = rows.length;
  if (dialog.text === "" && dialog.message) rows.push(theme.fg("dim", truncate(dialog.message, width)));
  else for (const row of layout.rows) rows.push(row);
  rows.push(theme.fg("dim", truncate(dialog.kind === "editor" ? " enter submit · shift+enter new line · esc cancel" : " enter submit · esc cancel", width)));
  return { lines: rows, cursor: { row: start + (dialog.text === "" ? 0 : layout.cursorRow), col: dialog.text === "" ? 0 : layout.cursorCol } };
}
