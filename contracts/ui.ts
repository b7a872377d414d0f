/**
 * The user interface plugins may talk to: dialogs (select, confirm, input, editor) that wait for the
 * user, and fire-and-forget updates (notify, status, widget, title, editor text). Method names and
 * defaults follow pi's `ctx.ui`, so the pi-extensions plugin can hand this straight to extensions.
 *
 * Every mode that can reach a user (RPC, the TUI) provides one slot keyed by its mode name, but only the
 * mode that is running answers: `hasUI()` is true only then. `activeUi` picks that provider, or falls
 * back to `NO_UI`, which answers every dialog with its default at once.
 */
import { defineContract, type Handle } from "../kernel/index.js";

/** How a dialog may end without the user: an abort signal, or a timeout after which it takes its default. */
export interface UiDialogOptions {
  signal?: AbortSignal;
  /** Milliseconds; the dialog then resolves with its default (undefined, or false for confirm). */
  timeout?: number;
}

/** Where a widget goes relative to the editor. */
export type WidgetPlacement = "aboveEditor" | "belowEditor";

/** pi's notification levels. */
export type NotifyLevel = "info" | "warning" | "error";

/** One mode's user interface. Dialogs never reject: a dismissed, timed-out or aborted dialog gives its default. */
export interface UserInterface {
  /** Whether a user can answer dialogs right now (pi's `ctx.hasUI`). */
  hasUI(): boolean;
  /** A choice among `options`; undefined when dismissed. */
  select(title: string, options: string[], opts?: UiDialogOptions): Promise<string | undefined>;
  /** Yes or no; false when dismissed. */
  confirm(title: string, message: string, opts?: UiDialogOptions): Promise<boolean>;
  /** One line of text; undefined when dismissed. */
  input(title: string, placeholder?: string, opts?: UiDialogOptions): Promise<string | undefined>;
  /** Multi-line text, starting from `prefill`; undefined when dismissed. */
  editor(title: string, prefill?: string, opts?: UiDialogOptions): Promise<string | undefined>;
  notify(message: string, level?: NotifyLevel): void;
  /** Sets the status entry `key`; undefined clears it. */
  setStatus(key: string, text: string | undefined): void;
  /** Sets the widget `key` to these lines; undefined clears it. */
  setWidget(key: string, lines: string[] | undefined, options?: { placement?: WidgetPlacement }): void;
  setTitle(title: string): void;
  setEditorText(text: string): void;
}

/** One slot per mode that has a user interface (key: the mode name). */
export const UiContract = defineContract<UserInterface>({
  id: "ui",
  version: "1.0.0",
  kind: "many",
  gate: "overlap",
  shape: {
    hasUI: "function",
    select: "function",
    confirm: "function",
    input: "function",
    editor: "function",
    notify: "function",
  },
  methods: {
    hasUI: "sync",
    select: "async",
    confirm: "async",
    input: "async",
    editor: "async",
    notify: "sync",
    setStatus: "sync",
    setWidget: "sync",
    setTitle: "sync",
    setEditorText: "sync",
  },
});

/** The interface of no user: every dialog takes its default at once, every update goes nowhere. */
export const NO_UI: UserInterface = {
  hasUI: () => false,
  select: async () => undefined,
  confirm: async () => false,
  input: async () => undefined,
  editor: async () => undefined,
  notify: () => {},
  setStatus: () => {},
  setWidget: () => {},
  setTitle: () => {},
  setEditorText: () => {},
};

/**
 * The provider whose mode is running now, called through its stable handle (so a reload never tears a
 * dialog in half), or `NO_UI` when no mode with a user interface is running.
 */
export function activeUi(providers: { list(): Array<Handle<UserInterface>> }): UserInterface {
  const handle = providers.list().find((h) => h.peek()?.hasUI() === true);
  if (handle === undefined) return NO_UI;
  return {
    hasUI: () => handle.api.hasUI(),
    select: (title, options, opts) => handle.api.select(title, options, opts),
    confirm: (title, message, opts) => handle.api.confirm(title, message, opts),
    input: (title, placeholder, opts) => handle.api.input(title, placeholder, opts),
    editor: (title, prefill, opts) => handle.api.editor(title, prefill, opts),
    notify: (message, level) => handle.api.notify(message, level),
    setStatus: (key, text) => handle.api.setStatus(key, text),
    setWidget: (key, lines, options) => handle.api.setWidget(key, lines, options),
    setTitle: (title) => handle.api.setTitle(title),
    setEditorText: (text) => handle.api.setEditorText(text),
  };
}
