/**
 * pi-tui's `Editor` and pi-coding-agent's `CustomEditor` for `ctx.ui.setEditorComponent`: a replacement
 * editor is a subclass that sees every key first and passes on what it does not handle with
 * `super.handleInput(data)`. Here the base class *is* the TUI's own editor: `handleInput` hands the key
 * to the view's editor and bindings (so history, completion, submit and app keys behave as usual),
 * `render` draws the view's editor rows, and `getText` / `setText` read and write its text.
 */
import type { TuiApp } from "pi-host";
import { dataToKeys } from "./key-data.js";
import { parseKey } from "./pi-tui.js";

let host: () => TuiApp | undefined = () => undefined;

/** Where editors reach the running view (the plugin points it at the TUI's `tui/app`). */
export function useEditorHost(source: () => TuiApp | undefined): void {
  host = source;
}

function view(): TuiApp {
  const app = host();
  if (app === undefined) throw new Error("the editor needs the terminal view, which is not running");
  return app;
}

/** pi-tui's Editor, over the view's editor. */
export class Editor {
  /** Set by the view while the editor has the keyboard. */
  focused = true;
  onSubmit?: (text: string) => void;
  onChange?: (text: string) => void;
  disableSubmit = false;
  readonly borderColor: (text: string) => string;
  private paddingX = 0;

  constructor(
    readonly tui: unknown,
    readonly theme: { borderColor?: (text: string) => string } = {},
    options: { paddingX?: number } = {},
  ) {
    this.borderColor = theme?.borderColor ?? ((text) => text);
    this.paddingX = options?.paddingX ?? 0;
  }

  handleInput(data: string): void {
    for (const key of dataToKeys(data, parseKey)) view().editorKey(key);
  }

  render(width: number): string[] {
    return view().editorRows(width);
  }

  invalidate(): void {}

  getText(): string {
    return view().editorText();
  }

  getExpandedText(): string {
    return this.getText();
  }

  getLines(): string[] {
    return this.getText().split("\n");
  }

  setText(text: string): void {
    view().setEditorText(String(text));
  }

  insertTextAtCursor(text: string): void {
    view().pasteToEditor(String(text));
  }

  getPaddingX(): number {
    return this.paddingX;
  }

  setPaddingX(padding: number): void {
    this.paddingX = Math.max(0, Math.floor(padding));
  }

  isShowingAutocomplete(): boolean {
    return false;
  }
}

/** pi-coding-agent's CustomEditor: the editor with app actions; the view's bindings run them. */
export class CustomEditor extends Editor {
  readonly actionHandlers = new Map<string, () => void>();
  onEscape?: () => void;
  onCtrlD?: () => void;
  onPasteImage?: () => void;
  onExtensionShortcut?: (data: string) => boolean;
  readonly embedWorkingStatus: boolean;

  constructor(
    tui: unknown,
    theme: unknown,
    readonly keybindings?: unknown,
    options: { embedWorkingStatus?: boolean } = {},
  ) {
    super(tui, theme as { borderColor?: (text: string) => string });
    this.embedWorkingStatus = options?.embedWorkingStatus === true;
  }

  /** Registers a handler for an app action, run in place of the view's own when its key comes. */
  onAction(action: string, handler: () => void): void {
    this.actionHandlers.set(action, handler);
  }

  override handleInput(data: string): void {
    if (this.onExtensionShortcut?.(data) === true) return;
    const keys = this.keybindings as { matches?(data: string, action: string): boolean } | undefined;
    for (const [action, handler] of this.actionHandlers) if (keys?.matches?.(data, action) === true) return handler();
    super.handleInput(data);
  }
}
