/**
 * The one message model every provider speaks. Shapes follow pi's, field for field, so pi's session
 * files and extensions keep working: user / assistant / toolResult messages; text, thinking, image and
 * toolCall content; usage with cost; five stop reasons.
 */
import type { TSchema } from "@sinclair/typebox";
import type { TelemetrySpan } from "../telemetry.js";

/** The wire protocols pi-host speaks; custom providers may name others. */
export type KnownApi =
  | "anthropic-messages"
  | "openai-completions"
  | "openai-responses"
  | "google-generative-ai"
  | "azure-openai-responses"
  | "bedrock-converse-stream"
  | "google-vertex";
export type Api = KnownApi | (string & {});

/** How hard a reasoning model should think. `off` disables thinking. */
export type ThinkingLevel = "off" | "minimal" | "low" | "medium" | "high" | "xhigh";

/** pi's thinking levels, weakest first (the order cycling and pickers use). */
export const THINKING_LEVELS: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh"];

/** Token budgets for thinking levels on budget-based APIs (Anthropic, Google). */
export type ThinkingBudgets = Partial<Record<Exclude<ThinkingLevel, "off">, number>>;

export interface TextContent {
  type: "text";
  text: string;
  /** Opaque provider signature of a text block (OpenAI Responses message id). */
  textSignature?: string;
}

export interface ThinkingContent {
  type: "thinking";
  thinking: string;
  /** Opaque signature (Anthropic) or encrypted reasoning item (OpenAI Responses) to replay it. */
  thinkingSignature?: string;
  /** The thinking was redacted by the provider; its encrypted payload is in `thinkingSignature`. */
  redacted?: boolean;
}

export interface ImageContent {
  type: "image";
  /** Base64 without a data: prefix. */
  data: string;
  mimeType: string;
}

export interface ToolCall {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, any>;
  /** Google's thought signature for a function call, replayed as-is to the same model family. */
  thoughtSignature?: string;
}

export interface Cost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  total: number;
}

export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: Cost;
}

export type StopReason = "stop" | "length" | "toolUse" | "error" | "aborted";

export interface UserMessage {
  role: "user";
  content: string | Array<TextContent | ImageContent>;
  timestamp: number;
}

export interface AssistantMessage {
  role: "assistant";
  content: Array<TextContent | ThinkingContent | ToolCall>;
  api: Api;
  provider: string;
  model: string;
  responseId?: string;
  usage: Usage;
  stopReason: StopReason;
  errorMessage?: string;
  timestamp: number;
}

export interface ToolResultMessage<TDetails = any> {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: Array<TextContent | ImageContent>;
  details?: TDetails;
  isError: boolean;
  timestamp: number;
}

/** What an LLM sees. Session-only roles (bashExecution, custom, summaries) are converted before a send. */
export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/** A tool as the model sees it: name, description, TypeBox (JSON Schema) parameters. */
export interface ToolSpec<TParameters extends TSchema = TSchema> {
  name: string;
  description: string;
  parameters: TParameters;
}

/** Everything one request carries. */
export interface Context {
  systemPrompt?: string;
  messages: Message[];
  tools?: ToolSpec[];
}

/** Switches for OpenAI-compatible Chat Completions servers that differ from OpenAI's own API. */
export interface OpenAICompletionsCompat {
  supportsStore?: boolean;
  supportsDeveloperRole?: boolean;
  supportsReasoningEffort?: boolean;
  supportsUsageInStreaming?: boolean;
  maxTokensField?: "max_completion_tokens" | "max_tokens";
  requiresToolResultName?: boolean;
  requiresAssistantAfterToolResult?: boolean;
  requiresThinkingAsText?: boolean;
  thinkingFormat?: "openai" | "openrouter" | "deepseek" | "zai" | "qwen" | "qwen-chat-template";
  supportsStrictMode?: boolean;
}

/** Switches for OpenAI Responses-compatible servers. */
export interface OpenAIResponsesCompat {
  sendSessionIdHeader?: boolean;
  supportsLongCacheRetention?: boolean;
}

/** A model as the catalog knows it. Costs are US dollars per million tokens. */
export interface Model {
  id: string;
  name: string;
  api: Api;
  provider: string;
  baseUrl: string;
  reasoning: boolean;
  input: Array<"text" | "image">;
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
  contextWindow: number;
  maxTokens: number;
  headers?: Record<string, string>;
  compat?: OpenAICompletionsCompat & OpenAIResponsesCompat;
}

/** Options for one streamed request. */
export interface StreamOptions {
  signal?: AbortSignal;
  apiKey?: string;
  maxTokens?: number;
  temperature?: number;
  reasoning?: ThinkingLevel;
  thinkingBudgets?: ThinkingBudgets;
  /** Keys provider-side prompt caches (OpenAI `prompt_cache_key`, session affinity headers). */
  sessionId?: string;
  cacheRetention?: "none" | "short" | "long";
  headers?: Record<string, string>;
  /**
   * The provider's own retries of transient failures (429, 5xx, overloaded, dropped connection before
   * any event). Unset: none, since the session's retry owns the count. `maxDelayMs` is also the longest
   * server-requested wait (Retry-After) accepted; a longer one fails at once, saying so.
   */
  retry?: RetryPolicy;
  /** Milliseconds from sending a request to its response headers before it counts as stalled (0: off). Default: `idleTimeoutMs`. */
  firstByteTimeoutMs?: number;
  /** Milliseconds a response body may stay silent before it counts as stalled (0: off). Default 300 000, pi's `httpIdleTimeoutMs`. */
  idleTimeoutMs?: number;
  /** Inspect or replace the request body just before it is sent. */
  onPayload?: (payload: unknown, model: Model) => unknown | Promise<unknown>;
  /**
   * The parent span of this request (pi's `StreamOptions.telemetry`): the router opens the request span
   * under it and hands that span on to the provider here. Unset: no span.
   */
  telemetry?: TelemetrySpan;
}

/** The `retry` setting, as pi's settings.json spells it. */
export interface RetryPolicy {
  enabled: boolean;
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * Stream events. A stream emits `start`, then content events, then exactly one of `done` or `error`.
 * `partial` is the message being built (the same object throughout, so in-process consumers pay nothing
 * for it); serialized outputs send deltas instead.
 */
export type AssistantMessageEvent =
  | { type: "start"; partial: AssistantMessage }
  | { type: "text_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "text_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "text_end"; contentIndex: number; content: string; partial: AssistantMessage }
  | { type: "thinking_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "thinking_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "thinking_end"; contentIndex: number; content: string; partial: AssistantMessage }
  | { type: "toolcall_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "toolcall_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall; partial: AssistantMessage }
  | { type: "done"; reason: "stop" | "length" | "toolUse"; message: AssistantMessage }
  | { type: "error"; reason: "error" | "aborted"; error: AssistantMessage };

/** A streamed answer: iterate the events, or await the final message. Never throws. */
export interface AssistantStream extends AsyncIterable<AssistantMessageEvent> {
  result(): Promise<AssistantMessage>;
}
