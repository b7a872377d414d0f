/**
 * The transcript as the view shows it: session events (and, when a session is opened, its messages) turned
 * into entries — user messages, answer text, thinking, tool calls with their streamed output and diffs,
 * notices and summaries. Pure functions over the view state; the renderer only reads entries.
 */
import type { SessionEvent } from "pi-host";
import type { AgentMessage, CustomAgentMessage } from "pi-host";
import type { AssistantMessage, ToolResultMessage, UserMessage } from "pi-host";
import type { ToolResult } from "pi-host";
import { imagesOf } from "./image-render.js";
import type { Entry, ViewState } from "./state.js";

/** Adds an entry at the end. */
export function addEntry(state: ViewState, fields: Omit<Entry, "id" | "rev">): Entry {
  const entry: Entry = { id: state.nextId++, rev: 0, ...fields };
  state.entries.push(entry);
  return entry;
}

/** Marks an entry changed so its rows are rendered again. */
export function touch(entry: Entry): void {
  entry.rev++;
}

/** Adds a notice line. */
export function notice(state: ViewState, text: string, level: Entry["level"] = "info"): void {
  addEntry(state, { kind: "notice", text, level });
}

/** The text of a user message's content. */
export function contentText(content: UserMessage["content"] | ToolResult["content"] | string | undefined): string {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  return content.map((b) => (b.type === "text" ? b.text : b.type === "image" ? "[image]" : "")).join("");
}

function findTool(state: ViewState, callId: string): Entry | undefined {
  for (let i = state.entries.length - 1; i >= 0; i--) {
    const e = state.entries[i]!;
    if (e.kind === "tool" && e.callId === callId) return e;
  }
  return undefined;
}

function diffOf(details: unknown): string | undefined {
  const diff = (details as { diff?: unknown } | undefined)?.diff;
  return typeof diff === "string" ? diff : undefined;
}

/** A user message's entry: its text, and its images under it. */
function addUser(state: ViewState, message: UserMessage): void {
  setImages(addEntry(state, { kind: "user", text: textOf(message.content) }), message.content);
}

/** The text blocks of content; its images are drawn under it instead of named in it. */
function textOf(content: UserMessage["content"] | ToolResult["content"]): string {
  if (typeof content === "string") return content;
  return content.map((b) => (b.type === "text" ? b.text : "")).join("");
}

/** Keeps the image blocks of `content` on the entry (none: no field). */
function setImages(entry: Entry, content: unknown): void {
  const images = imagesOf(content);
  if (images.length > 0) entry.images = images;
  else delete entry.images;
}

/** Applies one session event to the transcript and status. Returns true when the transcript must be rebuilt. */
export function applyEvent(state: ViewState, event: SessionEvent): "rebuild" | "compacted" | undefined {
  switch (event.type) {
    case "agent_start":
      state.busy = true;
      return undefined;
    case "agent_end":
      state.busy = false;
      state.streaming = {};
      return undefined;
    case "message_start": {
      const message = event.message;
      if (message.role === "user") addUser(state, message as UserMessage);
      if (message.role === "assistant") state.streaming = {};
      return undefined;
    }
    case "message_update":
      applyStreamEvent(state, event.assistantMessageEvent);
      return undefined;
    case "message_end": {
      if (event.message.role === "bashExecution") {
        finishBashEntry(state, event.message as CustomAgentMessage);
        return undefined;
      }
      if (event.message.role === "custom") {
        addCustomMessage(state, event.message as CustomAgentMessage);
        return undefined;
      }
      if (event.message.role !== "assistant") return undefined;
      const message = event.message as AssistantMessage;
      for (const id of Object.values(state.streaming)) {
        const entry = state.entries.find((e) => e.id === id);
        if (entry?.streaming) {
          entry.streaming = false;
          touch(entry);
        }
      }
      state.streaming = {};
      if (message.stopReason === "aborted")
        notice(
          state,
          message.errorMessage && message.errorMessage !== "aborted" ? `Aborted: ${message.errorMessage}` : "Aborted",
          "warning",
        );
      else if (message.stopReason === "error")
        notice(state, `Error: ${message.errorMessage ?? "the request failed"}`, "error");
      return undefined;
    }
    case "entry_appended":
      addCustomEntry(state, event.entry as { type: string; id: string; customType?: unknown; data?: unknown });
      return undefined;
    case "tool_execution_start": {
      const entry =
        findTool(state, event.toolCallId) ??
        addEntry(state, { kind: "tool", text: "", callId: event.toolCallId, name: event.toolName });
      entry.args = event.args;
      entry.status = "running";
      touch(entry);
      return undefined;
    }
    case "tool_execution_update": {
      const entry = findTool(state, event.toolCallId);
      if (entry === undefined) return undefined;
      entry.text = contentText(event.partialResult.content);
      entry.details = event.partialResult.details;
      entry.diff = diffOf(event.partialResult.details) ?? entry.diff;
      touch(entry);
      return undefined;
    }
    case "tool_execution_end": {
      const entry =
        findTool(state, event.toolCallId) ??
        addEntry(state, { kind: "tool", text: "", callId: event.toolCallId, name: event.toolName });
      entry.text = textOf(event.result.content);
      entry.status = event.isError ? "error" : "done";
      entry.details = event.result.details;
      entry.diff = diffOf(event.result.details);
      setImages(entry, event.result.content);
      touch(entry);
      return undefined;
    }
    case "queue_update":
      state.queue = { steering: [...event.steering], followUp: [...event.followUp] };
      return undefined;
    case "compaction_start":
      state.compacting = true;
      return undefined;
    case "compaction_end":
      state.compacting = false;
      if (event.result !== null) {
        addEntry(state, {
          kind: "summary",
          text: event.result.summary,
          name: `Compacted ${event.result.tokensBefore.toLocaleString("en-US")} tokens`,
        });
        return "compacted";
      }
      if (event.errorMessage) notice(state, `Compaction failed: ${event.errorMessage}`, "error");
      else if (event.aborted) notice(state, "Compaction aborted", "warning");
      else if (event.reason === "manual") notice(state, "Nothing to compact yet");
      return undefined;
    case "auto_retry_start":
      notice(
        state,
        `Retrying (${event.attempt}/${event.maxAttempts}) in ${Math.round(event.delayMs / 100) / 10}s: ${event.errorMessage}`,
        "warning",
      );
      return undefined;
    case "auto_retry_end":
      if (!event.success) notice(state, `Retry failed: ${event.finalError ?? "gave up"}`, "error");
      return undefined;
    case "session_change":
      if (event.session?.cwd) state.cwd = event.session.cwd;
      return "rebuild";
    case "notice":
      notice(state, event.message, event.level);
      return undefined;
    case "session_save_error":
      notice(
        state,
        event.reason === "write"
          ? `${event.error} (kept in memory; saved with the next write that succeeds)`
          : event.error,
        event.reason === "write" ? "error" : "warning",
      );
      return undefined;
    default:
      return undefined;
  }
}

function applyStreamEvent(
  state: ViewState,
  event: Extract<SessionEvent, { type: "message_update" }>["assistantMessageEvent"],
): void {
  const slot = (index: number): Entry | undefined => {
    const id = state.streaming[String(index)];
    return id === undefined ? undefined : state.entries.find((e) => e.id === id);
  };
  switch (event.type) {
    case "text_start":
    case "thinking_start": {
      const entry = addEntry(state, {
        kind: event.type === "text_start" ? "text" : "thinking",
        text: "",
        streaming: true,
      });
      state.streaming[String(event.contentIndex)] = entry.id;
      return;
    }
    case "text_delta":
    case "thinking_delta": {
      const entry =
        slot(event.contentIndex) ??
        addEntry(state, { kind: event.type === "text_delta" ? "text" : "thinking", text: "", streaming: true });
      state.streaming[String(event.contentIndex)] = entry.id;
      entry.text += event.delta;
      touch(entry);
      return;
    }
    case "text_end":
    case "thinking_end": {
      const entry = slot(event.contentIndex);
      if (entry !== undefined && entry.text !== event.content) {
        entry.text = event.content;
        touch(entry);
      }
      return;
    }
    case "toolcall_start": {
      const block = event.partial.content[event.contentIndex];
      const call = block?.type === "toolCall" ? block : undefined;
      const entry = addEntry(state, {
        kind: "tool",
        text: "",
        callId: call?.id,
        name: call?.name ?? "tool",
        argsText: "",
        status: "pending",
      });
      state.streaming[String(event.contentIndex)] = entry.id;
      return;
    }
    case "toolcall_delta": {
      const entry = slot(event.contentIndex);
      if (entry === undefined) return;
      entry.argsText = (entry.argsText ?? "") + event.delta;
      const block = event.partial.content[event.contentIndex];
      if (block?.type === "toolCall") {
        entry.callId ??= block.id;
        if (block.name) entry.name = block.name;
        entry.args = block.arguments;
      }
      touch(entry);
      return;
    }
    case "toolcall_end": {
      const entry = slot(event.contentIndex);
      if (entry === undefined) return;
      entry.callId = event.toolCall.id;
      entry.name = event.toolCall.name;
      entry.args = event.toolCall.arguments;
      touch(entry);
      return;
    }
    default:
      return;
  }
}

/**
 * Rebuilds the transcript from a session's messages (opening, switching, moving in the tree), with the
 * extensions' entries `placed` among them (transcript-rebuild.ts), ordered by `after`.
 */
export function rebuildFromMessages(
  state: ViewState,
  messages: AgentMessage[],
  placed: ReadonlyArray<PlacedEntry> = [],
  noticeAfter?: (message: AssistantMessage) => string | undefined,
): void {
  state.entries = [];
  state.streaming = {};
  let next = 0;
  const entriesAfter = (index: number): void => {
    for (; next < placed.length && placed[next]!.after <= index; next++) addCustomEntry(state, placed[next]!.entry);
  };
  entriesAfter(-1);
  for (const [index, message] of messages.entries()) {
    entriesAfter(index - 1);
    const custom = message as CustomAgentMessage;
    switch (message.role) {
      case "user":
        addUser(state, message as UserMessage);
        break;
      case "assistant": {
        const assistant = message as AssistantMessage;
        for (const block of assistant.content) {
          if (block.type === "text" && block.text !== "") addEntry(state, { kind: "text", text: block.text });
          else if (block.type === "thinking" && block.thinking !== "")
            addEntry(state, { kind: "thinking", text: block.thinking });
          else if (block.type === "toolCall")
            addEntry(state, {
              kind: "tool",
              text: "",
              callId: block.id,
              name: block.name,
              args: block.arguments,
              status: "pending",
            });
        }
        if (assistant.stopReason === "error")
          notice(state, `Error: ${assistant.errorMessage ?? "the request failed"}`, "error");
        if (assistant.stopReason === "aborted") notice(state, "Aborted", "warning");
        const billing = noticeAfter?.(assistant);
        if (billing !== undefined) notice(state, billing, "warning");
        break;
      }
      case "toolResult": {
        const result = message as ToolResultMessage;
        const entry =
          findTool(state, result.toolCallId) ??
          addEntry(state, { kind: "tool", text: "", callId: result.toolCallId, name: result.toolName });
        entry.text = textOf(result.content);
        entry.status = result.isError ? "error" : "done";
        entry.details = result.details;
        entry.diff = diffOf(result.details);
        setImages(entry, result.content);
        break;
      }
      case "compactionSummary":
        addEntry(state, {
          kind: "summary",
          text: String(custom.summary ?? ""),
          name: `Compacted ${Number(custom.tokensBefore ?? 0).toLocaleString("en-US")} tokens`,
        });
        break;
      case "branchSummary":
        addEntry(state, { kind: "summary", text: String(custom.summary ?? ""), name: "Branch summary" });
        break;
      case "bashExecution":
        addEntry(state, {
          kind: "tool",
          text: bashOutputText(custom),
          name: "bash",
          args: { command: custom.command, ...(custom.excludeFromContext === true && { excludeFromContext: true }) },
          status: custom.exitCode === 0 ? "done" : "error",
        });
        break;
      case "custom":
        addCustomMessage(state, custom);
        break;
      default:
        if (custom.display !== false && custom.content !== undefined)
          addEntry(state, { kind: "notice", text: contentText(custom.content as string), level: "info" });
    }
  }
  entriesAfter(messages.length);
}

/** A session entry an extension appended (pi's `appendEntry`), placed after the message at index `after` (-1: first). */
export interface PlacedEntry {
  after: number;
  entry: { type: string; id: string; customType?: unknown; data?: unknown };
}

/** A `custom` session entry (pi's `appendEntry`), drawn by the renderer registered for its type, if any. */
function addCustomEntry(state: ViewState, entry: PlacedEntry["entry"]): void {
  if (entry.type !== "custom" || typeof entry.customType !== "string") return;
  addEntry(state, {
    kind: "entry",
    text: "",
    name: entry.customType,
    entryId: entry.id,
    ...(entry.data !== undefined && { details: entry.data }),
  });
}

/** A custom message (an extension's `sendMessage`) that is to be shown (`display`), as pi shows it. */
function addCustomMessage(state: ViewState, message: CustomAgentMessage): void {
  if (message.display === false || message.content === undefined) return;
  addEntry(state, {
    kind: "custom",
    text: contentText(message.content as UserMessage["content"]),
    name: typeof message.customType === "string" ? message.customType : "custom",
    ...(message.details !== undefined && { details: message.details }),
  });
}

/**
 * Fills the box of a user shell run that is still shown running, from its recorded message: the view
 * that started it fills it itself, but one reloaded meanwhile learns the result only from the session.
 */
function finishBashEntry(state: ViewState, run: CustomAgentMessage): void {
  for (let i = state.entries.length - 1; i >= 0; i--) {
    const entry = state.entries[i]!;
    const args = entry.args as { command?: unknown } | undefined;
    if (entry.kind !== "tool" || entry.callId !== undefined || entry.name !== "bash" || entry.status !== "running")
      continue;
    if (args?.command !== run.command) continue;
    entry.text = bashOutputText(run);
    entry.status = run.exitCode === 0 ? "done" : "error";
    touch(entry);
    return;
  }
}

/** A user shell run's output as the transcript shows it: the output, then how it ended and where a cut output is. */
export function bashOutputText(run: Readonly<Record<string, unknown>>): string {
  const parts = [String(run.output ?? "").replace(/\n$/, "")];
  if (run.cancelled === true) parts.push("(command cancelled)");
  else if (typeof run.exitCode === "number" && run.exitCode !== 0)
    parts.push(`Command exited with code ${run.exitCode}`);
  if (run.truncated === true && typeof run.fullOutputPath === "string")
    parts.push(`[Output truncated. Full output: ${run.fullOutputPath}]`);
  return parts.filter((part) => part !== "").join("\n\n");
}
