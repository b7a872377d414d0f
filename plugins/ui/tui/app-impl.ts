/**
 * The view's `tui/app` once the UI's code is loaded: the active theme's colours (or another theme's, by
 * name), the themes to choose from, keybindings.json's keys per action, the editor text and the tools'
 * expansion, all read from and written to the view state, so what extensions see is what the user sees.
 */
import { join } from "node:path";
import type { TuiApp, TuiKey, TuiThemeInfo, TuiWorkingChange } from "pi-host";
import * as editor from "./editor.js";
import { KeybindingsFile } from "./keybindings.js";
import { sliceColumns } from "./overlays.js";
import { CURSOR_MARKER } from "./surfaces.js";
import type { ViewState } from "./state.js";
import { loadTheme, type Theme } from "./theme.js";
import { currentThemes } from "./themes.js";

/** What the app needs from its plugin. */
export interface TuiAppDeps {
  state(): ViewState | undefined;
  /** Saves the changed state and asks for a frame. */
  changed(): void;
  /** Asks for a frame. */
  redraw(): void;
  /** Runs a key through the view's own editor and bindings. */
  editorKey(key: TuiKey): void;
  agentDir: string;
}

/** The loaded `tui/app`. */
export class TuiAppImpl implements TuiApp {
  private readonly keybindings: KeybindingsFile;

  constructor(private readonly deps: TuiAppDeps) {
    this.keybindings = new KeybindingsFile(join(deps.agentDir, "keybindings.json"));
  }

  running(): boolean {
    return this.deps.state()?.running === true;
  }

  theme(name?: string): TuiThemeInfo | undefined {
    const theme = this.load(name);
    if (theme === undefined) return undefined;
    return {
      name: theme.name,
      appearance: theme.appearance ?? "dark",
      ...(theme.file !== undefined && { path: theme.file }),
    };
  }

  paint(token: string, text: string, layer: "fg" | "bg", name?: string): string {
    const theme = this.load(name);
    if (theme === undefined) return text;
    return layer === "fg" ? theme.fg(token as never, text) : theme.bg(token as never, text);
  }

  ansi(token: string, layer: "fg" | "bg", name?: string): string {
    const marker = "\u0000";
    const painted = this.paint(token, marker, layer, name);
    return painted.slice(0, painted.indexOf(marker));
  }

  themes(): Array<{ name: string; path?: string }> {
    const registry = currentThemes(this.deps.agentDir);
    return registry.names().map((name) => {
      const file = this.load(name)?.file;
      return file === undefined ? { name } : { name, path: file };
    });
  }

  addThemes(paths: string[]): string[] {
    const problems = currentThemes(this.deps.agentDir).addPaths(paths);
    this.deps.redraw();
    return problems;
  }

  setTheme(name: string): { success: true } | { success: false; error: string } {
    try {
      loadTheme(name, this.deps.agentDir);
    } catch (error) {
      return { success: false, error: (error as Error).message };
    }
    this.update((s) => (s.theme = name));
    return { success: true };
  }

  actionKeys(action: string): string[] {
    return [...(this.keybindings.current().bindings.get(action) ?? [])];
  }

  requestRender(): void {
    this.deps.redraw();
  }

  /** Rows drawn with other plugins' renderers are drawn again (the view's row cache keys on this). */
  renderersChanged(): void {
    this.update((s) => (s.renderersRev = (s.renderersRev ?? 0) + 1));
  }

  editorText(): string {
    return this.deps.state()?.editor.text ?? "";
  }

  setEditorText(text: string): void {
    this.update((s) => editor.setText(s, text));
  }

  editorRows(width: number): string[] {
    const s = this.deps.state();
    const theme = this.load(undefined);
    if (s === undefined || theme === undefined) return [];
    const border = theme.fg("borderMuted", "─".repeat(width));
    const layout = editor.layoutEditor(s.editor, width);
    const rows = layout.rows.map((row, i) => {
      if (i !== layout.cursorRow) return row;
      return `${sliceColumns(row, 0, layout.cursorCol)}${CURSOR_MARKER}${sliceColumns(row, layout.cursorCol, width)}`;
    });
    return [border, ...rows, border];
  }

  editorKey(key: TuiKey): void {
    this.deps.editorKey(key);
  }

  pasteToEditor(text: string): void {
    this.update((s) => editor.insert(s, text.replace(/\r\n?/g, "\n")));
  }

  toolsExpanded(): boolean {
    return this.deps.state()?.toolsExpanded === true;
  }

  setToolsExpanded(expanded: boolean): void {
    this.update((s) => (s.toolsExpanded = expanded));
  }

  setWorking(change: TuiWorkingChange): void {
    this.update((s) => {
      const working = { ...s.working };
      if (change.message !== undefined) working.message = change.message ?? undefined;
      if (change.visible !== undefined) working.visible = change.visible;
      if (change.indicator !== undefined) {
        working.frames = change.indicator === null ? undefined : [...change.indicator.frames];
        working.intervalMs = change.indicator?.intervalMs;
      }
      if (change.hiddenThinkingLabel !== undefined)
        working.hiddenThinkingLabel = change.hiddenThinkingLabel ?? undefined;
      // Absent fields, not undefined ones: the state is checked against its schema and saved as JSON.
      s.working = JSON.parse(JSON.stringify(working));
    });
  }

  /** The theme `name` (default: the one shown), or undefined when it cannot load. */
  private load(name: string | undefined): Theme | undefined {
    const chosen = name ?? this.deps.state()?.theme;
    if (chosen === undefined) return undefined;
    try {
      return loadTheme(chosen, this.deps.agentDir);
    } catch {
      return undefined;
    }
  }

  private update(change: (s: ViewState) => void): void {
    const s = this.deps.state();
    if (s === undefined) return;
    change(s);
    this.deps.changed();
  }
}
