/**
 * The push-based stream every provider returns, and the pieces each needs to build a message. Shared
 * here because providers may not import each other; pure, with no I/O.
 */
import { cleanErrorText } from "./error-text.js";
import type {
  Api,
  AssistantMessage,
  AssistantMessageEvent,
  AssistantStream,
  Model,
  Usage,
} from "../../contracts/ai/types.js";

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

  /**
   * Adds an event; `done` and `error` end the stream. Events after the end are dropped. An error's
   * message is provider-sourced text: it is cleaned (no control characters, at most 4 KB) here, the one
   * place every provider's failure passes, before it can reach a terminal or the session.
   */
  push(event: AssistantMessageEvent): void {
    if (this.finished) return;
    if (event.type === "error" && typeof event.error.errorMessage === "string")
      event.error.errorMessage = cleanErrorText(event.error.errorMessage);
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
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

/** The message a provider starts filling in for `model`. */
export function newAssistantMessage(
  model: Pick<Model, "api" | "provider" | "id">,
  api: Api = model.api,
): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: "stop",
    timestamp: Date.now(),
  };
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

const ARGUMENTS_ERROR = Symbol.for("pi-host.ai.argumentsError");

/**
 * The final arguments of a finished tool call, parsed strictly. Arguments that are not a complete JSON
 * object are never guessed at: the call keeps what could be read (for display) and is marked with the
 * reason, which the agent loop turns into an error result instead of running the tool. Empty text is
 * `{}` (a call without arguments).
 */
export function parseToolArguments(call: { arguments: Record<string, any> }, text: string): void {
  if (text.trim() === "") {
    call.arguments = {};
    return;
  }
  let problem: string;
  try {
    const value = JSON.parse(text) as unknown;
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      call.arguments = value as Record<string, any>;
      return;
    }
    problem = `expected a JSON object, got ${Array.isArray(value) ? "an array" : value === null ? "null" : typeof value}`;
  } catch (error) {
    problem = (error as Error).message;
  }
  call.arguments = parsePartialJson(text);
  const shown = text.length > 200 ? `${text.slice(0, 200)}… (${text.length} characters)` : text;
  Object.defineProperty(call, ARGUMENTS_ERROR, {
    value: `the arguments were not valid JSON: ${problem}: ${shown}`,
    enumerable: false,
    configurable: true,
    writable: true,
  });
}

/** Why a tool call's final arguments are unusable (set by `parseToolArguments`), or undefined when they are fine. */
export function argumentsErrorOf(call: object): string | undefined {
  const value = (call as Record<symbol, unknown>)[ARGUMENTS_ERROR];
  return typeof value === "string" ? value : undefined;
}

/**
 * Parses JSON that may be cut off mid-way (tool-call arguments while they stream), in one pass: it
 * remembers the last point where the text so far could be closed into valid JSON (after an opening
 * bracket, after a whole value, inside a string value) and closes it there. Returns `{}` until an object
 * has begun. Linear in the text's length.
 */
export function parsePartialJson(text: string): Record<string, any> {
  try {
    const whole = JSON.parse(text) as unknown;
    return whole !== null && typeof whole === "object" && !Array.isArray(whole) ? (whole as Record<string, any>) : {};
  } catch {
    // cut off: repair below
  }
  type Frame = { kind: "{" | "["; expect: "key" | "colon" | "value" | "comma" };
  const stack: Frame[] = [];
  const closers = (): string =>
    stack
      .map((f) => (f.kind === "{" ? "}" : "]"))
      .reverse()
      .join("");
  let safe: { end: number; tail: string } | undefined;
  const valueDone = (end: number): void => {
    const top = stack.at(-1);
    if (top) top.expect = "comma";
    safe = { end, tail: closers() };
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    const top = stack.at(-1);
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === "{" || ch === "[") {
      stack.push({ kind: ch, expect: ch === "{" ? "key" : "value" });
      i++;
      safe = { end: i, tail: closers() };
    } else if (ch === "}" || ch === "]") {
      stack.pop();
      i++;
      valueDone(i);
      if (stack.length === 0) break;
    } else if (ch === ",") {
      if (top) top.expect = top.kind === "{" ? "key" : "value";
      i++;
    } else if (ch === ":") {
      if (top) top.expect = "value";
      i++;
    } else if (ch === '"') {
      const isKey = top?.kind === "{" && top.expect === "key";
      let j = i + 1;
      let closed = false;
      while (j < text.length) {
        const c = text[j]!;
        if (c === "\\") {
          if (j + 1 >= text.length) break;
          const escapeEnd = text[j + 1] === "u" ? j + 6 : j + 2;
          if (escapeEnd > text.length) break;
          j = escapeEnd;
          continue;
        }
        if (c === '"') {
          closed = true;
          break;
        }
        j++;
      }
      if (!closed) {
        // Cut inside a string: a value string can be closed where its last whole character ends.
        if (!isKey && top !== undefined) safe = { end: j, tail: `"${closers()}` };
        break;
      }
      i = j + 1;
      if (isKey) top!.expect = "colon";
      else valueDone(i);
    } else {
      const token = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i))?.[0];
      const atEnd = token !== undefined && i + token.length >= text.length;
      if (token === undefined || (atEnd && !/^-?\d/.test(token))) break;
      // A number at the very end may still be growing; its digits so far are a valid number.
      i += token.length;
      valueDone(i);
      if (atEnd) break;
    }
  }
  if (safe === undefined) return {};
  try {
    const value = JSON.parse(text.slice(0, safe.end) + safe.tail) as unknown;
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, any>) : {};
  } catch {
    return {};
  }
}
