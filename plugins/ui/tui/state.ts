/**
 * Everything the view remembers, as plain data in the plugin's kernel state, so a reload of the tui plugin
 * (an edit under `pi --watch`) carries the transcript, the editor text and cursor, history, kill ring,
 * undo, the open picker and its scroll position over to the new code. Render caches are not state: the
 * new generation rebuilds them from this.
 */
import { Type } from "@sinclair/typebox";
import type { TuiTerminalColors } from "pi-host";
import { type FullscreenState, initialFullscreenState } from "./fullscreen-state.js";

/** One block of the transcript; `rev` changes whenever its content does (render caches key on it). */
export interface Entry {
  id: number;
  rev: number;
  kind: "user" | "text" | "thinking" | "tool" | "notice" | "summary" | "custom" | "entry";
  text: string;
  /** notice: how loud. */
  level?: "info" | "warning" | "error";
  /** tool: the call. */
  callId?: string;
  /** tool: its name; custom, entry: the customType. */
  name?: string;
  /** tool: the result's details; custom: the message's details; entry: its data (their renderers read them). */
  details?: unknown;
  /** entry: the session entry's id (an extension's `appendEntry`). */
  entryId?: string;
  /** tool: the arguments, as they stream (partial JSON) and once parsed. */
  argsText?: string;
  args?: unknown;
  status?: "pending" | "running" | "done" | "error";
  /** tool: an edit's diff (pi's numbered layout). */
  diff?: string;
  /** text/thinking: still streaming. */
  streaming?: boolean;
  /** user/tool: the images of the message or result (base64 data and type), drawn under its text. */
  images?: Array<{ data: string; mimeType: string }>;
}

/** The editor: text and cursor (a UTF-16 offset into text). */
export interface EditorState {
  text: string;
  cursor: number;
}

/** One row of a picker. */
export interface PickerItem {
  label: string;
  value: string;
  /** Shown muted after the label. */
  detail?: string;
  /** The tree: gutters and connector drawn before the row (pi's `├⊟ `, `│  `). */
  prefix?: string;
  /** The tree: `⊞ ` on a folded root. */
  rootMark?: string;
  /** /resume: the session has a name (`app.session.toggleNamedFilter` keeps only these). */
  named?: boolean;
  /** /resume: the session it was forked from (its header's `parentSession`), for the threaded order. */
  parentPath?: string;
  /** /resume: last activity, ms since the epoch (the threaded and relevance orders). */
  modified?: number;
  /** Marks the current model / the leaf's path. */
  current?: boolean;
  /** The tree: the id of the nearest shown ancestor (a filter change keeps the selection near it). */
  parent?: string;
}

/** A list to choose from (/model, /tree, /resume, /fork), with its scroll position. */
export interface Picker {
  kind:
    | "model"
    | "tree"
    | "branch-summary"
    | "resume"
    | "fork"
    | "thinking"
    | "scoped-models"
    | "trust"
    | "settings"
    | "confirm"
    | "bug";
  title: string;
  /** Lines shown under the title (what /trust and /import ask about). */
  header?: string[];
  /** The key hint in place of the default one. */
  hint?: string;
  /** What a confirm or /bug picker acts on (the file /import reads, the /bug description). */
  subject?: string;
  items: PickerItem[];
  selected: number;
  scroll: number;
  query: string;
  loading: boolean;
  /** The tree: editing the label of the selected entry; /settings: the value being typed. */
  labelEdit?: string;
  /** What `labelEdit` is asked with, in place of the kind's own prompt. */
  editPrompt?: string;
  /** The tree: pi's filter mode (`treeFilterMode`). */
  filterMode?: string;
  /** The tree: the ids of the folded segment starts. */
  folded?: string[];
  /** The tree: labels show when they were set (`app.tree.toggleLabelTimestamp`). */
  labelTimes?: boolean;
  /** /resume: each row shows its file's path (`app.session.togglePath`). */
  showPath?: boolean;
  /** /resume: only named sessions are listed (`app.session.toggleNamedFilter`); `unnamed` holds the others. */
  namedOnly?: boolean;
  unnamed?: PickerItem[];
  /** /resume: pi's sort mode (`app.session.toggleSort`): threaded, recent or relevance. */
  sortMode?: string;
  /** /resume: the session waiting for the delete confirmation (Enter deletes, Esc keeps it). */
  confirmDelete?: string;
  /** /resume: the session being renamed (its new name is typed in `labelEdit`). */
  renaming?: string;
  /** /resume: the last delete or rename outcome, shown under the title. */
  status?: { text: string; level: "info" | "error" };
  /** /scoped-models: the rows were moved, so their order is the cycle order even with every model enabled. */
  reordered?: boolean;
}

/** The autocomplete list under the editor. */
export interface Completion {
  /** `label`: what the list shows in place of `value` (a plugin's completer's items). */
  items: Array<{ value: string; detail?: string; label?: string }>;
  selected: number;
  /** Offset in the editor text where the completed word starts. */
  start: number;
  /** `provider`: the list of completers other plugins stacked over the view's own (view-complete.ts). */
  kind: "command" | "file" | "provider";
  /** provider: the text before the cursor its items replace. */
  prefix?: string;
  /** provider: asked with `force` (a Tab for file completion), so edits ask the same way. */
  force?: boolean;
}

/** A dialog another plugin opened through the `ui` contract (select, confirm, input, editor). */
export interface Dialog {
  id: string;
  kind: "select" | "confirm" | "input" | "editor";
  title: string;
  /** confirm: the question; input: the placeholder. */
  message?: string;
  /** select and confirm: the choices. */
  options?: string[];
  selected: number;
  /** input and editor: the text typed so far. */
  text: string;
}

/** The whole view state (see the file comment for why it is all here). */
export interface ViewState {
  entries: Entry[];
  nextId: number;
  /** The streaming assistant message: content index → entry id. */
  streaming: Record<string, number>;
  editor: EditorState;
  history: string[];
  /** -1 when not browsing history. */
  historyIndex: number;
  historyDraft: string;
  killRing: string[];
  /** The last edit was a kill (so the next kill joins it), or a yank (so Alt+Y can rotate it). */
  lastAction: "kill" | "yank" | "insert" | "other";
  /** A jump to a character waits for the character (`tui.editor.jumpForward` / `jumpBackward`). */
  jump?: "forward" | "backward";
  yank: { start: number; end: number; index: number } | null;
  undo: EditorState[];
  queue: { steering: string[]; followUp: string[] };
  busy: boolean;
  compacting: boolean;
  picker: Picker | null;
  completion: Completion | null;
  thinkingExpanded: boolean;
  toolsExpanded: boolean;
  /** When Ctrl+C last cleared the editor (ms since epoch); a second press soon after exits. */
  ctrlCAt: number;
  /** A one-row hint above the editor (e.g. "press ctrl+c again to exit"). */
  hint: string;
  theme: string;
  cwd: string;
  started: boolean;
  /** An interactive run is going on (the `ui` contract answers only then). */
  running: boolean;
  /** Open dialogs, oldest first; the first is shown. */
  dialogs: Dialog[];
  /** Bumped when other plugins' renderers changed: cached rows are drawn again. */
  renderersRev?: number;
  /** How the last run ended, for the program status (program-status.ts); absent: idle. */
  lastRun?: { state: "done" | "error" | "idle"; message?: string };
  /** Status entries other plugins set (key → text), shown above the footer. */
  statuses: Record<string, string>;
  /** Widgets other plugins set, around the editor. */
  widgets: Record<string, { lines: string[]; placement: "aboveEditor" | "belowEditor" }>;
  /** The terminal title another plugin asked for. */
  title: string;
  /** Fullscreen mode: on or off for this run, the viewport's scroll, the search, the selection. */
  fullscreen: FullscreenState;
  /** The colours the terminal reported at start (the system theme picks dark or light by them). */
  terminalColors: TuiTerminalColors;
  /** The working row and hidden thinking label as other plugins set them (pi's `setWorking*`). */
  working: WorkingState;
}

/** pi's `setWorkingMessage` / `setWorkingVisible` / `setWorkingIndicator` / `setHiddenThinkingLabel`. */
export interface WorkingState {
  message?: string;
  visible: boolean;
  /** Spinner frames, shown as given; [] shows none; absent: the view's own dot. */
  frames?: string[];
  intervalMs?: number;
  hiddenThinkingLabel?: string;
}

/** Bump with a `migrateViewState` step when a field changes meaning. */
export const STATE_VERSION = 1;

/** Checked by the kernel on every setState: the shape, not every entry field (that would cost each frame). */
export const ViewStateSchema = Type.Object(
  {
    entries: Type.Array(Type.Unknown()),
    nextId: Type.Integer({ minimum: 0 }),
    editor: Type.Object({ text: Type.String(), cursor: Type.Integer({ minimum: 0 }) }),
    history: Type.Array(Type.String()),
    killRing: Type.Array(Type.String()),
    undo: Type.Array(Type.Unknown()),
    picker: Type.Union([
      Type.Null(),
      Type.Object(
        { kind: Type.String(), items: Type.Array(Type.Unknown()), selected: Type.Integer(), scroll: Type.Integer() },
        { additionalProperties: true },
      ),
    ]),
    theme: Type.String(),
  },
  { additionalProperties: true },
);

/** A fresh view. */
export function initialViewState(): ViewState {
  return {
    entries: [],
    nextId: 1,
    streaming: {},
    editor: { text: "", cursor: 0 },
    history: [],
    historyIndex: -1,
    historyDraft: "",
    killRing: [],
    lastAction: "other",
    yank: null,
    undo: [],
    queue: { steering: [], followUp: [] },
    busy: false,
    compacting: false,
    picker: null,
    completion: null,
    thinkingExpanded: false,
    toolsExpanded: false,
    ctrlCAt: 0,
    hint: "",
    theme: "system",
    cwd: "",
    started: false,
    running: false,
    dialogs: [],
    statuses: {},
    widgets: {},
    title: "",
    fullscreen: initialFullscreenState(),
    terminalColors: {},
    working: { visible: true },
  };
}

/**
 * Carries the previous generation's state over: fields this version added get their defaults, so an
 * older view's state (or one from a future version that kept these names) is upgraded in place. Open
 * dialogs do not cross: their callers were answered with defaults when the old generation retired.
 */
export function migrateViewState(previous: unknown, _fromVersion: number): ViewState {
  const base = initialViewState();
  if (previous === null || typeof previous !== "object") return base;
  return { ...base, ...(previous as Partial<ViewState>), dialogs: [] };
}
