/**
 * A scripted AI provider for tests and demos. Each request takes the next scripted turn (text,
 * thinking, tool calls, a stop reason or an error) and streams it exactly as a real provider would:
 * `start`, content events with incremental deltas, then one `done` or `error`. It can pace the stream in
 * tokens per second (to watch streaming), honours abort mid-stream, reports usage, and records every
 * request so a test can check what the agent sent. A turn may be a function of the incoming context,
 * e.g. to echo the last user message or to answer a tool result.
 */
import type {
  AiProvider,
  AssistantMessage,
  AssistantStream,
  Context,
  Model,
  StopReason,
  StreamOptions,
  TextContent,
  ThinkingContent,
  ToolCall,
  Usage,
} from "pi-host";
import {
  AssistantEventStream,
  CHARS_PER_TOKEN,
  estimateMessageTokens,
  newAssistantMessage,
  parsePartialJson,
  prepareHistory,
  priceUsage,
  sleep,
} from "pi-host";

/** A tool call in a script; the id is made up when left out. */
export type FauxToolCall = Omit<ToolCall, "id"> & { id?: string };

/** One block of a scripted answer. */
export type FauxBlock = TextContent | ThinkingContent | FauxToolCall;

/** One scripted assistant turn. */
export interface FauxTurn {
  /** A string is one text block. Default: no content. */
  content?: string | FauxBlock[];
  /** Default: "toolUse" when the turn has a tool call, else "stop". "error" and "aborted" end in an error event. */
  stopReason?: StopReason;
  /** The error text for stopReason "error" or "aborted". */
  errorMessage?: string;
  /** Token counts to report instead of the chars/4 estimate. */
  usage?: Partial<Pick<Usage, "input" | "output" | "cacheRead" | "cacheWrite">>;
  responseId?: string;
}

/** What a turn function learns about the request it answers. */
export interface FauxRequest {
  model: Model;
  /** The context after cross-provider handoff, as a real provider would send it. */
  context: Context;
  options: StreamOptions | undefined;
  /** 0 for the first request this provider served. */
  index: number;
}

/** A turn computed from the request (may be async; a throw becomes an error event). */
export type FauxTurnFunction = (request: FauxRequest) => FauxTurn | Promise<FauxTurn>;

/** A scripted step: a fixed turn or a function of the request. */
export type FauxStep = FauxTurn | FauxTurnFunction;

/** Options for createFauxProvider. */
export interface FauxOptions {
  /** The wire protocol name (the AiProviderContract key). Default "faux". */
  api?: string;
  /** The provider name of the models it offers. Default "faux". */
  provider?: string;
  /** The script, consumed one step per request. */
  responses?: FauxStep[];
  /** Steps loaded on first use and appended after `responses` (a script file); a throw becomes the first answer's error. */
  load?: () => Promise<FauxStep[]>;
  /** Stream pacing; 0 or unset streams as fast as the consumer reads (one macrotask per delta). */
  tokensPerSecond?: number;
  /** Tokens per delta event (a token is 4 characters). Default 1. */
  tokensPerDelta?: number;
  /** Models this provider offers; default one model "faux-1". */
  models?: Array<Partial<Model> & { id: string }>;
}

/** The faux provider: an AiProvider plus the controls a test needs. */
export interface FauxProvider extends AiProvider {
  /** The models it offers (api and provider filled in). */
  readonly models: Model[];
  /** A model by id; the first when no id is given. Throws for an unknown id. */
  model(id?: string): Model;
  /** Appends steps to the script. */
  push(...steps: FauxStep[]): void;
  /** Replaces the rest of the script. */
  setResponses(steps: FauxStep[]): void;
  /** Steps not yet used. */
  readonly pending: number;
  /** Every request served so far, in order. */
  readonly requests: readonly FauxRequest[];
}

/** A text block. */
export function fauxText(text: string): TextContent {
  return { type: "text", text };
}

/** A thinking block. */
export function fauxThinking(thinking: string, thinkingSignature?: string): ThinkingContent {
  return thinkingSignature === undefined
    ? { type: "thinking", thinking }
    : { type: "thinking", thinking, thinkingSignature };
}

/** A tool call block; the id is made up when not given. */
export function fauxToolCall(name: string, args: Record<string, any>, id?: string): FauxToolCall {
  return id === undefined
    ? { type: "toolCall", name, arguments: args }
    : { type: "toolCall", id, name, arguments: args };
}

/** A turn function that answers with the last user message's text, after `prefix`. */
export function fauxEcho(prefix = ""): FauxTurnFunction {
  return ({ context }) => {
    const last = [...context.messages].reverse().find((m) => m.role === "user");
    const content =
      last === undefined
        ? ""
        : typeof last.content === "string"
          ? last.content
          : last.content.map((b) => (b.type === "text" ? b.text : "")).join("");
    return { content: prefix + content };
  };
}

const DEFAULT_MODEL: Omit<Model, "api" | "provider"> = {
  id: "faux-1",
  name: "Faux Model",
  baseUrl: "http://localhost:0",
  reasoning: true,
  input: ["text", "image"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 128_000,
  maxTokens: 16_384,
};

/** Builds a scripted provider. */
export function createFauxProvider(options: FauxOptions = {}): FauxProvider {
  const api = options.api ?? "faux";
  const provider = options.provider ?? "faux";
  const models: Model[] = (options.models ?? [{ id: DEFAULT_MODEL.id }]).map((m) => ({
    ...DEFAULT_MODEL,
    name: m.id === DEFAULT_MODEL.id ? DEFAULT_MODEL.name : m.id,
    ...m,
    api,
    provider,
  }));
  let script: FauxStep[] = [...(options.responses ?? [])];
  let loading: Promise<void> | undefined;
  const requests: FauxRequest[] = [];

  const loadOnce = (): Promise<void> => {
    loading ??=
      options.load === undefined ? Promise.resolve() : options.load().then((steps) => void script.push(...steps));
    return loading;
  };

  const pacing: Pacing = {
    tokensPerSecond: options.tokensPerSecond ?? 0,
    charsPerDelta: Math.max(1, Math.round((options.tokensPerDelta ?? 1) * CHARS_PER_TOKEN)),
  };

  return {
    api,
    models,
    model(id?: string): Model {
      const found = id === undefined ? models[0] : models.find((m) => m.id === id);
      if (found === undefined)
        throw new Error(`faux provider has no model "${id}" (it has ${models.map((m) => m.id).join(", ")})`);
      return found;
    },
    push(...steps: FauxStep[]): void {
      script.push(...steps);
    },
    setResponses(steps: FauxStep[]): void {
      script = [...steps];
    },
    get pending(): number {
      return script.length;
    },
    get requests(): readonly FauxRequest[] {
      return requests;
    },
    stream(model: Model, context: Context, streamOptions?: StreamOptions): AssistantStream {
      const out = new AssistantEventStream();
      const request: FauxRequest = {
        model,
        context: { ...context, messages: prepareHistory(context.messages, model) },
        options: streamOptions,
        index: requests.length,
      };
      requests.push(request);
      void answer(out, request, pacing, async () => {
        await loadOnce();
        return script.shift();
      });
      return out;
    },
  };
}

interface Pacing {
  tokensPerSecond: number;
  charsPerDelta: number;
}

/** Plays one request's turn into `out`. Never throws: every failure becomes an error event. */
async function answer(
  out: AssistantEventStream,
  request: FauxRequest,
  pacing: Pacing,
  next: () => Promise<FauxStep | undefined>,
): Promise<void> {
  const message = newAssistantMessage(request.model);
  const signal = request.options?.signal;
  try {
    const step = await next();
    if (step === undefined) throw new Error(`faux: no scripted response left for request ${request.index + 1}`);
    const turn = typeof step === "function" ? await step(request) : step;
    if (signal?.aborted) return abort(out, message, request);
    if (turn.responseId !== undefined) message.responseId = turn.responseId;
    out.push({ type: "start", partial: message });
    const blocks = typeof turn.content === "string" ? [fauxText(turn.content)] : (turn.content ?? []);
    for (const block of blocks) {
      if (!(await playBlock(out, message, block, request, pacing))) return abort(out, message, request);
    }
    finishUsage(message, request, turn);
    const reason = turn.stopReason ?? (message.content.some((b) => b.type === "toolCall") ? "toolUse" : "stop");
    message.stopReason = reason;
    if (reason === "error" || reason === "aborted") {
      message.errorMessage = turn.errorMessage ?? (reason === "error" ? "faux: scripted error" : "Request was aborted");
      out.push({ type: "error", reason, error: message });
    } else {
      out.push({ type: "done", reason, message });
    }
  } catch (error) {
    message.stopReason = "error";
    message.errorMessage = error instanceof Error ? error.message : String(error);
    out.push({ type: "error", reason: "error", error: message });
  }
}

/** Streams one block; false when the request was aborted part-way. */
async function playBlock(
  out: AssistantEventStream,
  message: AssistantMessage,
  block: FauxBlock,
  request: FauxRequest,
  pacing: Pacing,
): Promise<boolean> {
  const signal = request.options?.signal;
  const contentIndex = message.content.length;
  if (block.type === "text") {
    const live: TextContent = { type: "text", text: "" };
    message.content.push(live);
    out.push({ type: "text_start", contentIndex, partial: message });
    for (const delta of chunks(block.text, pacing.charsPerDelta)) {
      if (!(await pace(delta, pacing, signal))) return false;
      live.text += delta;
      out.push({ type: "text_delta", contentIndex, delta, partial: message });
    }
    if (block.textSignature !== undefined) live.textSignature = block.textSignature;
    out.push({ type: "text_end", contentIndex, content: live.text, partial: message });
    return true;
  }
  if (block.type === "thinking") {
    const live: ThinkingContent = { type: "thinking", thinking: "" };
    message.content.push(live);
    out.push({ type: "thinking_start", contentIndex, partial: message });
    for (const delta of chunks(block.thinking, pacing.charsPerDelta)) {
      if (!(await pace(delta, pacing, signal))) return false;
      live.thinking += delta;
      out.push({ type: "thinking_delta", contentIndex, delta, partial: message });
    }
    if (block.thinkingSignature !== undefined) live.thinkingSignature = block.thinkingSignature;
    if (block.redacted) live.redacted = true;
    out.push({ type: "thinking_end", contentIndex, content: live.thinking, partial: message });
    return true;
  }
  const live: ToolCall = {
    type: "toolCall",
    id: block.id ?? `faux_${request.index}_${contentIndex}`,
    name: block.name,
    arguments: {},
  };
  message.content.push(live);
  out.push({ type: "toolcall_start", contentIndex, partial: message });
  let json = "";
  for (const delta of chunks(JSON.stringify(block.arguments ?? {}), pacing.charsPerDelta)) {
    if (!(await pace(delta, pacing, signal))) return false;
    json += delta;
    live.arguments = parsePartialJson(json);
    out.push({ type: "toolcall_delta", contentIndex, delta, partial: message });
  }
  live.arguments = structuredClone(block.arguments ?? {});
  out.push({ type: "toolcall_end", contentIndex, toolCall: live, partial: message });
  return true;
}

/** Waits before a delta: the paced time, or one macrotask so consumers can react (and abort). */
async function pace(delta: string, pacing: Pacing, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return false;
  try {
    if (pacing.tokensPerSecond > 0)
      await sleep((delta.length / CHARS_PER_TOKEN / pacing.tokensPerSecond) * 1000, signal);
    else await new Promise((resolve) => setImmediate(resolve));
  } catch {
    return false;
  }
  return !signal?.aborted;
}

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function abort(out: AssistantEventStream, message: AssistantMessage, request: FauxRequest): void {
  finishUsage(message, request, {});
  message.stopReason = "aborted";
  message.errorMessage = "Request was aborted";
  out.push({ type: "error", reason: "aborted", error: message });
}

/** Fills usage: the turn's own counts, else chars/4 of the context sent and of the answer so far; then prices it. */
function finishUsage(message: AssistantMessage, request: FauxRequest, turn: FauxTurn): void {
  const { context } = request;
  const inputChars =
    (context.systemPrompt ?? "").length + (context.tools?.length ? JSON.stringify(context.tools).length : 0);
  let input = Math.ceil(inputChars / CHARS_PER_TOKEN);
  for (const m of context.messages) input += estimateMessageTokens(m);
  const output = estimateMessageTokens(message);
  const usage = message.usage;
  usage.input = turn.usage?.input ?? input;
  usage.output = turn.usage?.output ?? output;
  usage.cacheRead = turn.usage?.cacheRead ?? 0;
  usage.cacheWrite = turn.usage?.cacheWrite ?? 0;
  priceUsage(usage, request.model);
}
