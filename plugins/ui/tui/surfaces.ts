/**
 * What other plugins draw in the view (`tui/surfaces`, pi extensions' components), read as the view
 * builds a frame: the header, footer and editor in place of the view's own (the first provider that
 * answers), widgets around the editor, overlays over the screen, their messages' and tools' rows, and
 * keys offered to them before the view's bindings. A provider that fails or is reloading counts as
 * having nothing to show.
 */
import type { Handle, TuiCustomMessage, TuiKey, TuiRenderOptions, TuiSurfaceSlot, TuiSurfaces } from "pi-host";
import type { TuiBlocked, TuiCompleter, TuiCustomEntry, TuiMarkdownContext, TuiToolRender, TuiToolRows } from "pi-host";
import { composite, layoutOverlay, placeOverlay } from "./overlays.js";
import { cellWidth, truncate } from "./text.js";

/** pi-tui's CURSOR_MARKER: where a focused component wants the terminal cursor. */
export const CURSOR_MARKER = "\x1b_pi:c\x07";
/** pi-tui's fake cursor (`renderFakeCursor`): drawn in reverse video. */
const FAKE_CURSOR_START = "\x1b_pi:fc\x07";
const FAKE_CURSOR_END = "\x1b_pi:/fc\x07";
/** Other APC, OSC and cursor sequences a row must not carry into the frame. */
const NON_SGR = /\x1b_[^\x07]*\x07|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b\[[0-9;?]*[A-La-ln-z@]/g;

/** A provider's rows made safe for a frame: no control sequences but colours, none wider than `width`. */
export function cleanRows(
  rows: readonly string[],
  width: number,
): { rows: string[]; cursor?: { row: number; col: number } } {
  let cursor: { row: number; col: number } | undefined;
  const out = rows.map((raw, index) => {
    const row = String(raw);
    const at = row.indexOf(CURSOR_MARKER);
    if (at >= 0 && cursor === undefined) cursor = { row: index, col: cellWidth(row.slice(0, at).replace(NON_SGR, "")) };
    const clean = row
      .replaceAll(FAKE_CURSOR_START, "\x1b[7m")
      .replaceAll(FAKE_CURSOR_END, "\x1b[27m")
      .replace(NON_SGR, "")
      .replace(/[\r\n\t]/g, " ");
    return cellWidth(clean) > width ? truncate(clean, width) : clean;
  });
  return cursor === undefined ? { rows: out } : { rows: out, cursor };
}

/** The providers, as the view asks them. */
export class ViewSurfaces {
  constructor(private readonly providers: () => ReadonlyArray<Handle<TuiSurfaces>>) {}

  /** Lines for a slot, cleaned; undefined when no provider fills it. */
  slot(slot: TuiSurfaceSlot, width: number): { rows: string[]; cursor?: { row: number; col: number } } | undefined {
    const widgets = slot === "aboveEditor" || slot === "belowEditor";
    const rows: string[] = [];
    for (const provider of this.each()) {
      const lines = attempt(() => provider.slot(slot, width));
      if (lines === undefined) continue;
      if (!widgets) return cleanRows(lines, width);
      rows.push(...cleanRows(lines, width).rows);
    }
    return rows.length === 0 ? undefined : { rows };
  }

  /** Offers a key; true when a provider took it. */
  input(key: TuiKey): boolean {
    return this.each().some((provider) => attempt(() => provider.input(key)) === true);
  }

  renderMessage(message: TuiCustomMessage, options: TuiRenderOptions): string[] | undefined {
    for (const provider of this.each()) {
      const rows = attempt(() => provider.renderMessage(message, options));
      if (rows !== undefined) return cleanRows(rows, options.width).rows;
    }
    return undefined;
  }

  /** A custom entry's rows from the first provider with a renderer for it; undefined: none (not shown). */
  renderEntry(entry: TuiCustomEntry, options: TuiRenderOptions): string[] | undefined {
    for (const provider of this.each()) {
      const rows = attempt(() => provider.renderEntry(entry, options));
      if (rows !== undefined) return cleanRows(rows, options.width).rows;
    }
    return undefined;
  }

  /** The markdown after every provider's transformers (display only). */
  transformMarkdown(markdown: string, context: TuiMarkdownContext): string {
    let out = markdown;
    for (const provider of this.each()) {
      const next = attempt(() => provider.transformMarkdown(out, context));
      if (typeof next === "string") out = next;
    }
    return out;
  }

  renderTool(tool: TuiToolRender, options: TuiRenderOptions): TuiToolRows | undefined {
    for (const provider of this.each()) {
      const rows = attempt(() => provider.renderTool(tool, options));
      if (rows === undefined) continue;
      return {
        ...rows,
        ...(rows.call !== undefined && { call: cleanRows(rows.call, options.width).rows }),
        ...(rows.result !== undefined && { result: cleanRows(rows.result, options.width).rows }),
      };
    }
    return undefined;
  }

  /** `base` with what every provider stacks over it, in provider order (`tui/surfaces` 1.1's `completer`). */
  completer(base: TuiCompleter): TuiCompleter {
    let current = base;
    for (const provider of this.each()) {
      if (typeof provider.completer !== "function") continue;
      const next = attempt(() => provider.completer?.(current));
      if (next !== undefined) current = next;
    }
    return current;
  }

  /** What the newest-listed provider that has a component waiting for the user reports, if any. */
  blocked(): TuiBlocked | undefined {
    let found: TuiBlocked | undefined;
    for (const provider of this.each()) found = attempt(() => provider.blocked?.()) ?? found;
    return found;
  }

  /** Draws every provider's overlays over the `screen` rows (`cols` × screen.length), back to front. */
  drawOverlays(screen: string[], cols: number): void {
    const rows = screen.length;
    for (const provider of this.each()) {
      for (const spec of attempt(() => provider.overlays()) ?? []) {
        const box = attempt(() => layoutOverlay(spec.options, cols, rows));
        if (box === undefined) continue;
        const lines = attempt(() => provider.renderOverlay(spec.id, box.width)) ?? [];
        const clean = cleanRows(lines, box.width).rows.slice(0, box.maxHeight);
        composite(screen, clean, placeOverlay(box, clean.length, spec.options, cols, rows), cols);
      }
    }
  }

  /** Regular mode: the overlays go over the screen's part of the document, its last `height` rows. */
  drawOverlaysOnTail(document: string[], cols: number, height: number): void {
    if (!this.each().some((provider) => (attempt(() => provider.overlays()) ?? []).length > 0)) return;
    const start = Math.max(0, document.length - height);
    const screen = document.slice(start);
    this.drawOverlays(screen, cols);
    document.splice(start, screen.length, ...screen);
  }

  private each(): TuiSurfaces[] {
    return this.providers()
      .map((handle) => handle.peek())
      .filter((api): api is TuiSurfaces => api !== undefined);
  }
}

function attempt<T>(work: () => T): T | undefined {
  try {
    return work();
  } catch {
    return undefined;
  }
}
