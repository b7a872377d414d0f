/**
 * Token estimates for a conversation, so compaction can decide when to act without a tokenizer. The
 * provider's own count is exact for everything it has seen, so the estimate starts from the usage of
 * the last answered request and adds a rough chars/4 count only for what came after it. Pure, no I/O.
 */
import type { Message, Usage } from "../../contracts/ai/types.js";

/** Characters per token in the rough estimate: deliberately pessimistic for English and code. */
export const CHARS_PER_TOKEN = 4;

/** What one image costs in the estimate; providers bill roughly this much for a typical screenshot. */
export const IMAGE_TOKENS = 1_200;

/** How many tokens a context is estimated to hold, and where that number came from. */
export interface ContextEstimate {
  /** usageTokens + trailingTokens. */
  tokens: number;
  /** Tokens reported by the last answered assistant message (0 when there is none). */
  usageTokens: number;
  /** The chars/4 estimate of the messages after that message (all messages when there is none). */
  trailingTokens: number;
  /** Index of the assistant message whose usage anchors the estimate, or undefined. */
  lastUsageIndex: number | undefined;
}

/** The tokens a request used in total: prompt, cache reads and writes, and the answer. */
export function usageTokens(usage: Usage): number {
  return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** A chars/4 estimate of one message's tokens; images count IMAGE_TOKENS each. */
export function estimateMessageTokens(message: Message): number {
  let chars = 0;
  let images = 0;
  if (message.role === "assistant") {
    for (const block of message.content) {
      if (block.type === "text") chars += block.text.length;
      else if (block.type === "thinking") chars += block.thinking.length;
      else chars += block.name.length + JSON.stringify(block.arguments ?? {}).length;
    }
  } else {
    const content = message.content;
    if (typeof content === "string") chars += content.length;
    else {
      for (const block of content) {
        if (block.type === "text") chars += block.text.length;
        else images++;
      }
    }
    if (message.role === "toolResult") chars += message.toolName.length;
  }
  return Math.ceil(chars / CHARS_PER_TOKEN) + images * IMAGE_TOKENS;
}

/**
 * Estimates the tokens `messages` will take as the next request's context: the usage of the last
 * assistant message that completed (errored and aborted answers carry no trustworthy usage), plus an
 * estimate of every message after it.
 */
export function estimateContextTokens(messages: readonly Message[]): ContextEstimate {
  let anchor: number | undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (
      message.role === "assistant" &&
      message.stopReason !== "error" &&
      message.stopReason !== "aborted" &&
      usageTokens(message.usage) > 0
    ) {
      anchor = i;
      break;
    }
  }
  const anchored =
    anchor === undefined ? 0 : usageTokens((messages[anchor] as Extract<Message, { role: "assistant" }>).usage);
  let trailing = 0;
  for (let i = anchor === undefined ? 0 : anchor + 1; i < messages.length; i++)
    trailing += estimateMessageTokens(messages[i]!);
  return { tokens: anchored + trailing, usageTokens: anchored, trailingTokens: trailing, lastUsageIndex: anchor };
}
