/**
 * The extension UI sub-protocol (pi's rpc.md, "Extension UI Protocol"): every UI call becomes an
 * `extension_ui_request` line on stdout. Dialogs (select, confirm, input, editor) wait for the client's
 * `extension_ui_response` with the same id; a timeout, an abort signal or the end of the connection
 * settles them with their default instead. Fire-and-forget calls expect no answer.
 *
 * This object is the plugin's `UiContract` provider. It is live only while an RPC run is attached;
 * outside one it has no user, so dialogs take their defaults at once and updates go nowhere.
 */
import { randomUUID } from "node:crypto";
import type { NotifyLevel, UiDialogOptions, UserInterface, WidgetPlacement } from "pi-host";
import type { UiResponse } from "./protocol.js";

interface PendingDialog {
  settle(response: UiResponse | undefined): void;
}

/** A dialog request before its id is given. */
type DialogRequest = { method: "select" | "confirm" | "input" | "editor"; [field: string]: unknown };

/** The RPC mode's user interface. */
export class RpcUserInterface implements UserInterface {
  private write: ((record: unknown) => void) | undefined = undefined;
  private readonly pending = new Map<string, PendingDialog>();

  /** Starts sending requests through `write` (one RPC run). */
  attach(write: (record: unknown) => void): void {
    this.write = write;
  }

  /** Stops sending; every open dialog settles with its default, since nobody can answer it now. */
  detach(): void {
    this.write = undefined;
    for (const dialog of [...this.pending.values()]) dialog.settle(undefined);
  }

  /** Routes a client's answer to its dialog; false when no open dialog has that id (late or unknown). */
  answer(response: UiResponse): boolean {
    const dialog = this.pending.get(response.id);
    if (dialog === undefined) return false;
    dialog.settle(response);
    return true;
  }

  /** How many dialogs wait for an answer. */
  get openDialogs(): number {
    return this.pending.size;
  }

  hasUI(): boolean {
    return this.write !== undefined;
  }

  select(title: string, options: string[], opts?: UiDialogOptions): Promise<string | undefined> {
    return this.dialog({ method: "select", title, options }, undefined, opts, textValueOf);
  }

  confirm(title: string, message: string, opts?: UiDialogOptions): Promise<boolean> {
    return this.dialog({ method: "confirm", title, message }, false, opts, (r) =>
      r.cancelled ? false : r.confirmed === true,
    );
  }

  input(title: string, placeholder?: string, opts?: UiDialogOptions): Promise<string | undefined> {
    return this.dialog({ method: "input", title, placeholder }, undefined, opts, textValueOf);
  }

  editor(title: string, prefill?: string, opts?: UiDialogOptions): Promise<string | undefined> {
    return this.dialog({ method: "editor", title, prefill }, undefined, opts, textValueOf);
  }

  notify(message: string, level?: NotifyLevel): void {
    this.send({ method: "notify", message, notifyType: level });
  }

  setStatus(key: string, text: string | undefined): void {
    this.send({ method: "setStatus", statusKey: key, statusText: text });
  }

  setWidget(key: string, lines: string[] | undefined, options?: { placement?: WidgetPlacement }): void {
    this.send({ method: "setWidget", widgetKey: key, widgetLines: lines, widgetPlacement: options?.placement });
  }

  setTitle(title: string): void {
    this.send({ method: "setTitle", title });
  }

  setEditorText(text: string): void {
    this.send({ method: "set_editor_text", text });
  }

  /** A fire-and-forget request; dropped when no client is attached. */
  private send(request: Record<string, unknown>): void {
    this.write?.({ type: "extension_ui_request", id: randomUUID(), ...request });
  }

  /**
   * Sends a dialog request and resolves with the parsed answer, or with `fallback` on timeout, abort,
   * or when no client is (or stays) attached. Never rejects.
   */
  private dialog<T>(
    request: DialogRequest,
    fallback: T,
    opts: UiDialogOptions | undefined,
    parse: (response: UiResponse) => T,
  ): Promise<T> {
    const write = this.write;
    if (write === undefined || opts?.signal?.aborted) return Promise.resolve(fallback);
    const id = randomUUID();
    return new Promise<T>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = () => dialog.settle(undefined);
      const dialog: PendingDialog = {
        settle: (response) => {
          if (!this.pending.delete(id)) return;
          clearTimeout(timer);
          opts?.signal?.removeEventListener("abort", onAbort);
          resolve(response === undefined ? fallback : parse(response));
        },
      };
      this.pending.set(id, dialog);
      opts?.signal?.addEventListener("abort", onAbort, { once: true });
      const timeout = opts?.timeout;
      if (typeof timeout === "number" && timeout > 0) timer = setTimeout(() => dialog.settle(undefined), timeout);
      write({ type: "extension_ui_request", id, ...request, ...(timeout !== undefined && { timeout }) });
    });
  }
}

/** A value answer (select, input, editor): the string, or undefined when cancelled or missing. */
function textValueOf(response: UiResponse): string | undefined {
  return response.cancelled || typeof response.value !== "string" ? undefined : response.value;
}
