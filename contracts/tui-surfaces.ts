/**
 * What other plugins draw inside the terminal view, and what the view offers them to draw with. pi
 * extensions replace the header, footer and editor, add component widgets, open custom screens and
 * overlays, and render their own messages and tool calls (pi's `ctx.ui.custom`, `setFooter`,
 * `registerMessageRenderer`, `renderCall`...). Their components live in the plugin that made them; the
 * view asks for their lines each frame and hands them keys, so a reload of the view keeps them.
 *
 * Two contracts: `tui/surfaces` (any number of providers, the view reads them) and `tui/app` (the view
 * provides it: theme colours, key bindings, redraw requests, editor text).
 */
import { defineContract } from "../kernel/index.js";
import type { TuiKey } from "./tui.js";

/** Where a surface goes: in place of the startup header, the footer or the editor, or around the editor. */
export type TuiSurfaceSlot = "header" | "footer" | "editor" | "aboveEditor" | "belowEditor";

/** pi-tui's overlay anchors. */
export type TuiOverlayAnchor =
  | "center"
  | "top-left"
  | "top-right"
  | "bottom-left"
  | "bottom-right"
  | "top-center"
  | "bottom-center"
  | "left-center"
  | "right-center";

/** A size or position: cells, or a percentage of the terminal ("50%"). */
export type TuiSizeValue = number | `${number}%`;

/** pi-tui's OverlayOptions, as pi 1.6.0 documents them. */
export interface TuiOverlayOptions {
  width?: TuiSizeValue;
  minWidth?: number;
  maxHeight?: TuiSizeValue;
  anchor?: TuiOverlayAnchor;
  offsetX?: number;
  offsetY?: number;
  /** An absolute row or column (cells or a percentage), in place of the anchor on that axis. */
  row?: TuiSizeValue;
  col?: TuiSizeValue;
  margin?: number | { top?: number; right?: number; bottom?: number; left?: number };
  /** Shown only while this answers true for the terminal's size. */
  visible?: (termWidth: number, termHeight: number) => boolean;
}

/** One overlay a provider shows now, back to front. */
export interface TuiOverlaySpec {
  id: string;
  options: TuiOverlayOptions;
}

/** A custom message (pi's `sendMessage` with a `customType`) as the transcript shows it. */
export interface TuiCustomMessage {
  customType: string;
  content: string | Array<{ type: string; text?: string }>;
  display?: boolean;
  details?: unknown;
}

/** A tool call as the transcript shows it, for a tool's own `renderCall` / `renderResult`. */
export interface TuiToolRender {
  toolCallId: string;
  toolName: string;
  args: unknown;
  /** The (partial) result, once there is one. */
  result?: { content: unknown[]; details?: unknown; isError: boolean };
  /** The result is an update while the tool still runs. */
  isPartial: boolean;
  executionStarted: boolean;
}

/** What rendering depends on besides the thing rendered. */
export interface TuiRenderOptions {
  width: number;
  /** Ctrl+O: tool output (and custom messages' details) shown in full. */
  expanded: boolean;
}

/** A tool's own rendering of its call row and result; a slot left undefined keeps the view's own. */
export interface TuiToolRows {
  call?: string[];
  result?: string[];
  /** pi's `renderShell: "self"`: the rows are drawn without the view's tool box. */
  selfShell?: boolean;
}

/** Where markdown is shown, for `transformMarkdown` (pi's MarkdownTransformContext). */
export interface TuiMarkdownContext {
  messageType: "user" | "assistant" | "assistant-thinking" | "custom" | "summary" | "changelog";
  isStreaming: boolean;
  /** Columns the markdown is drawn in. */
  availableWidth: number;
}

/** A custom session entry (pi's `appendEntry`) as the transcript shows it. */
export interface TuiCustomEntry {
  id: string;
  customType: string;
  data?: unknown;
}

/** One completion choice (pi-tui's AutocompleteItem). */
export interface TuiCompletionItem {
  value: string;
  label: string;
  description?: string;
}

/** A completion list and the text before the cursor its items replace (pi-tui's AutocompleteSuggestions). */
export interface TuiSuggestions {
  items: TuiCompletionItem[];
  prefix: string;
}

/** The editor's lines and cursor after a completion is taken. */
export interface TuiCompletionEdit {
  lines: string[];
  cursorLine: number;
  cursorCol: number;
}

/**
 * A completion source shaped as pi-tui's AutocompleteProvider: the view's own (`/` commands, `@` files)
 * or one a plugin stacks over it. `force` is a Tab that asks for file completion where no list opened.
 */
export interface TuiCompleter {
  /** Characters that open the list when typed at the start of a word (besides `/`, `@` and `#`). */
  triggerCharacters?: string[];
  getSuggestions(
    lines: string[],
    cursorLine: number,
    cursorCol: number,
    options: { signal: AbortSignal; force?: boolean },
  ): Promise<TuiSuggestions | null>;
  applyCompletion(
    lines: string[],
    cursorLine: number,
    cursorCol: number,
    item: TuiCompletionItem,
    prefix: string,
  ): TuiCompletionEdit;
  /** Whether a forced (Tab) completion may run here; absent: it may. */
  shouldTriggerFileCompletion?(lines: string[], cursorLine: number, cursorCol: number): boolean;
}

/** What one plugin draws in the view. Every method is called while a frame is built or a key is handled. */
export interface TuiSurfaces {
  /** Lines for a slot now; undefined leaves the view's own header, footer or editor (and no widget). */
  slot(slot: TuiSurfaceSlot, width: number): string[] | undefined;
  /** The overlays shown now, back to front. */
  overlays(): TuiOverlaySpec[];
  /** An overlay's lines at the width its layout gives it. */
  renderOverlay(id: string, width: number): string[];
  /**
   * Offers a key before the view's own bindings: true when this provider took it (its custom screen or
   * focused overlay has the keyboard, or a terminal-input listener consumed it).
   */
  input(key: TuiKey): boolean;
  /** A custom message's rows, or undefined for the view's own rendering. */
  renderMessage(message: TuiCustomMessage, options: TuiRenderOptions): string[] | undefined;
  /** A tool's rows, or undefined when the tool has no renderer of its own. */
  renderTool(tool: TuiToolRender, options: TuiRenderOptions): TuiToolRows | undefined;
  /** A custom entry's rows (its renderer's), or undefined when this provider has no renderer for it. */
  renderEntry(entry: TuiCustomEntry, options: TuiRenderOptions): string[] | undefined;
  /** The markdown to draw in place of `markdown` (display only); the text itself when nothing changes it. */
  transformMarkdown(markdown: string, context: TuiMarkdownContext): string;
  /**
   * 1.1.0: `base` with this provider's completers stacked over it, oldest first, each wrapping the one
   * below (pi's `ctx.ui.addAutocompleteProvider`); `base` itself when it has none. The view asks each
   * provider in turn, passing on what the previous one returned, whenever it starts a completion.
   */
  completer?(base: TuiCompleter): TuiCompleter;
  /**
   * 1.1.0: the component of this provider that waits for the user now (pi's `custom()` option `blocked`),
   * the most recently shown one; undefined when none does. The view reports it as the program status.
   */
  blocked?(): TuiBlocked | undefined;
}

/** Why a component waits for the user (pi's `blocked` option of `custom()`). */
export interface TuiBlocked {
  kind: "question" | "permission" | "auth";
  message: string;
}

/**
 * Any number of providers; for the header, footer and editor the first that answers wins.
 * Version notes — 1.1.0: `completer`, for completion sources stacked over the view's own; `blocked`.
 */
export const TuiSurfacesContract = defineContract<TuiSurfaces>({
  id: "tui/surfaces",
  version: "1.1.0",
  kind: "many",
  gate: "overlap",
  shape: {
    slot: "function",
    overlays: "function",
    renderOverlay: "function",
    input: "function",
    renderMessage: "function",
    renderTool: "function",
    renderEntry: "function",
    transformMarkdown: "function",
  },
  methods: {
    slot: "sync",
    overlays: "sync",
    renderOverlay: "sync",
    input: "sync",
    renderMessage: "sync",
    renderTool: "sync",
    renderEntry: "sync",
    transformMarkdown: "sync",
    completer: "sync",
    blocked: "sync",
  },
});

/** The running view's theme, as pi's `Theme` describes itself. */
export interface TuiThemeInfo {
  name: string;
  appearance: "dark" | "light";
  /** The theme file, for a theme read from one. */
  path?: string;
}

/** What the terminal view offers plugins that draw into it. */
export interface TuiApp {
  /** Whether an interactive run shows the view now. */
  running(): boolean;
  /** The active theme, or the one named `name` (undefined when there is no such theme). */
  theme(name?: string): TuiThemeInfo | undefined;
  /**
   * `text` in the colour of `token` (foreground or background) of the active theme, or of the theme
   * named `theme`; unknown tokens leave it as it is.
   */
  paint(token: string, text: string, layer: "fg" | "bg", theme?: string): string;
  /** The SGR sequence of `token` ("" when the theme has none). */
  ansi(token: string, layer: "fg" | "bg", theme?: string): string;
  /** The themes a user can choose, by name. */
  themes(): Array<{ name: string; path?: string }>;
  /**
   * Adds theme files or folders of `*.json` themes to this run's themes (pi extensions' `themePaths`);
   * returns one line per problem (unreadable, invalid, a name already taken).
   */
  addThemes(paths: string[]): string[];
  /** Switches the theme for this run. */
  setTheme(name: string): { success: true } | { success: false; error: string };
  /** The key ids (pi's spelling, "ctrl+c") bound to a keybindings.json action ("tui.select.up"). */
  actionKeys(action: string): string[];
  /** Asks for a frame: a component changed. */
  requestRender(): void;
  editorText(): string;
  /** Replaces the editor's text (the cursor goes to its end). */
  setEditorText(text: string): void;
  /** Inserts at the editor's cursor, as a paste. */
  pasteToEditor(text: string): void;
  /**
   * The view's own editor at `width` — its borders and text rows, `CURSOR_MARKER` (pi-tui's) before the
   * cursor — for a replacement editor that draws the built-in one with changes (pi's `CustomEditor`).
   */
  editorRows(width: number): string[];
  /**
   * A key for the view's own editor and bindings, past every provider's `input` (pi's `CustomEditor`
   * passing a key on to `super.handleInput`). What the key asks of the shell (exit...) is returned by the
   * `handleKey` that is running.
   */
  editorKey(key: TuiKey): void;
  toolsExpanded(): boolean;
  setToolsExpanded(expanded: boolean): void;
  /**
   * Changes the row shown while the agent works (pi's `setWorkingMessage`, `setWorkingVisible`,
   * `setWorkingIndicator`) and the collapsed thinking label (`setHiddenThinkingLabel`). Fields left
   * out stay; `null` restores the view's own.
   */
  setWorking(change: TuiWorkingChange): void;
  /**
   * 1.1.0: the renderers a provider draws messages, entries or tools with changed (pi extensions loaded,
   * after the transcript was drawn): every row is drawn again.
   */
  renderersChanged?(): void;
}

/** A change to the working row; see `TuiApp.setWorking`. */
export interface TuiWorkingChange {
  message?: string | null;
  visible?: boolean;
  /** Frames drawn as given, one per `intervalMs`; `frames: []` shows no indicator. */
  indicator?: { frames: string[]; intervalMs?: number } | null;
  hiddenThinkingLabel?: string | null;
}

/** The view's side; one view runs. 1.1.0: `renderersChanged`. */
export const TuiAppContract = defineContract<TuiApp>({
  id: "tui/app",
  version: "1.1.0",
  kind: "single",
  gate: "overlap",
  shape: { running: "function", paint: "function", requestRender: "function" },
  methods: {
    running: "sync",
    theme: "sync",
    paint: "sync",
    ansi: "sync",
    themes: "sync",
    addThemes: "sync",
    setTheme: "sync",
    actionKeys: "sync",
    requestRender: "sync",
    editorText: "sync",
    setEditorText: "sync",
    pasteToEditor: "sync",
    editorRows: "sync",
    editorKey: "sync",
    toolsExpanded: "sync",
    setToolsExpanded: "sync",
    setWorking: "sync",
    renderersChanged: "sync",
  },
});
