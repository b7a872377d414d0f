/**
 * Builders for compaction tests: a session path with 8-hex ids whose message texts carry their entry
 * id as a `<<id>>` marker (so a test can read exactly which entries reached the summarizer), sized in
 * chars/4 tokens; a fake `summarize` that records every request; and a seeded PRNG.
 */
import type { AgentMessage } from "../../../contracts/agent.js";
import type { AssistantMessage, ToolCall, ToolResultMessage, Usage } from "../../../contracts/ai/index.js";
import type { CompactionResult, SessionEntry } from "../../../contracts/session.js";
import type { Summarize, SummaryRequest } from "../../../plugins/session/compaction/summary-call.js";

/** Zero usage: estimates then rest on chars/4 alone. */
export function zeroUsage(totalTokens = 0): Usage {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

/** `<<id>>` — how a message names the entry that holds it. */
export function marker(id: string): string {
  return `<<${id}>>`;
}

/** Every entry id named by a marker in `text`. */
export function markersIn(text: string): string[] {
  return [...text.matchAll(/<<([0-9a-f]{8})>>/g)].map((match) => match[1]!);
}

/** Text of exactly `tokens` chars/4 tokens that starts with the entry's marker. */
export function sizedText(id: string, tokens: number): string {
  const head = `${marker(id)} `;
  const chars = Math.max(tokens * 4, head.length);
  return head + "x".repeat(chars - head.length);
}

/** A tool call to add to an assistant message. */
export interface CallSpec {
  name: string;
  arguments: Record<string, unknown>;
}

/** Appends entries to a root→leaf path, each the child of the one before. */
export class PathBuilder {
  readonly path: SessionEntry[] = [];
  private counter = 0;
  private readonly pendingCalls: ToolCall[] = [];

  /** The id the next entry will get. */
  nextId(): string {
    return (this.counter + 1).toString(16).padStart(8, "0");
  }

  private add<T extends SessionEntry>(
    build: (base: { id: string; parentId: string | null; timestamp: string }) => T,
  ): T {
    this.counter++;
    const id = this.counter.toString(16).padStart(8, "0");
    const parentId = this.path.length > 0 ? this.path[this.path.length - 1]!.id : null;
    const entry = build({ id, parentId, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, this.counter)).toISOString() });
    this.path.push(entry);
    return entry;
  }

  private message(message: AgentMessage): SessionEntry {
    return this.add((base) => ({ ...base, type: "message", message }));
  }

  /** A user message of `tokens` tokens. */
  user(tokens = 10, text?: string): SessionEntry {
    const id = this.nextId();
    return this.message({ role: "user", content: text ?? sizedText(id, tokens), timestamp: 0 });
  }

  /** An assistant message: text of `tokens` tokens, then the given tool calls (whose results `toolResults` answers). */
  assistant(tokens = 10, calls: CallSpec[] = [], usageTokens = 0): SessionEntry {
    const id = this.nextId();
    const toolCalls: ToolCall[] = calls.map((call, index) => ({
      type: "toolCall",
      id: `call_${id}_${index}`,
      name: call.name,
      arguments: call.arguments,
    }));
    this.pendingCalls.push(...toolCalls);
    const message: AssistantMessage = {
      role: "assistant",
      content: [{ type: "text", text: sizedText(id, tokens) }, ...toolCalls],
      api: "openai-completions",
      provider: "test",
      model: "test-model",
      usage: zeroUsage(usageTokens),
      stopReason: toolCalls.length > 0 ? "toolUse" : "stop",
      timestamp: 0,
    };
    return this.message(message);
  }

  /** The result of the oldest unanswered tool call, `tokens` tokens long. */
  toolResult(tokens = 10): SessionEntry {
    const call = this.pendingCalls.shift();
    if (!call) throw new Error("toolResult() without a pending tool call");
    const id = this.nextId();
    const message: ToolResultMessage = {
      role: "toolResult",
      toolCallId: call.id,
      toolName: call.name,
      content: [{ type: "text", text: sizedText(id, tokens) }],
      isError: false,
      timestamp: 0,
    };
    return this.message(message);
  }

  /** Answers every pending tool call. */
  toolResults(tokens = 10): void {
    while (this.pendingCalls.length > 0) this.toolResult(tokens);
  }

  /** A user `!command` run. */
  bash(tokens = 10): SessionEntry {
    const id = this.nextId();
    return this.message({
      role: "bashExecution",
      command: `echo ${marker(id)}`,
      output: "y".repeat(tokens * 4),
      exitCode: 0,
      cancelled: false,
      truncated: false,
      timestamp: 0,
    });
  }

  /** An extension message that is part of the context. */
  customMessage(tokens = 10): SessionEntry {
    return this.add((base) => ({
      ...base,
      type: "custom_message",
      customType: "note",
      content: sizedText(base.id, tokens),
      display: true,
    }));
  }

  /** A branch summary entry with file details. */
  branchSummary(summary: string, details?: unknown, fromHook?: boolean): SessionEntry {
    return this.add((base) => ({ ...base, type: "branch_summary", fromId: "ffffffff", summary, details, fromHook }));
  }

  /** A model switch: an entry the model never sees. */
  modelChange(): SessionEntry {
    return this.add((base) => ({ ...base, type: "model_change", provider: "test", modelId: "other" }));
  }
  /** A label on another entry: also never seen by the model. */
  label(targetId: string): SessionEntry {
    return this.add((base) => ({ ...base, type: "label", targetId, label: "mark" }));
  }

  /** Appends a compaction as the session store would after `compact` returned `result`. */
  compaction(
    result: Pick<CompactionResult, "summary" | "firstKeptEntryId" | "tokensBefore"> & {
      details?: unknown;
      fromHook?: boolean;
    },
  ): SessionEntry {
    return this.add((base) => ({ ...base, type: "compaction", ...result }));
  }
}

/** A recorded summarize request. */
export type { SummaryRequest };

/** A fake `summarize`: records each request and answers with `answer(request, index)`. */
export function fakeSummarizer(
  answer: (request: SummaryRequest, index: number) => string = (_request, index) => `SUMMARY ${index + 1}`,
): { summarize: Summarize; requests: SummaryRequest[] } {
  const requests: SummaryRequest[] = [];
  const summarize: Summarize = async (request) => {
    requests.push(request);
    return answer(request, requests.length - 1);
  };
  return { summarize, requests };
}

/** mulberry32: a small deterministic PRNG so generated sessions are the same on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [min, max]. */
export function randomInt(random: () => number, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}
