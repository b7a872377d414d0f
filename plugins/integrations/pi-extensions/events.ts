/**
 * pi's extension events (docs/extensions.md, "Events") and how each reaches extensions here. Events with
 * a pi-host equivalent are delivered; registering a handler for any other name throws, saying why, so an
 * extension never waits for an event that cannot come.
 */
import type { SessionEvent } from "pi-host";
import type { Model, ThinkingLevel } from "pi-host";
import type { CompactionEntry } from "pi-host";

/** Delivered from the session's events on the kernel bus (observers; return values are ignored). */
export const OBSERVED_EVENTS = [
  "session_start",
  "session_shutdown",
  "session_compact",
  "agent_start",
  "agent_end",
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
] as const;

/** Delivered through the hooks contract, where a handler's answer can change what happens. */
export const HOOKED_EVENTS = ["input", "before_agent_start", "context", "tool_call", "tool_result"] as const;

/** pi's events with no pi-host equivalent yet, and why. */
export const UNSUPPORTED_EVENTS: Readonly<Record<string, string>> = {
  resources_discover: "extensions cannot add skill, prompt or theme paths yet",
  session_before_switch: "switching sessions cannot be cancelled by a plugin",
  session_before_fork: "forking cannot be cancelled by a plugin",
  session_before_compact: "compaction cannot be cancelled or replaced by a plugin",
  session_before_tree: "tree navigation cannot be cancelled or summarized by a plugin",
  session_tree: "the session does not report tree navigation",
  before_provider_request: "hooks see the request before the provider builds its payload, not the payload",
  after_provider_response: "providers do not report HTTP responses",
  user_bash: "user shell commands cannot be intercepted by a plugin",
};

const DELIVERED = new Set<string>([...OBSERVED_EVENTS, ...HOOKED_EVENTS]);

/** Why `pi.on(event)` cannot be registered, or undefined when it can. */
export function unsupportedEventReason(event: string): string | undefined {
  if (DELIVERED.has(event)) return undefined;
  return UNSUPPORTED_EVENTS[event] ?? "pi has no such event";
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
      case "message_start":
      case "message_update":
      case "message_end":
      case "tool_execution_start":
      case "tool_execution_update":
      case "tool_execution_end":
        return [event];
      case "model_change":
        return this.modelChange(event.model, event.thinkingLevel);
      case "session_change":
        return this.sessionChange(event.reason, event.session?.path);
      case "compaction_end": {
        const entry = event.result === null ? undefined : lastCompaction();
        return entry === undefined ? [] : [{ type: "session_compact", compactionEntry: entry, fromExtension: false }];
      }
      default:
        return [];
    }
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
