/**
 * The agent loop contract. A run is turns; a turn is one streamed assistant message and one batch of
 * tool calls. The loop plugin runs ONE turn per call, so the kernel can swap the loop between turns
 * (its boundary safe point) while a long run goes on; `runAgent` strings turns into a run.
 */
import { defineContract } from "../kernel/index.js";
import type {
  AssistantMessage,
  AssistantMessageEvent,
  AssistantStream,
  Context,
  ImageContent,
  Message,
  Model,
  StreamOptions,
  TextContent,
  ToolCall,
  ToolResultMessage,
} from "./ai/index.js";
import type { TelemetrySpan } from "./telemetry.js";
import type { AgentTool, ToolContext, ToolResult } from "./tool.js";

/** A session-level message the model never sees directly (bash runs, extension messages, summaries). */
export interface CustomAgentMessage {
  role: "custom" | "bashExecution" | "branchSummary" | "compactionSummary" | (string & {});
  timestamp: number;
  [key: string]: unknown;
}

/** Any message of a transcript: what LLMs see plus session-level kinds. */
export type AgentMessage = Message | CustomAgentMessage;

/** Events of a run, with pi's names and shapes. */
export type AgentEvent =
  | { type: "agent_start" }
  | { type: "agent_end"; messages: AgentMessage[] }
  | { type: "turn_start" }
  | { type: "turn_end"; message: AgentMessage; toolResults: ToolResultMessage[] }
  | { type: "message_start"; message: AgentMessage }
  | { type: "message_update"; message: AgentMessage; assistantMessageEvent: AssistantMessageEvent }
  | { type: "message_end"; message: AgentMessage }
  | { type: "tool_execution_start"; toolCallId: string; toolName: string; args: unknown }
  | { type: "tool_execution_update"; toolCallId: string; toolName: string; args: unknown; partialResult: ToolResult }
  | { type: "tool_execution_end"; toolCallId: string; toolName: string; result: ToolResult; isError: boolean };

/** `beforeToolCall` may block a call; `reason` becomes the error result's text. */
export interface BeforeToolCallResult {
  block?: boolean;
  reason?: string;
}

/** `afterToolCall` may replace parts of a result, field by field. */
export interface AfterToolCallResult {
  content?: Array<TextContent | ImageContent>;
  details?: unknown;
  isError?: boolean;
  terminate?: boolean;
}

/** What the hooks see of one tool call. */
export interface ToolCallInfo {
  assistantMessage: AssistantMessage;
  toolCall: ToolCall;
  args: unknown;
  messages: readonly AgentMessage[];
}

/** Mutators the session (and extensions through it) plug into the loop. Every hook is optional. */
export interface LoopHooks {
  /** Runs before each request, on the session-level transcript. */
  transformContext?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[]>;
  /** Turns session-level messages into what an LLM accepts. Required in spirit: the default drops non-LLM roles. */
  convertToLlm?: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
  /** May rewrite the request (context and options) just before it is sent. */
  prepareRequest?: (request: {
    context: Context;
    options: StreamOptions;
  }) => Promise<{ context: Context; options: StreamOptions } | undefined>;
  beforeToolCall?: (call: ToolCallInfo, signal?: AbortSignal) => Promise<BeforeToolCallResult | undefined>;
  afterToolCall?: (
    call: ToolCallInfo & { result: ToolResult; isError: boolean },
    signal?: AbortSignal,
  ) => Promise<AfterToolCallResult | undefined>;
  /** Runs when a turn is complete and another will follow; may change model, tools or options for it. */
  prepareNextTurn?: (turn: { message: AssistantMessage; toolResults: ToolResultMessage[] }) => Promise<void>;
  /**
   * 1.3: asked as each message ends, before its `message_end` (which the session saves): undefined at
   * once when nothing will change it, so the loop goes on without waiting; else a promise of the
   * message to end with instead (same role), or of undefined to keep it. pi's `message_end` handlers
   * that return `{ message }`.
   */
  endMessage?: (message: AgentMessage) => Promise<AgentMessage | undefined> | undefined;
  /** Returns true to end the run after this turn (e.g. before the context gets too full). */
  finishTurn?: (turn: {
    message: AssistantMessage;
    toolResults: ToolResultMessage[];
    messages: readonly AgentMessage[];
  }) => Promise<boolean>;
}

/** Everything a turn needs, snapshotted by the caller when the turn starts. */
export interface TurnConfig {
  model: Model;
  systemPrompt: string;
  tools: AgentTool<any, any>[];
  /** Streams one assistant message (provider lookup, API key, retry policy already bound). */
  stream: (model: Model, context: Context, options: StreamOptions) => AssistantStream;
  streamOptions: StreamOptions;
  toolContext: ToolContext;
  /** `parallel` (default): validate and `beforeToolCall` in call order, execute concurrently. */
  toolExecution?: "parallel" | "sequential";
  hooks: LoopHooks;
  /** Steering messages typed while the agent works; injected before the next request. */
  takeSteering: () => AgentMessage[];
  /** Follow-up messages, taken only when the run would otherwise end. */
  takeFollowUps: () => AgentMessage[];
  emit: (event: AgentEvent) => void;
  signal?: AbortSignal;
  /** The run's span (1.1): the loop opens the turn, request and tool spans under it. Unset: none. */
  telemetry?: TelemetrySpan;
}

/** The state of a run between turns: plain data, so a new loop generation can take it over. */
export interface RunState {
  /** The whole transcript the model works from (grows as the run goes). */
  messages: AgentMessage[];
  /** Messages this run added, in order. */
  newMessages: AgentMessage[];
  /** Messages to add before the next request (the prompt, steering, follow-ups). */
  pending: AgentMessage[];
  /** Turns run so far. */
  turns: number;
  /** True when the run is over. */
  done: boolean;
  /**
   * 1.2: an answer already in `messages` whose tool calls `callIds` still have to run (a durable run
   * resumed after a crash): the next turn runs those calls instead of asking the model, then goes on.
   */
  toolsDue?: { message: AssistantMessage; callIds: string[] };
}

/** One turn: inject pending messages, stream the answer, run its tools, decide whether another turn follows. */
export interface AgentLoop {
  runTurn(run: RunState, config: TurnConfig): Promise<RunState>;
}

/**
 * The loop is a single stateful provider, swapped only between turns. 1.1: `TurnConfig.telemetry`;
 * 1.2: `RunState.toolsDue`; 1.3: `LoopHooks.endMessage`.
 */
export const AgentLoopContract = defineContract<AgentLoop>({
  id: "agent/loop",
  version: "1.3.0",
  kind: "single",
  gate: "boundary",
  deadlineMs: 5_000,
  shape: { runTurn: "function" },
  methods: { runTurn: "async" },
});

/** What `runAgent` needs to call the loop: a stable handle's typed view, so each turn is admitted anew. */
export interface LoopCaller {
  readonly api: Pick<AgentLoop, "runTurn">;
}

/**
 * Runs turns until the loop says the run is over. Each turn goes through the loop handle separately,
 * so a reload of the loop lands between turns; `config()` is asked before each turn, so a turn
 * snapshots the model, tools and prompt in force when it starts.
 */
export async function runAgent(
  loop: LoopCaller,
  prompts: AgentMessage[],
  messages: AgentMessage[],
  config: () => TurnConfig | Promise<TurnConfig>,
): Promise<AgentMessage[]> {
  let run: RunState = { messages: [...messages], newMessages: [], pending: [...prompts], turns: 0, done: false };
  const first = await config();
  first.emit({ type: "agent_start" });
  try {
    while (!run.done) run = await loop.api.runTurn(run, run.turns === 0 ? first : await config());
  } finally {
    first.emit({ type: "agent_end", messages: run.newMessages });
  }
  return run.newMessages;
}
