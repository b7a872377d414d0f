/**
 * pi-tui's interactive controls for extensions' custom screens: `SelectList` (a list with a moving
 * selection, paging and a filter) and `Input` (one line of text with a cursor and horizontal scrolling),
 * with pi-tui's `getKeybindings()` — the running TUI's keybindings.json once the TUI runs, pi's default
 * keys before. They read raw terminal input in `handleInput(data)`, as pi's do.
 */
import { CURSOR_MARKER, type Component, matchesKey, truncateToWidth, visibleWidth } from "./pi-tui.js";

/** pi-tui's KeybindingsManager: keys per action id, and whether input is one of them. */
export interface KeybindingsManager {
  getKeys(action: string): string[];
  matches(data: string, action: string): boolean;
}

const DEFAULT_KEYS: Record<string, string[]> = {
  "tui.select.up": ["up"],
  "tui.select.down": ["down"],
  "tui.select.pageUp": ["pageUp"],
  "tui.select.pageDown": ["pageDown"],
  "tui.select.confirm": ["enter"],
  "tui.select.cancel": ["escape", "ctrl+c"],
  "tui.input.submit": ["enter"],
};

const defaults: KeybindingsManager = {
  getKeys: (action) => DEFAULT_KEYS[action] ?? [],
  matches: (data, action) => (DEFAULT_KEYS[action] ?? []).some((key) => matchesKey(data, key)),
};

let current: () => KeybindingsManager = () => defaults;

/** pi-tui's `getKeybindings()`. */
export function getKeybindings(): KeybindingsManager {
  return current();
}

/** Where `getKeybindings()` reads from (the plugin points it at the running TUI's bindings). */
export function useKeybindings(source: () => KeybindingsManager | undefined): void {
  current = () => source() ?? defaults;
}

/** pi-tui's SelectItem. */
export interface SelectItem {
  value: string;
  label: string;
  description?: string;
}

/** pi-tui's SelectListTheme. */
export interface SelectListTheme {
  selectedPrefix: (text: string) => string;
  selectedText: (text: string) => string;
  description: (text: string) => string;
  scrollInfo: (text: string) => string;
  noMatch: (text: string) => string;
}

const oneLine = (text: string): string => text.replace(/[\r\n]+/g, " ").trim();

/** pi-tui's SelectList: `→` marks the selection; Enter calls onSelect, Escape onCancel. */
export class SelectList implements Component {
  private filtered: SelectItem[];
  private selected = 0;
  onSelect?: (item: SelectItem) => void;
  onCancel?: () => void;
  onSelectionChange?: (item: SelectItem) => void;

  constructor(
    private readonly items: SelectItem[],
    private readonly maxVisible: number,
    private readonly theme: SelectListTheme,
    private readonly layout: { minPrimaryColumnWidth?: number; maxPrimaryColumnWidth?: number } = {},
  ) {
    this.filtered = items;
  }

  setFilter(filter: string): void {
    this.filtered = this.items.filter((item) => item.value.toLowerCase().startsWith(filter.toLowerCase()));
    this.selected = 0;
  }

  setSelectedIndex(index: number): void {
    this.selected = Math.max(0, Math.min(index, this.filtered.length - 1));
  }

  getSelectedItem(): SelectItem | null {
    return this.filtered[this.selected] ?? null;
  }

  invalidate(): void {}

  render(width: number): string[] {
    if (this.filtered.length === 0) return [this.theme.noMatch("  No matching commands")];
    const { start, end } = this.range();
    const column = this.primaryWidth();
    const lines: string[] = [];
    for (let i = start; i < end; i++) lines.push(this.row(this.filtered[i]!, i === this.selected, width, column));
    if (start > 0 || end < this.filtered.length)
      lines.push(
        this.theme.scrollInfo(truncateToWidth(`  (${this.selected + 1}/${this.filtered.length})`, width - 2, "")),
      );
    return lines;
  }

  handleInput(data: string): void {
    const keys = getKeybindings();
    const count = this.filtered.length;
    const before = this.selected;
    if (keys.matches(data, "tui.select.up")) this.selected = this.selected === 0 ? count - 1 : this.selected - 1;
    else if (keys.matches(data, "tui.select.down")) this.selected = this.selected === count - 1 ? 0 : this.selected + 1;
    else if (keys.matches(data, "tui.select.pageUp")) this.selected = Math.max(0, this.selected - this.maxVisible);
    else if (keys.matches(data, "tui.select.pageDown"))
      this.selected = Math.min(count - 1, this.selected + this.maxVisible);
    else if (keys.matches(data, "tui.select.confirm")) {
      const item = this.filtered[this.selected];
      if (item !== undefined) this.onSelect?.(item);
      return;
    } else if (keys.matches(data, "tui.select.cancel")) {
      this.onCancel?.();
      return;
    }
    const item = this.filtered[this.selected];
    if (this.selected !== before && item !== undefined) this.onSelectionChange?.(item);
  }

  private range(): { start: number; end: number } {
    const start = Math.max(
      0,
      Math.min(this.selected - Math.floor(this.maxVisible / 2), this.filtered.length - this.maxVisible),
    );
    return { start, end: Math.min(start + this.maxVisible, this.filtered.length) };
  }

  private primaryWidth(): number {
    const min = Math.max(1, this.layout.minPrimaryColumnWidth ?? this.layout.maxPrimaryColumnWidth ?? 32);
    const max = Math.max(min, this.layout.maxPrimaryColumnWidth ?? this.layout.minPrimaryColumnWidth ?? 32);
    const widest = this.filtered.reduce((w, item) => Math.max(w, visibleWidth(item.label || item.value) + 2), 0);
    return Math.max(min, Math.min(widest, max));
  }

  private row(item: SelectItem, selected: boolean, width: number, column: number): string {
    const prefix = selected ? "→ " : "  ";
    const label = item.label || item.value;
    const description = item.description === undefined ? undefined : oneLine(item.description);
    if (description !== undefined && width > 40) {
      const primary = Math.max(1, Math.min(column, width - 6));
      const value = truncateToWidth(label, Math.max(1, primary - 2), "");
      const spacing = " ".repeat(Math.max(1, primary - visibleWidth(value)));
      const room = width - 2 - visibleWidth(value) - spacing.length - 2;
      if (room > 10) {
        const text = truncateToWidth(description, room, "");
        return selected
          ? this.theme.selectedText(`${prefix}${value}${spacing}${text}`)
          : prefix + value + this.theme.description(spacing + text);
      }
    }
    const value = truncateToWidth(label, width - 4, "");
    return selected ? this.theme.selectedText(`${prefix}${value}`) : prefix + value;
  }
}

/** pi-tui's Input: a prompt ("> ") and one line of text; Enter calls onSubmit, Escape onEscape. */
export class Input implements Component {
  private value = "";
  private cursor = 0;
  private readonly prompt: string;
  private readonly placeholder: string;
  private readonly placeholderStyle: (text: string) => string;
  onSubmit?: (value: string) => void;
  onEscape?: () => void;
  /** Set by the focusing container: the cursor is drawn (and the terminal cursor placed) only then. */
  focused = false;

  constructor(options: { prompt?: string; placeholder?: string; placeholderStyle?: (text: string) => string } = {}) {
    this.prompt = options.prompt ?? "> ";
    this.placeholder = options.placeholder ?? "";
    this.placeholderStyle = options.placeholderStyle ?? ((text) => text);
  }

  getValue(): string {
    return this.value;
  }

  setValue(value: string): void {
    this.value = value.replace(/[\r\n]+/g, " ");
    this.cursor = Math.min(this.cursor, this.value.length);
  }

  handleInput(data: string): void {
    const paste = /^\x1b\[200~([\s\S]*)\x1b\[201~$/.exec(data);
    if (paste !== null) return this.insert(paste[1]!.replace(/[\r\n]+/g, " "));
    const is = (key: string) => matchesKey(data, key);
    const before = this.value.slice(0, this.cursor);
    const after = this.value.slice(this.cursor);
    if (getKeybindings().matches(data, "tui.input.submit") || is("enter")) this.onSubmit?.(this.value);
    else if (is("escape")) this.onEscape?.();
    else if (is("backspace")) this.edit(before.slice(0, -1) + after, Math.max(0, this.cursor - 1));
    else if (is("delete") || is("ctrl+d")) this.edit(before + after.slice(1), this.cursor);
    else if (is("left") || is("ctrl+b")) this.cursor = Math.max(0, this.cursor - 1);
    else if (is("right") || is("ctrl+f")) this.cursor = Math.min(this.value.length, this.cursor + 1);
    else if (is("home") || is("ctrl+a")) this.cursor = 0;
    else if (is("end") || is("ctrl+e")) this.cursor = this.value.length;
    else if (is("ctrl+u")) this.edit(after, 0);
    else if (is("ctrl+k")) this.edit(before, this.cursor);
    else if (is("ctrl+w") || is("alt+backspace")) {
      const kept = before.replace(/\S+\s*$/, "");
      this.edit(kept + after, kept.length);
    } else if (!data.startsWith("\x1b") && !/[\x00-\x1f\x7f]/.test(data)) this.insert(data);
  }

  invalidate(): void {}

  render(width: number): string[] {
    const room = width - visibleWidth(this.prompt);
    if (room <= 0) return [truncateToWidth(this.prompt, width, "")];
    const marker = this.focused ? CURSOR_MARKER : "";
    if (this.value === "" && this.placeholder !== "") {
      const text = truncateToWidth(this.placeholder, room, "");
      const first = [...text][0] ?? " ";
      const line = `${marker}\x1b[7m${this.placeholderStyle(first)}\x1b[27m${this.placeholderStyle(text.slice(first.length))}`;
      return [this.prompt + line + " ".repeat(Math.max(0, room - visibleWidth(line)))];
    }
    // Scroll so the cursor stays in view, one cell kept for it at the end.
    const start = Math.max(0, this.cursor - Math.max(1, room - 1));
    const visible = this.value.slice(start, start + room);
    const at = this.cursor - start;
    const under = visible[at] ?? " ";
    const line = `${visible.slice(0, at)}${marker}\x1b[7m${under}\x1b[27m${visible.slice(at + 1)}`;
    return [this.prompt + truncateToWidth(line, room, "", true)];
  }

  private insert(text: string): void {
    this.edit(this.value.slice(0, this.cursor) + text + this.value.slice(this.cursor), this.cursor + text.length);
  }

  private edit(value: string, cursor: number): void {
    this.value = value;
    this.cursor = cursor;
  }
}
