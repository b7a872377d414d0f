/**
 * Session contracts: the store of a session's JSONL tree (pi's version-3 format, so pi opens our files
 * and we open pi's) and the compactor that keeps long sessions inside the context window.
 */
import { defineContract } from "../kernel/index.js";
import type { AgentMessage } from "./agent.js";
import type {
  AssistantMessage,
  ImageContent,
  Model,
  TextContent,
  ThinkingLevel,
  ToolResultMessage,
  Usage,
} from "./ai/index.js";

/** The first line of a session file; not part of the tree. */
export interface SessionHeader {
  type: "session";
  version: 3;
  /** A UUID. */
  id: string;
  /** ISO time. */
  timestamp: string;
  cwd: string;
  /** The file this session was forked from. */
  parentSession?: string;
}

/** Fields every tree entry has: an 8-hex id, its parent (null for the first), an ISO time. */
export interface EntryBase {
  id: string;
  parentId: string | null;
  timestamp: string;
}

export interface MessageEntry extends EntryBase {
  type: "message";
  message: AgentMessage;
}
export interface ModelChangeEntry extends EntryBase {
  type: "model_change";
  provider: string;
  modelId: string;
}
export interface ThinkingLevelChangeEntry extends EntryBase {
  type: "thinking_level_change";
  thinkingLevel: ThinkingLevel;
}
export interface CompactionEntry extends EntryBase {
  type: "compaction";
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details?: unknown;
  fromHook?: boolean;
  /** What generating the summary cost (pi 1.6); counted in the session stats. */
  usage?: Usage;
}
export interface BranchSummaryEntry extends EntryBase {
  type: "branch_summary";
  fromId: string;
  summary: string;
  details?: unknown;
  fromHook?: boolean;
  /** What generating the summary cost (pi 1.6); counted in the session stats. */
  usage?: Usage;
}
/** Extension state; never part of the model's context. */
export interface CustomEntry extends EntryBase {
  type: "custom";
  customType: string;
  data?: unknown;
}
/** An extension's message that IS part of the model's context. */
export interface CustomMessageEntry extends EntryBase {
  type: "custom_message";
  customType: string;
  content: string | Array<TextContent | ImageContent>;
  display: boolean;
  details?: unknown;
}
export interface LabelEntry extends EntryBase {
  type: "label";
  targetId: string;
  label?: string;
}
export interface SessionInfoEntry extends EntryBase {
  type: "session_info";
  name: string;
}

/**
 * Model usage that is no assistant message (pi 1.6 writes one per cache warm-up, `kind` "cache_warm";
 * any other kind counts the same). Counted in the session stats; never part of the model's context.
 */
export interface UsageEntry extends EntryBase {
  type: "usage";
  kind: string;
  provider: string;
  model: string;
  usage: Usage;
  note?: string;
}
/** The content a context edit may put in place of an entry's message content. */
export type ContextEditContent =
  | string
  | Array<TextContent | ImageContent>
  | AssistantMessage["content"]
  | ToolResultMessage["content"];
/**
 * pi 1.6's append-only edit of an earlier entry, for the model's context only: `replacement: null` leaves
 * the target out, otherwise its message keeps its role and fields with this content. The latest edit of a
 * target on the active path wins; the target itself stays as it was in the file, tree and stats.
 */
export interface ContextEditEntry extends EntryBase {
  type: "context_edit";
  targetId: string;
  replacement: { content: ContextEditContent } | null;
}

/** Every kind of tree entry, as pi writes them. */
export type SessionEntry =
  | MessageEntry
  | ModelChangeEntry
  | ThinkingLevelChangeEntry
  | CompactionEntry
  | BranchSummaryEntry
  | CustomEntry
  | CustomMessageEntry
  | LabelEntry
  | SessionInfoEntry
  | UsageEntry
  | ContextEditEntry;

/** Which session is open. `path` is undefined for an in-memory session. */
export interface SessionInfo {
  id: string;
  path: string | undefined;
  cwd: string;
  parentSession?: string;
  name?: string;
}

/** One session in a listing. */
export interface SessionSummary {
  id: string;
  path: string;
  cwd: string;
  name?: string;
  /** The header's `parentSession`: the session this one was forked from (pi's threaded /resume order). 1.3. */
  parentSession?: string;
  /** The first user message's text, for sessions without a name. */
  firstMessage: string;
  messageCount: number;
  created: string;
  modified: string;
}

/** What opening a file found: how many lines were torn and set aside, and where. */
export interface OpenReport extends SessionInfo {
  migratedFrom?: number;
  /** Lines that were not whole JSON (a crash mid-write) moved to a side file, with its path. */
  setAside?: { lines: number; file: string };
  /**
   * Entries a hand edit broke (no message, content of the wrong kind, a parent loop, a repeated id):
   * one line each saying what was wrong and what was done (skipped, loop cut). The file is not changed.
   */
  problems?: string[];
}

/**
 * The bus event the store emits when the open session could not be written (a full disk, a folder that
 * cannot be created) or its file vanished. The entries stay in memory and are written with the next
 * append that succeeds, so nothing is lost while the process lives; the agent session passes this on to
 * every mode as a `session_save_error` session event.
 */
export const SESSION_SAVE_ERROR_EVENT = "session/store:save-error";

/** What the store reports on SESSION_SAVE_ERROR_EVENT. */
export interface SessionSaveProblem {
  /** One line: what failed and what happens next. */
  error: string;
  /** The session file. */
  path: string;
  /** "write": a write failed (entries kept in memory); "deleted": the file vanished and was written again in full. */
  reason: "write" | "deleted";
}

/** One node of the session tree. */
export interface TreeNode {
  entry: SessionEntry;
  children: TreeNode[];
  label?: string;
}

/** What the model sees, built from leaf to root, with the settings in force on that path. */
export interface SessionContext {
  messages: AgentMessage[];
  /** Entry ids of `messages`, index for index (a compaction summary has the compaction's id). */
  entryIds: string[];
  model?: { provider: string; modelId: string };
  thinkingLevel?: ThinkingLevel;
}

/** Where sessions live and which one to start with. */
export interface SessionStartOptions {
  cwd: string;
  /** Overrides `~/.pi/agent/sessions/--<cwd>--/`. */
  sessionDir?: string;
  /** Keep nothing on disk. */
  inMemory?: boolean;
  parentSession?: string;
  /**
   * The new session's id instead of a fresh UUID (pi's `--session-id`): letters, digits, `.`, `_` and
   * `-`, a letter or digit first and last; any other id is refused.
   */
  id?: string;
}

/**
 * The session store. It holds one open session (its state survives a reload of the store); every
 * append is one whole line written at once, so a crash never leaves half an entry, and concurrent
 * writers never interleave. An append never throws because the disk failed: the entry is kept in
 * memory, the failure is emitted as SESSION_SAVE_ERROR_EVENT, and the next append writes it.
 */
export interface SessionStore {
  newSession(options: SessionStartOptions): Promise<SessionInfo>;
  /**
   * Opens the session file at `path`; a path with no file starts a new session there (written once the
   * first answer arrives, as pi does). A file whose first line is not a session header is refused untouched.
   */
  open(path: string): Promise<OpenReport>;
  /** Opens the most recent session of `cwd`, or starts a new one. */
  continueRecent(options: SessionStartOptions): Promise<SessionInfo>;
  /** Sessions of one working folder, or of all when `cwd` is undefined, newest first. */
  list(options: { cwd?: string; sessionDir?: string }): Promise<SessionSummary[]>;
  current(): SessionInfo | undefined;
  /** The open session's header line (pi's `getHeader()`); undefined when none is open. 1.1. */
  header(): SessionHeader | undefined;

  appendMessage(message: AgentMessage): string;
  appendModelChange(provider: string, modelId: string): string;
  appendThinkingLevelChange(level: ThinkingLevel): string;
  appendCompaction(
    summary: string,
    firstKeptEntryId: string,
    tokensBefore: number,
    details?: unknown,
    fromHook?: boolean,
  ): string;
  appendBranchSummary(fromId: string, summary: string, details?: unknown, fromHook?: boolean): string;
  appendCustom(customType: string, data?: unknown): string;
  appendCustomMessage(
    customType: string,
    content: CustomMessageEntry["content"],
    display: boolean,
    details?: unknown,
  ): string;
  appendLabel(targetId: string, label: string | undefined): string;
  appendSessionInfo(name: string): string;

  entries(): SessionEntry[];
  entry(id: string): SessionEntry | undefined;
  leafId(): string | null;
  /** Moves the leaf to `entryId` (null: before the first entry); the move is persisted. */
  branch(entryId: string | null): void;
  /** Entries from the root to `entryId` (default: the leaf). */
  path(entryId?: string): SessionEntry[];
  tree(): TreeNode[];
  label(entryId: string): string | undefined;
  /** Copies the path to `entryId` (default: the leaf) into a new session file whose header names this one. */
  fork(entryId?: string): Promise<SessionInfo>;
  buildContext(): SessionContext;
  /**
   * 1.3: deletes a listed session that is not the open one (pi's /resume delete): the `trash` command when
   * it succeeds, else the file (or the database rows) removed for good; says which. The open session is
   * refused with "Cannot delete the currently active session" and never touched.
   */
  deleteSession(path: string): Promise<{ method: "trash" | "deleted" }>;
  /**
   * 1.3: names a listed session (pi's /resume rename): appends a `session_info` entry after its leaf, one
   * line added to its file, nothing rewritten. The open session is named through `appendSessionInfo`.
   */
  renameSession(path: string, name: string): Promise<void>;
  /**
   * 1.1: makes every entry so far durable before it returns — written even before pi's first flush (no
   * assistant message yet), then fsync for a file, the committed transaction for a database. A durable
   * run calls it before any event is shown. A failure is reported like a failed append, never thrown.
   */
  flush(): void;
}

/**
 * The store is stateful: a reload waits until no call is running (after a flush). 1.1: `flush`; 1.2: `header`;
 * 1.3: `deleteSession`, `renameSession` and the listing's `parentSession`.
 */
export const SessionStoreContract = defineContract<SessionStore>({
  id: "session/store",
  version: "1.3.0",
  kind: "single",
  gate: "boundary",
  deadlineMs: 2_000,
  shape: {
    newSession: "function",
    open: "function",
    appendMessage: "function",
    buildContext: "function",
    branch: "function",
    fork: "function",
  },
  methods: {
    newSession: "async",
    open: "async",
    continueRecent: "async",
    list: "async",
    current: "sync",
    header: "sync",
    appendMessage: "sync",
    appendModelChange: "sync",
    appendThinkingLevelChange: "sync",
    appendCompaction: "sync",
    appendBranchSummary: "sync",
    appendCustom: "sync",
    appendCustomMessage: "sync",
    appendLabel: "sync",
    appendSessionInfo: "sync",
    entries: "sync",
    entry: "sync",
    leafId: "sync",
    branch: "sync",
    path: "sync",
    tree: "sync",
    label: "sync",
    fork: "async",
    buildContext: "sync",
    deleteSession: "async",
    renameSession: "async",
    flush: "sync",
  },
});

/** Compaction settings, as pi's settings.json names them. */
export interface CompactionSettings {
  enabled: boolean;
  reserveTokens: number;
  keepRecentTokens: number;
}

/** pi's defaults. */
export const DEFAULT_COMPACTION: CompactionSettings = {
  enabled: true,
  reserveTokens: 16_384,
  keepRecentTokens: 20_000,
};

/** A compaction ready to be appended to the session. */
export interface CompactionResult {
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details: { readFiles: string[]; modifiedFiles: string[] };
}

/** A branch summary ready to be appended when the user moves to another branch. */
export interface BranchSummaryResult {
  summary: string;
  details: { readFiles: string[]; modifiedFiles: string[] };
}

/**
 * When and how to compact. Pure over the entries it is given, except for the summary call, which goes
 * to `model` through the LLM router (`ai/llm`). 2.0: the caller names the model; it no longer passes
 * a summarize function.
 */
export interface SessionCompactor {
  /** pi's trigger: contextTokens > contextWindow − reserveTokens. */
  shouldCompact(contextTokens: number, contextWindow: number, settings: CompactionSettings): boolean;
  /**
   * Summarizes the older part of `path` (root → leaf entries), keeping about `keepRecentTokens` of
   * recent context; never cuts at a tool result. Undefined when there is nothing to compact.
   */
  compact(
    path: SessionEntry[],
    settings: CompactionSettings,
    model: Model,
    options?: { instructions?: string; signal?: AbortSignal },
  ): Promise<CompactionResult | undefined>;
  /** Summarizes the entries of the branch being left (from the common ancestor to the old leaf). */
  summarizeBranch(
    entries: SessionEntry[],
    model: Model,
    options?: { instructions?: string; signal?: AbortSignal },
  ): Promise<BranchSummaryResult | undefined>;
}

export const SessionCompactorContract = defineContract<SessionCompactor>({
  id: "session/compactor",
  version: "2.0.0",
  kind: "single",
  gate: "boundary",
  deadlineMs: 5_000,
  shape: { shouldCompact: "function", compact: "function", summarizeBranch: "function" },
  methods: { shouldCompact: "sync", compact: "async", summarizeBranch: "async" },
});
