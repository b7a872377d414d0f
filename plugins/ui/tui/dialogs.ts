/**
 * Dialogs other plugins open through the `ui` contract (an extension's `ctx.ui.select(...)`), shown by the
 * view in place of the editor. What a dialog shows is view state (so it is drawn like everything else);
 * the promise waiting for the answer is not state — it lives here, in this generation, and is settled with
 * the dialog's default when the user cannot answer any more (timeout, abort signal, the end of the run,
 * or this generation retiring).
 */
import type { UiDialogOptions } from "pi-host";
import type { Dialog, ViewState } from "./state.js";

/** A dialog to show, before it has an id. */
export type DialogSpec = Omit<Dialog, "id" | "selected" | "text"> & { text?: string };

interface Waiting {
  settle(value: unknown): void;
}

/** Opens dialogs in the view state and settles their promises. */
export class DialogBroker {
  private readonly waiting = new Map<string, Waiting>();
  private next = 1;

  constructor(
    private readonly state: () => ViewState | undefined,
    private readonly changed: () => void,
  ) {}

  /** Shows `spec` and resolves with the user's answer, or `fallback` when it cannot be answered. */
  open<T>(spec: DialogSpec, fallback: T, options?: UiDialogOptions): Promise<T> {
    const s = this.state();
    if (s === undefined || !s.running || options?.signal?.aborted) return Promise.resolve(fallback);
    const id = `${Date.now().toString(36)}-${this.next++}`;
    s.dialogs.push({ ...spec, id, selected: 0, text: spec.text ?? "" });
    this.changed();
    return new Promise<T>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = (): void => this.settle(id, undefined);
      const waiting: Waiting = {
        settle: (value) => {
          clearTimeout(timer);
          options?.signal?.removeEventListener("abort", onAbort);
          resolve((value === undefined ? fallback : value) as T);
        },
      };
      this.waiting.set(id, waiting);
      if (options?.timeout !== undefined) timer = setTimeout(onAbort, options.timeout);
      options?.signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** The user answered (or dismissed: `undefined`) dialog `id`; it leaves the screen. */
  settle(id: string, value: unknown): void {
    const s = this.state();
    if (s !== undefined) {
      const index = s.dialogs.findIndex((d) => d.id === id);
      if (index >= 0) {
        s.dialogs.splice(index, 1);
        this.changed();
      }
    }
    const waiting = this.waiting.get(id);
    this.waiting.delete(id);
    waiting?.settle(value);
  }

  /** Nobody can answer any more: every open dialog takes its default. */
  settleAll(): void {
    for (const id of [...this.waiting.keys()]) this.settle(id, undefined);
  }
}
