/**
 * The interactive mode's `ui` (contract `ui`, key "interactive"): how other plugins — pi extensions above
 * all — reach the user while the TUI runs. Dialogs appear in place of the editor; notices go into the
 * transcript; status entries and widgets sit around the editor; the title goes to the terminal. Outside a
 * run `hasUI()` is false and every dialog takes its default at once.
 */
import type { NotifyLevel, UiDialogOptions, UserInterface, WidgetPlacement } from "pi-host";
import type { DialogBroker } from "./dialogs.js";
import type { ViewState } from "./state.js";

/** Keeps the transcript code out of this light module: a notice is one entry. */
function pushNotice(s: ViewState, text: string, level: NotifyLevel): void {
  s.entries.push({ id: s.nextId++, rev: 0, kind: "notice", text, level });
}

/** The `ui` provider; every call reads and changes the view state, then asks for a frame. */
export class TuiUserInterface implements UserInterface {
  constructor(
    private readonly state: () => ViewState | undefined,
    private readonly dialogs: DialogBroker,
    private readonly changed: () => void,
  ) {}

  hasUI(): boolean {
    return this.state()?.running === true;
  }

  select(title: string, options: string[], opts?: UiDialogOptions): Promise<string | undefined> {
    return this.dialogs.open<string | undefined>({ kind: "select", title, options }, undefined, opts);
  }

  confirm(title: string, message: string, opts?: UiDialogOptions): Promise<boolean> {
    return this.dialogs.open<boolean>({ kind: "confirm", title, message, options: ["Yes", "No"] }, false, opts);
  }

  input(title: string, placeholder?: string, opts?: UiDialogOptions): Promise<string | undefined> {
    return this.dialogs.open<string | undefined>({ kind: "input", title, message: placeholder }, undefined, opts);
  }

  editor(title: string, prefill?: string, opts?: UiDialogOptions): Promise<string | undefined> {
    return this.dialogs.open<string | undefined>({ kind: "editor", title, text: prefill ?? "" }, undefined, opts);
  }

  notify(message: string, level: NotifyLevel = "info"): void {
    this.update((s) => pushNotice(s, message, level));
  }

  setStatus(key: string, text: string | undefined): void {
    this.update((s) => {
      if (text === undefined) delete s.statuses[key];
      else s.statuses[key] = text;
    });
  }

  setWidget(key: string, lines: string[] | undefined, options?: { placement?: WidgetPlacement }): void {
    this.update((s) => {
      if (lines === undefined) delete s.widgets[key];
      else s.widgets[key] = { lines: [...lines], placement: options?.placement ?? "aboveEditor" };
    });
  }

  setTitle(title: string): void {
    this.update((s) => (s.title = title));
  }

  setEditorText(text: string): void {
    this.update((s) => {
      s.editor = { text, cursor: text.length };
    });
  }

  private update(change: (s: ViewState) => void): void {
    const s = this.state();
    if (s === undefined || !s.running) return;
    change(s);
    this.changed();
  }
}
