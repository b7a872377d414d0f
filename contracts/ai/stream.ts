/**
 * The push-based stream every provider returns, and the pieces each needs to build a message. Shared
 * here because providers may not import each other; pure, with no I/O.
 */
import type { Api, AssistantMessage, AssistantMessageEvent, AssistantStream, Model, Usage } from "./types.js";

/** A single-producer, single-consumer async queue of events with a final result. */
export class AssistantEventStream implements AssistantStream {
  private readonly queue: AssistantMessageEvent[] = [];
  private waiting: ((result: IteratorResult<AssistantMessageEvent>) => void) | undefined;
  private finished = false;
  private readonly final: Promise<AssistantMessage>;
  private resolveFinal!: (message: AssistantMessage) => void;

  constructor() {
    this.final = new Promise((resolve) => (this.resolveFinal = resolve));
  }

  /** Adds an event; `done` and `error` end the stream. Events after the end are dropped. */
  push(event: AssistantMessageEvent): void {
    if (this.finished) return;
    if (event.type === "done" || event.type === "error") {
      this.finished = true;
      this.resolveFinal(event.type === "done" ? event.message : event.error);
    }
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting({ value: event, done: false });
    } else {
      this.queue.push(event);
    }
  }

  /** The final message, whether the stream ended in `done` or `error`. */
  result(): Promise<AssistantMessage> {
    return this.final;
  }

  [Symbol.asyncIterator](): AsyncIterator<AssistantMessageEvent> {
    return {
      next: () => {
        const event = this.queue.shift();
        if (event !== undefined) return Promise.resolve({ value: event, done: false });
        if (this.finished) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiting = resolve));
      },
      return: () => Promise.resolve({ value: undefined, done: true }),
    };
  }
}

/** A zero usage record. */
export function emptyUsage(): Usage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
}

/** The message a provider starts filling in for `model`. */
export function newAssistantMessage(model: Pick<Model, "api" | "provider" | "id">, api: Api = model.api): AssistantMessage {
  return { role: "assistant", content: [], api, provider: model.provider, model: model.id, usage: emptyUsage(), stopReason: "stop", timestamp: Date.now() };
}

/** Fills `usage.cost` from the model's prices (US dollars per million tokens) and sums the total. */
export function priceUsage(usage: Usage, model: Pick<Model, "cost">): Usage {
  const per = (tokens: number, price: number): number => (tokens * price) / 1_000_000;
  usage.cost.input = per(usage.input, model.cost.input);
  usage.cost.output = per(usage.output, model.cost.output);
  usage.cost.cacheRead = per(usage.cacheRead, model.cost.cacheRead);
  usage.cost.cacheWrite = per(usage.cacheWrite, model.cost.cacheWrite);
  usage.cost.total = usage.cost.input + usage.cost.output + usage.cost.cacheRead + usage.cost.cacheWrite;
  usage.totalTokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
  return usage;
}

/**
 * Parses JSON that may be cut off mid-way (tool-call arguments while they stream). Closes open strings,
 * arrays and objects; returns `{}` when nothing usable has arrived yet.
 */
export function parsePartialJson(text: string): Record<string, any> {
  const trimmed = text.trim();
  if (trimmed === "") return {};
  try {
    const whole = JSON.parse(trimmed) as unknown;
    return whole !== null && typeof whole === "object" && !Array.isArray(whole) ? (whole as Record<string, any>) : {};
  } catch {
    // fall through to repair
  }
  const closers: string[] = [];
  let inString = false;
  let escaped = false;
  for (const ch of trimmed) {
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "{") closers.push("}");
    else if (ch === "[") closers.push("]");
    else if (ch === "}" || ch === "]") closers.pop();
  }
  let repaired = trimmed;
  if (inString) repaired += escaped ? '\\"' : '"';
  // Drop a dangling key, colon or comma that cannot be completed.
  for (let attempt = 0; attempt < 4; attempt++) {
    const candidate = repaired.replace(/,\s*$/, "").replace(/,\s*"[^"]*"\s*:?\s*$/, "").replace(/\{\s*"[^"]*"\s*:?\s*$/, "{").replace(/:\s*$/, ": null");
    try {
      const value = JSON.parse(candidate + closers.slice().reverse().join("")) as unknown;
      return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, any>) : {};
    } catch {
      repaired = repaired.slice(0, -1);
      if (repaired.length === 0) break;
    }
  }
  return {};
}
