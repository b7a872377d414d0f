/**
 * Mutators: plugins that change what the agent does, not just watch it (watching is the event bus).
 * Every provider of this contract is consulted in distribution order; the first to block a tool call
 * wins, rewrites of a result or a request compose in order.
 */
import { defineContract } from "../kernel/index.js";
import type { AfterToolCallResult, AgentMessage, BeforeToolCallResult, ToolCallInfo } from "./agent.js";
import type { Context, ImageContent, StreamOptions } from "./ai/index.js";
import type { ToolResult } from "./tool.js";

/** A set of optional hooks; implement only what you need. */
export interface AgentHooks {
  /** May block a tool call with a reason (the model sees it as the call's error result). */
  beforeToolCall?(call: ToolCallInfo, signal?: AbortSignal): Promise<BeforeToolCallResult | undefined>;
  /** May replace parts of a tool result. */
  afterToolCall?(
    call: ToolCallInfo & { result: ToolResult; isError: boolean },
    signal?: AbortSignal,
  ): Promise<AfterToolCallResult | undefined>;
  /** May rewrite the transcript before each request (e.g. drop or inject messages). */
  transformContext?(messages: AgentMessage[], signal?: AbortSignal): Promise<AgentMessage[] | undefined>;
  /** May rewrite a request just before it is sent. */
  prepareRequest?(request: {
    context: Context;
    options: StreamOptions;
  }): Promise<{ context: Context; options: StreamOptions } | undefined>;
  /** May rewrite (or, returning `handled: true`, consume) what the user typed before it is sent. */
  beforePrompt?(input: {
    text: string;
    /** The prompt's images (1.1). */
    images?: ImageContent[];
  }): Promise<{ text?: string; images?: ImageContent[]; handled?: boolean } | undefined>;
  /**
   * The slash commands `beforePrompt` handles, so the TUI's `/` completion and RPC `get_commands` can
   * list them (pi's `getCommands()` shape for extension commands).
   */
  commands?(): Promise<PromptCommandInfo[]>;
  /**
   * 1.2.0: asked before a session operation the user typed or a client sent (`/new`, `/resume`, `/fork`,
   * `/tree`, `/compact`): may cancel it, or carry it out itself (`handled`: e.g. a compaction a pi
   * extension supplied), or change the instructions of the default. pi's `session_before_*` events.
   * 1.3.0: also asked before an automatic compaction (`reason` "threshold" or "overflow").
   */
  beforeSessionChange?(change: SessionChange, signal?: AbortSignal): Promise<SessionChangeVerdict | undefined>;
  /**
   * 1.4.0: asked as each message of a run ends, before the session saves it (pi's `message_end` handlers
   * returning `{ message }`). Answers at once: undefined when this provider will not change the message
   * (the loop then does not wait), else a promise of the replacement (same role) or of undefined.
   */
  endMessage?(message: AgentMessage): Promise<AgentMessage | undefined> | undefined;
}

/** A session operation about to happen, as pi's `session_before_*` events describe it. */
export type SessionChange =
  | { kind: "new" }
  | { kind: "resume"; targetSessionFile: string }
  | { kind: "fork"; entryId: string }
  | { kind: "tree"; targetId: string; summarize: boolean; customInstructions?: string }
  | {
      kind: "compact";
      customInstructions?: string;
      /**
       * 1.3.0: why it compacts — "manual" (the default: typed, a client's or an extension's), or pi's
       * automatic "threshold" and "overflow", which the session asks about itself before compacting.
       */
      reason?: "manual" | "threshold" | "overflow";
      /** 1.3.0: an overflow compaction, after which the run goes again. */
      willRetry?: boolean;
    };

/** A hook's answer to a session change. */
export interface SessionChangeVerdict {
  /** Stop the operation (pi's `{ cancel: true }`). */
  cancel?: boolean;
  /** The hook did the operation itself; the default must not run. */
  handled?: boolean;
  /** Instructions for the default compaction or tree summary instead of the user's. */
  customInstructions?: string;
}

/** One slash command a hook handles, as pi's `get_commands` lists an extension command. */
export interface PromptCommandInfo {
  /** Without the slash. */
  readonly name: string;
  readonly description?: string;
  readonly source: "extension";
  /** pi's `sourceInfo`: where the command comes from (path, source, scope, origin, baseDir?). */
  readonly sourceInfo: unknown;
}

/**
 * 1.1: `commands`; 1.2: `beforeSessionChange`, and `beforePrompt` sees and may replace the prompt's images (pi's
 * `input` transform, a command's `sendUserMessage`); 1.3: automatic compactions are asked too; 1.4:
 * `endMessage`, a message replaced before it is saved.
 */
export const HooksContract = defineContract<AgentHooks>({
  id: "hooks",
  version: "1.4.0",
  kind: "many",
  gate: "overlap",
  methods: {
    beforeToolCall: "async",
    afterToolCall: "async",
    transformContext: "async",
    prepareRequest: "async",
    beforePrompt: "async",
    commands: "async",
    beforeSessionChange: "async",
    endMessage: "sync",
  },
});
