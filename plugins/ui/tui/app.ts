/**
 * The view's `tui/app` as the plugin provides it at setup: a front that answers "not running" until
 * the UI's code is loaded (with the view, on the first interactive call), so `pi -p` never loads it.
 */
import type { TuiApp, TuiKey, TuiThemeInfo, TuiWorkingChange } from "pi-host";
import type { TuiAppDeps, TuiAppImpl } from "./app-impl.js";

/** Forwards to the loaded app; before that, nothing runs. */
export class TuiAppFront implements TuiApp {
  private impl: TuiAppImpl | undefined = undefined;

  constructor(private readonly deps: TuiAppDeps) {}

  /** Loads the app's code (the view does it with its own). */
  async load(): Promise<void> {
    if (this.impl !== undefined) return;
    const module = await import("./app-impl.js");
    this.impl ??= new module.TuiAppImpl(this.deps);
  }

  running(): boolean {
    return this.impl?.running() === true;
  }

  theme(name?: string): TuiThemeInfo | undefined {
    return this.impl?.theme(name);
  }

  paint(token: string, text: string, layer: "fg" | "bg", name?: string): string {
    return this.impl?.paint(token, text, layer, name) ?? text;
  }

  ansi(token: string, layer: "fg" | "bg", name?: string): string {
    return this.impl?.ansi(token, layer, name) ?? "";
  }

  themes(): Array<{ name: string; path?: string }> {
    return this.impl?.themes() ?? [];
  }

  addThemes(paths: string[]): string[] {
    return this.impl?.addThemes(paths) ?? ["the terminal view is not running"];
  }

  setTheme(name: string): { success: true } | { success: false; error: string } {
    return this.impl?.setTheme(name) ?? { success: false, error: "UI not available" };
  }

  actionKeys(action: string): string[] {
    return this.impl?.actionKeys(action) ?? [];
  }

  requestRender(): void {
    this.deps.redraw();
  }

  editorText(): string {
    return this.impl?.editorText() ?? "";
  }

  setEditorText(text: string): void {
    this.impl?.setEditorText(text);
  }

  pasteToEditor(text: string): void {
    this.impl?.pasteToEditor(text);
  }

  editorRows(width: number): string[] {
    return this.impl?.editorRows(width) ?? [];
  }

  editorKey(key: TuiKey): void {
    this.impl?.editorKey(key);
  }

  toolsExpanded(): boolean {
    return this.impl?.toolsExpanded() === true;
  }

  setToolsExpanded(expanded: boolean): void {
    this.impl?.setToolsExpanded(expanded);
  }

  setWorking(change: TuiWorkingChange): void {
    this.impl?.setWorking(change);
  }

  renderersChanged(): void {
    this.impl?.renderersChanged();
  }
}
