/**
 * Completion through the completers other plugins stack over the view's own (`tui/surfaces`' `completer`,
 * pi's `ctx.ui.addAutocompleteProvider`). While none is stacked the view completes as complete.ts does,
 * synchronously; once one is, every list comes from the stack, asked as pi's editor asks its provider:
 * `/` at the start of the prompt, a trigger character (`@`, `#`, the stack's `triggerCharacters`) at the
 * start of a word, typing inside such a word or an open list, and Tab (forced). Answers are asynchronous;
 * one that comes after the text or cursor moved is dropped.
 */
import type { TuiCompleter, TuiCompletionEdit, TuiSuggestions } from "pi-host";
import { computeCompletion, type ExtraCommand } from "./complete.js";
import * as editor from "./editor.js";
import type { Completion, EditorState, ViewState } from "./state.js";
import { notice } from "./transcript.js";
import type { ViewSurfaces } from "./surfaces.js";
import type { ViewActions } from "./view-deps.js";
import type { IsAction } from "./view-keys.js";

/** pi-tui's triggers that need no provider to declare them. */
const DEFAULT_TRIGGERS = ["@", "#"];

/** What the stacked completion needs from the view: its state, and `later` to change it after an await. */
export type CompletionView = Pick<ViewActions, "deps" | "later">;

/** The editor's text and cursor as pi-tui's lines, line and column. */
function toLines(state: EditorState): { lines: string[]; line: number; col: number } {
  const before = state.text.slice(0, state.cursor).split("\n");
  return { lines: state.text.split("\n"), line: before.length - 1, col: before[before.length - 1]!.length };
}

/** pi-tui's lines, line and column back to text and cursor. */
function fromLines(edit: TuiCompletionEdit): EditorState {
  const text = edit.lines.join("\n");
  let cursor = edit.cursorCol;
  for (let i = 0; i < edit.cursorLine; i++) cursor += (edit.lines[i] ?? "").length + 1;
  return { text, cursor: Math.max(0, Math.min(cursor, text.length)) };
}

/**
 * The view's own completion as pi-tui's provider: `/` commands (items without the slash, as pi's) and
 * `@` files. Taking an item puts a space after a command or a file, none after a folder or other text.
 */
export function viewCompleter(cwd: () => string, extra: () => ExtraCommand[]): TuiCompleter {
  return {
    getSuggestions: async (lines, line, col): Promise<TuiSuggestions | null> => {
      const offset = lines.slice(0, line).reduce((sum, l) => sum + l.length + 1, 0) + col;
      const text = lines.join("\n");
      const found = computeCompletion({ text, cursor: offset }, cwd(), extra());
      if (found === null) return null;
      const command = found.kind === "command";
      return {
        prefix: text.slice(found.start, offset),
        items: found.items.map((item) => {
          const value = command ? item.value.slice(1) : item.value;
          return { value, label: value, ...(item.detail !== undefined && { description: item.detail }) };
        }),
      };
    },
    applyCompletion: (lines, line, col, item, prefix) => {
      const current = lines[line] ?? "";
      const head = current.slice(0, Math.max(0, col - prefix.length));
      const after = current.slice(col);
      const command = prefix.startsWith("/") && head.trim() === "" && !prefix.slice(1).includes("/");
      const spaced = command || (prefix.startsWith("@") && !item.value.endsWith("/"));
      const inserted = `${head}${command ? "/" : ""}${item.value}${spaced && !after.startsWith(" ") ? " " : ""}`;
      const out = [...lines];
      out[line] = inserted + after;
      return { lines: out, cursorLine: line, cursorCol: inserted.length };
    },
  };
}

/** The stack's completion for one view. */
export class StackedCompletion {
  private readonly base: TuiCompleter;
  private pending: AbortController | undefined;

  constructor(
    private readonly surfaces: ViewSurfaces,
    private readonly view: CompletionView,
    extra: () => ExtraCommand[],
  ) {
    this.base = viewCompleter(() => view.deps.state().cwd, extra);
  }

  /** The completer the plugins stacked, or undefined while none did (the view completes by itself). */
  stack(): TuiCompleter | undefined {
    const top = this.surfaces.completer(this.base);
    return top === this.base ? undefined : top;
  }

  /** The `/` names changed: the list follows the text again, the stack's or (none stacked) `own`. */
  refresh(s: ViewState, own: () => void): void {
    const stack = this.stack();
    if (stack === undefined) own();
    else this.follow(s, stack, s.completion);
  }

  /**
   * A key the editor has not had yet: Tab asks the stack (forced outside a `/` command name, as pi's
   * editor does); with the stack's list open, Up/Down move in it and Tab or Enter take the selection.
   * Returns "taken", "submit" (an Enter that took a `/` command and goes on to send it), or undefined.
   */
  key(s: ViewState, stack: TuiCompleter, is: IsAction): "taken" | "submit" | undefined {
    const list = s.completion;
    if (list === null || list.kind !== "provider") {
      if (!is("tui.input.tab")) return undefined;
      const before = s.editor.text.slice(0, s.editor.cursor);
      this.request(s, stack, !/^\/\S*$/.test(before), true);
      return "taken";
    }
    const up = is("tui.select.up");
    if (up || is("tui.select.down")) {
      const n = list.items.length;
      list.selected = (list.selected + (up ? n - 1 : 1)) % n;
      return "taken";
    }
    const submit = is("tui.input.submit");
    if (!submit && !is("tui.input.tab")) return undefined;
    const before = s.editor.text.slice(0, s.editor.cursor);
    const sendsCommand = submit && (list.prefix ?? "").startsWith("/") && /^\/\S*$/.test(before);
    const item = list.items[list.selected];
    this.close(s);
    if (item !== undefined)
      this.apply(
        s,
        stack,
        { value: item.value, label: item.label ?? item.value, description: item.detail },
        list.prefix,
      );
    return sendsCommand ? "submit" : "taken";
  }

  /** After the editor changed the text: the stack's list (open before as `list`) follows it (pi's triggers). */
  follow(s: ViewState, stack: TuiCompleter, list: Completion | null): void {
    const open = list?.kind === "provider";
    const force = open && list.force === true;
    // The view's own list gives way to the stack's; an open one stays until the stack answers.
    s.completion = open ? list : null;
    const before = s.editor.text.slice(0, s.editor.cursor);
    if (open || /^\/\S*/.test(before) || triggerPattern(stack).test(before)) this.request(s, stack, force, false);
    else this.close(s);
  }

  /** Closes the list and forgets an answer still on its way. */
  close(s: ViewState): void {
    this.pending?.abort();
    this.pending = undefined;
    s.completion = null;
  }

  private request(s: ViewState, stack: TuiCompleter, force: boolean, explicitTab: boolean): void {
    this.pending?.abort();
    const controller = new AbortController();
    this.pending = controller;
    const snapshot = { ...s.editor };
    const { lines, line, col } = toLines(snapshot);
    if (force && attempt(() => stack.shouldTriggerFileCompletion?.(lines, line, col)) === false) return;
    const answer = attempt(() => stack.getSuggestions(lines, line, col, { signal: controller.signal, force }));
    void Promise.resolve(answer).then((suggestions) =>
      this.view.later((state) => {
        const moved = state.editor.text !== snapshot.text || state.editor.cursor !== snapshot.cursor;
        if (controller.signal.aborted || moved) return;
        this.pending = undefined;
        const items = Array.isArray(suggestions?.items) ? suggestions.items : [];
        const prefix = typeof suggestions?.prefix === "string" ? suggestions.prefix : "";
        if (items.length === 0) {
          if (state.completion?.kind === "provider") state.completion = null;
          return;
        }
        if (force && explicitTab && items.length === 1) return this.apply(state, stack, items[0]!, prefix);
        state.completion = {
          kind: "provider",
          items: items.map((i) => ({
            value: String(i.value),
            label: String(i.label ?? i.value),
            ...(i.description !== undefined && { detail: String(i.description) }),
          })),
          selected: 0,
          start: Math.max(0, snapshot.cursor - prefix.length),
          prefix,
          force,
        };
      }),
    );
  }

  private apply(
    s: ViewState,
    stack: TuiCompleter,
    item: { value: string; label: string; description?: string | undefined },
    prefix = "",
  ): void {
    const { lines, line, col } = toLines(s.editor);
    const taken = {
      value: item.value,
      label: item.label,
      ...(item.description !== undefined && { description: item.description }),
    };
    try {
      const next = fromLines(stack.applyCompletion(lines, line, col, taken, prefix));
      editor.replace(s, next.text, next.cursor);
    } catch (error) {
      notice(s, `autocomplete: ${(error as Error)?.message ?? String(error)}`, "error");
    }
  }
}

/** pi-tui's trigger: a trigger character at the start of a word (after wrappers such as `(`), to the cursor. */
function triggerPattern(stack: TuiCompleter): RegExp {
  const characters = [...DEFAULT_TRIGGERS];
  for (const c of stack.triggerCharacters ?? [])
    if (typeof c === "string" && c.length === 1 && c !== "/" && !/\s/.test(c) && !characters.includes(c))
      characters.push(c);
  const escaped = characters.map((c) => c.replace(/[\\^$.*+?()[\]{}|-]/g, "\\$&")).join("");
  return new RegExp(`(?:^|\\s)[([{<\`]*[${escaped}]\\S*$`);
}

function attempt<T>(work: () => T): T | undefined {
  try {
    return work();
  } catch {
    return undefined;
  }
}
