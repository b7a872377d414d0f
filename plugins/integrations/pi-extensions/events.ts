/**
 * pi 1.6.0's extension events (docs/extensions.md, "Events") and how each reaches extensions here.
 * Observed events come from the session's events on the kernel bus; hooked ones from the hooks contract
 * and the plugin's own flows. A handler for an event that fires only in part, or for a name pi does not
 * have, is a one-line warning, never a failed load.
 */
import type { SessionEvent } from "pi-host";
import type { Model, ThinkingLevel } from "pi-host";
import type { CompactionEntry, Handle, SessionStore } from "pi-host";

/** Delivered from the session's events on the kernel bus (observers; return values are ignored). */
export const OBSERVED_EVENTS = [
  "session_start",
  "session_shutdown",
  "session_compact",
  "session_compact_failed",
  "session_info_changed",
  "session_tree",
  "agent_start",
  "agent_end",
  "agent_settled",
  "turn_start",
  "turn_end",
  "message_start",
  "message_update",
  "message_end",
  "tool_execution_start",
  "tool_execution_update",
  "tool_execution_end",
  "model_select",
  "thinking_level_select",
  "provider_stream_event",
  "ui_prompt_start",
  "ui_prompt_end",
  "mcp_servers_change",
] as const;

/** Delivered through the hooks contract or the plugin's own flows, where a handler's answer changes what happens. */
export const HOOKED_EVENTS = [
  "project_trust",
  "resources_discover",
  "input",
  "before_agent_start",
  "context",
  "context_with_system",
  "before_provider_headers",
  "before_provider_request",
  "tool_call",
  "tool_result",
  "session_before_switch",
  "session_before_fork",
  "session_before_tree",
  "session_before_compact",
] as const;

/**
 * pi 1.6.0's events a handler may register for that fire only in part here, and why. Registering one
 * works and says so in one warning line.
 */
export const PARTIAL_EVENTS: Readonly<Record<string, string>> = {
  after_provider_response: "providers do not report HTTP status and headers, so it never fires",
  user_bash: "`!` commands of the TUI run in its own shell, so it never fires",
  cache_warming_decision: "pi-host does not refresh prompt caches while idle, so it never fires",
  agent_before_settle: "the loop's settle boundary takes no entries from plugins, so it never fires",
};

const DELIVERED = new Set<string>([...OBSERVED_EVENTS, ...HOOKED_EVENTS]);

/**
 * What a registration for `event` should warn about: a pi event that fires only in part, or a name pi
 * does not have (the handler is kept, but never runs). Undefined: it is delivered in full.
 */
export function eventWarning(event: string): string | undefined {
  const partial = PARTIAL_EVENTS[event];
  if (partial !== undefined) return partial;
  if (DELIVERED.has(event)) return undefined;
  return "pi 1.6.0 has no such event, so the handler never runs";
}

/** A pi event as handlers receive it. */
export type PiEvent = { type: string; [field: string]: unknown };

/**
 * Turns session events into pi's extension events: adds what pi's carry and ours do not (turn index and
 * time, the previous model and level, the previous session file) and renames where pi's names differ.
 */
export class SessionEventTranslator {
  private turnIndex = 0;

  constructor(
    private model: Model | undefined,
    private thinkingLevel: ThinkingLevel | undefined,
    private sessionFile: string | undefined,
  ) {}

  /** pi's events for one session event (often one, sometimes none or two). */
  translate(event: SessionEvent, lastCompaction: () => CompactionEntry | undefined): PiEvent[] {
    switch (event.type) {
      case "agent_start":
        this.turnIndex = 0;
        return [event];
      case "turn_start":
        return [{ type: "turn_start", turnIndex: this.turnIndex, timestamp: Date.now() }];
      case "turn_end":
        return [{ ...event, turnIndex: this.turnIndex++ }];
      case "agent_end":
      case "agent_settled":
      case "message_start":
      case "message_end":
      case "tool_execution_start":
      case "tool_execution_update":
      case "tool_execution_end":
        return [event];
      case "message_update":
        return [event, this.providerStreamEvent(event.assistantMessageEvent)];
      case "session_info_changed":
        return [{ type: "session_info_changed", name: event.name }];
      case "thinking_level_changed": {
        const previousLevel = this.thinkingLevel;
        this.thinkingLevel = event.level;
        return previousLevel === event.level
          ? []
          : [{ type: "thinking_level_select", level: event.level, previousLevel }];
      }
      case "model_change":
        return this.modelChange(event.model, event.thinkingLevel);
      case "session_change":
        return this.sessionChange(event.reason, event.session?.path);
      case "compaction_end":
        return this.compactionEnd(event, lastCompaction);
      default:
        return [];
    }
  }

  /** pi's `provider_stream_event`: here the earliest structured value is the provider plugin's stream event. */
  private providerStreamEvent(data: unknown): PiEvent {
    const model = this.model;
    return { type: "provider_stream_event", provider: model?.provider, api: model?.api, model: model?.id, data };
  }

  private compactionEnd(
    event: Extract<SessionEvent, { type: "compaction_end" }>,
    lastCompaction: () => CompactionEntry | undefined,
  ): PiEvent[] {
    const { reason, willRetry } = event;
    const entry = event.result === null ? undefined : lastCompaction();
    if (entry !== undefined)
      return [
        {
          type: "session_compact",
          compactionEntry: entry,
          fromExtension: this.takeCompactionFromExtension(),
          reason,
          willRetry,
        },
      ];
    return [
      {
        type: "session_compact_failed",
        reason,
        aborted: event.aborted,
        willRetry,
        fromExtension: this.takeCompactionFromExtension(),
        ...(event.errorMessage !== undefined && { errorMessage: event.errorMessage }),
      },
    ];
  }

  /** Set by ctx.compact when a `session_before_compact` handler supplied the summary. */
  compactionFromExtension = false;

  private takeCompactionFromExtension(): boolean {
    const value = this.compactionFromExtension;
    this.compactionFromExtension = false;
    return value;
  }

  private modelChange(model: Model, level: ThinkingLevel): PiEvent[] {
    const out: PiEvent[] = [];
    const previousModel = this.model;
    const previousLevel = this.thinkingLevel;
    if (previousModel === undefined || previousModel.provider !== model.provider || previousModel.id !== model.id) {
      out.push({ type: "model_select", model, previousModel, source: "set" });
    }
    if (previousLevel !== undefined && previousLevel !== level)
      out.push({ type: "thinking_level_select", level, previousLevel });
    this.model = model;
    this.thinkingLevel = level;
    return out;
  }

  /** A new, switched-to or forked session: pi tears the old extension runtime down and starts anew. */
  private sessionChange(reason: "new" | "switch" | "fork" | "open", path: string | undefined): PiEvent[] {
    const previous = this.sessionFile;
    this.sessionFile = path;
    if (reason === "open") return [];
    const piReason = reason === "switch" ? "resume" : reason;
    return [
      { type: "session_shutdown", reason: piReason, ...(path !== undefined && { targetSessionFile: path }) },
      { type: "session_start", reason: piReason, ...(previous !== undefined && { previousSessionFile: previous }) },
    ];
  }
}

/** The session's latest compaction entry (for `session_compact`), if any. */
export function lastCompaction(store: Handle<SessionStore>): CompactionEntry | undefined {
  if (!store.available) return undefined;
  return store.api
    .entries()
    .filter((e): e is CompactionEntry => e.type === "compaction")
    .at(-1);
}
