/**
 * Cross-provider handoff, applied before every send. A history written by one model must stay valid for
 * another: thinking from another model becomes plain text (its signature means nothing elsewhere),
 * foreign signatures are dropped, tool-call ids are rewritten to the target API's rules (and their
 * results follow), errored or aborted assistant turns are dropped, tool calls left without a result get a
 * synthetic error result, and images become a note for text-only models.
 */
import type {
  AssistantMessage,
  ImageContent,
  Message,
  Model,
  TextContent,
  ToolCall,
  ToolResultMessage,
} from "../../contracts/ai/types.js";

/** Rewrites a tool-call id to what the target API accepts; must be deterministic and collision-free. */
export type ToolCallIdRule = (id: string) => string;

const USER_IMAGE_NOTE = "(image omitted: this model does not accept images)";
const TOOL_IMAGE_NOTE = "(tool image omitted: this model does not accept images)";
const MISSING_RESULT = "No result provided: the tool call was interrupted before it returned";

/** Whether `message` was written by exactly this model on exactly this API. */
export function isSameModel(message: AssistantMessage, model: Pick<Model, "provider" | "api" | "id">): boolean {
  return message.provider === model.provider && message.api === model.api && message.model === model.id;
}

/** Returns the history as `model` may receive it. Never mutates its input. */
export function prepareHistory(messages: readonly Message[], model: Model, idRule?: ToolCallIdRule): Message[] {
  return [...historyFor(messages, model, idRule)];
}

/**
 * `prepareHistory`'s messages one at a time, each converted when it is asked for: a provider that
 * serializes its request as it sends it never holds a converted copy of a long history (every assistant
 * turn of another model is a new message). Each call starts over, so the same input gives the same messages.
 */
export function* historyFor(messages: Iterable<Message>, model: Model, idRule?: ToolCallIdRule): Generator<Message> {
  const ids = new Map<string, string>();
  const acceptsImages = model.input.includes("image");
  let pending: ToolCall[] = [];
  let answered = new Set<string>();

  const missingResults = (): ToolResultMessage[] => {
    const out: ToolResultMessage[] = [];
    for (const call of pending) {
      if (answered.has(call.id)) continue;
      out.push({
        role: "toolResult",
        toolCallId: call.id,
        toolName: call.name,
        content: [{ type: "text", text: MISSING_RESULT }],
        isError: true,
        timestamp: Date.now(),
      });
    }
    pending = [];
    answered = new Set();
    return out;
  };

  for (const message of messages) {
    if (message.role === "user") {
      yield* missingResults();
      yield acceptsImages || typeof message.content === "string"
        ? message
        : { ...message, content: withoutImages(message.content, USER_IMAGE_NOTE) };
      continue;
    }
    if (message.role === "toolResult") {
      const toolCallId = ids.get(message.toolCallId) ?? message.toolCallId;
      answered.add(toolCallId);
      const content = acceptsImages ? message.content : withoutImages(message.content, TOOL_IMAGE_NOTE);
      yield toolCallId === message.toolCallId && content === message.content
        ? message
        : ({ ...message, toolCallId, content } as ToolResultMessage);
      continue;
    }
    yield* missingResults();
    if (message.stopReason === "error" || message.stopReason === "aborted") continue;
    const converted = convertAssistant(message, model, idRule, ids);
    pending = converted.content.filter((b): b is ToolCall => b.type === "toolCall");
    yield converted;
  }
  yield* missingResults();
}

function convertAssistant(
  message: AssistantMessage,
  model: Model,
  idRule: ToolCallIdRule | undefined,
  ids: Map<string, string>,
): AssistantMessage {
  const same = isSameModel(message, model);
  const content: AssistantMessage["content"] = [];
  for (const block of message.content) {
    if (block.type === "thinking") {
      if (same && (block.thinkingSignature || block.redacted)) content.push(block);
      else if (block.redacted) continue;
      else if (block.thinking.trim() === "") continue;
      else content.push(same ? block : { type: "text", text: block.thinking });
    } else if (block.type === "text") {
      content.push(same ? block : { type: "text", text: block.text });
    } else {
      let id = block.id;
      if (!same && idRule) {
        id = idRule(block.id);
        if (id !== block.id) ids.set(block.id, id);
      }
      const { thoughtSignature, ...rest } = block;
      content.push(same ? block : { ...rest, id });
      void thoughtSignature;
    }
  }
  return { ...message, content };
}

function withoutImages(content: Array<TextContent | ImageContent>, note: string): Array<TextContent | ImageContent> {
  if (!content.some((b) => b.type === "image")) return content;
  const out: Array<TextContent | ImageContent> = [];
  for (const block of content) {
    if (block.type !== "image") out.push(block);
    else if (out.at(-1)?.type !== "text" || (out.at(-1) as TextContent).text !== note)
      out.push({ type: "text", text: note });
  }
  return out;
}

/** A short, stable hash (FNV-1a, 32 bits, base 36) for building ids. */
export function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/**
 * Builds an id rule: keep ids that already match `allowed` and fit `maxLength`; otherwise keep the
 * allowed characters and add a hash of the original so two different ids never collide.
 */
export function idRule(allowed: RegExp, maxLength: number, prefix = ""): ToolCallIdRule {
  return (id) => {
    if (allowed.test(id) && id.length <= maxLength && id.startsWith(prefix)) return id;
    const hash = shortHash(id);
    const cleaned = id.replace(/[^a-zA-Z0-9_-]/g, "_");
    const room = maxLength - prefix.length - hash.length - 1;
    return `${prefix}${cleaned.slice(0, Math.max(0, room))}_${hash}`;
  };
}
