/**
 * pi-tui's `Editor` and pi-coding-agent's `CustomEditor`. On its own (inside a custom screen) an Editor
 * edits its own text. For `ctx.ui.setEditorComponent` a replacement editor is a subclass that sees
 * every key first and passes on what it does not handle with `super.handleInput(data)`; attached so,
 * the base class *is* the TUI's own editor: `handleInput` hands the key to the view's editor and
 * bindings (history, completion, submit and app keys behave as usual), `render` draws the view's
 * editor rows, and `getText` / `setText` read and write its text.
 */
import type { TuiApp } from "pi-host";
import { dataToKeys } from "./key-data.js";
import { CURSOR_MARKER, matchesKey, parseKey, visibleWidth } from "./pi-tui.js";

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

/** Lines of `text` cut to `width` cells each (the editor wraps long lines by characters). */
function wrapCells(line: string, width: number): string[] {
  const rows: string[] = [];
  let row = "";
  for (const ch of line) {
    if (visibleWidth(row + ch) > width) {
      rows.push(row);
      row = "";
    }
    row += ch;
  }
  rows.push(row);
  return rows;
}

/**
 * pi-tui's Editor: multi-line text with a cursor between two borders; Enter calls `onSubmit`
 * (Shift+Enter or Ctrl+J a new line). Made by `setEditorComponent`'s factory, it is attached to the
 * TUI's own editor instead: keys it passes on, its rows and its text are the TUI's.
 */
export class Editor {
  /** Set by the focusing component: the cursor is drawn only then. */
  focused = true;
  onSubmit?: (text: string) => void;
  onChange?: (text: string) => void;
  disableSubmit = false;
  readonly borderColor: (text: string) => string;
  private paddingX = 0;
  private attached = false;
  private text = "";
  private cursor = 0;

  constructor(
    readonly tui: unknown,
    readonly theme: { borderColor?: (text: string) => string } = {},
    options: { paddingX?: number } = {},
  ) {
    this.borderColor = theme?.borderColor ?? ((text) => text);
    this.paddingX = options?.paddingX ?? 0;
  }

  /** Makes this the TUI's editor (`setEditorComponent`). */
  attachToView(): void {
    this.attached = true;
  }

  handleInput(data: string): void {
    if (this.attached) {
      for (const key of dataToKeys(data, parseKey)) view().editorKey(key);
      return;
    }
    const paste = /^\x1b\[200~([\s\S]*)\x1b\[201~$/.exec(data);
    if (paste !== null) return this.insert(paste[1]!.replace(/\r\n?/g, "\n"));
    const is = (key: string) => matchesKey(data, key);
    const before = this.text.slice(0, this.cursor);
    const lineStart = before.lastIndexOf("\n") + 1;
    const lineEnd =
      this.text.indexOf("\n", this.cursor) === -1 ? this.text.length : this.text.indexOf("\n", this.cursor);
    if (is("shift+enter") || is("ctrl+j") || (is("enter") && this.disableSubmit)) this.insert("\n");
    else if (is("enter")) this.onSubmit?.(this.text);
    else if (is("backspace"))
      this.edit(before.slice(0, -1) + this.text.slice(this.cursor), Math.max(0, this.cursor - 1));
    else if (is("delete")) this.edit(before + this.text.slice(this.cursor + 1), this.cursor);
    else if (is("left")) this.cursor = Math.max(0, this.cursor - 1);
    else if (is("right")) this.cursor = Math.min(this.text.length, this.cursor + 1);
    else if (is("home") || is("ctrl+a")) this.cursor = lineStart;
    else if (is("end") || is("ctrl+e")) this.cursor = lineEnd;
    else if (is("up") || is("down")) this.moveLine(is("up") ? -1 : 1, this.cursor - lineStart);
    else if (is("ctrl+u")) this.edit(this.text.slice(0, lineStart) + this.text.slice(this.cursor), lineStart);
    else if (is("ctrl+k")) this.edit(before + this.text.slice(lineEnd), this.cursor);
    else if (is("ctrl+w") || is("alt+backspace")) {
      const kept = before.replace(/\S+\s*$/, "");
      this.edit(kept + this.text.slice(this.cursor), kept.length);
    } else if (!data.startsWith("\x1b") && !/[\x00-\x1f\x7f]/.test(data)) this.insert(data);
  }

  render(width: number): string[] {
    if (this.attached) return view().editorRows(width);
    const pad = Math.min(this.paddingX, Math.max(0, Math.floor((width - 1) / 2)));
    const room = Math.max(1, width - pad * 2 - (pad === 0 ? 1 : 0));
    const rows: string[] = [this.borderColor("─".repeat(Math.max(1, width)))];
    let offset = 0;
    for (const line of this.text.split("\n")) {
      let start = offset;
      for (const row of wrapCells(line, room)) {
        const at = this.cursor - start;
        const here =
          this.focused &&
          at >= 0 &&
          at <= row.length &&
          (at < row.length || start + row.length === offset + line.length);
        const shown = here
          ? `${row.slice(0, at)}${CURSOR_MARKER}\x1b[7m${row[at] ?? " "}\x1b[27m${row.slice(at + 1)}`
          : row;
        rows.push(" ".repeat(pad) + shown);
        start += row.length;
      }
      offset += line.length + 1;
    }
    rows.push(this.borderColor("─".repeat(Math.max(1, width))));
    return rows;
  }

  invalidate(): void {}

  getText(): string {
    return this.attached ? view().editorText() : this.text;
  }

  getExpandedText(): string {
    return this.getText();
  }

  getLines(): string[] {
    return this.getText().split("\n");
  }

  setText(text: string): void {
    if (this.attached) return view().setEditorText(String(text));
    this.edit(String(text), String(text).length);
  }

  insertTextAtCursor(text: string): void {
    if (this.attached) return view().pasteToEditor(String(text));
    this.insert(String(text));
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

  private insert(text: string): void {
    this.edit(this.text.slice(0, this.cursor) + text + this.text.slice(this.cursor), this.cursor + text.length);
  }

  private edit(text: string, cursor: number): void {
    const changed = text !== this.text;
    this.text = text;
    this.cursor = cursor;
    if (changed) this.onChange?.(text);
  }

  private moveLine(direction: -1 | 1, column: number): void {
    const lines = this.text.split("\n");
    let index = this.text.slice(0, this.cursor).split("\n").length - 1;
    index = Math.max(0, Math.min(lines.length - 1, index + direction));
    const start = lines.slice(0, index).reduce((sum, line) => sum + line.length + 1, 0);
    this.cursor = start + Math.min(column, lines[index]!.length);
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

/** pi-coding-agent's DynamicBorder: one rule across the width, in the colour function given. */
export class DynamicBorder {
  constructor(readonly color: (text: string) => string = (text) => text) {}

  invalidate(): void {}

  render(width: number): string[] {
    return [this.color("─".repeat(Math.max(1, width)))];
  }
}
