/**
 * One call to the summarizer, with the checks every call needs: stop before and after it once the
 * caller aborted, and refuse an empty answer (an empty summary would silently erase the history).
 */
import type { Handle, Llm, Model, UserMessage } from "pi-host";

/** One summary request: what compaction and branch summaries ask the model. */
export interface SummaryRequest {
  systemPrompt: string;
  prompt: string;
  maxTokens: number;
}

/** Asks an LLM for a summary; bound to a model, a key and an abort signal by `summarizerFor`. */
export type Summarize = (request: SummaryRequest) => Promise<string>;

/**
 * A summarizer that asks `model` through the LLM router: one user message, no tools, reasoning off,
 * the text of the answer back, or the answer's error as a thrown one-line error.
 */
export function summarizerFor(llm: Handle<Llm>, model: Model, signal: AbortSignal | undefined): Summarize {
  return async ({ systemPrompt, prompt, maxTokens }) => {
    const request: UserMessage = { role: "user", content: prompt, timestamp: Date.now() };
    const message = await llm.api.complete(
      model,
      { systemPrompt, messages: [request] },
      { maxTokens, signal, reasoning: "off" },
    );
    if (message.stopReason === "error" || message.stopReason === "aborted")
      throw new Error(message.errorMessage ?? "summary request failed");
    return message.content.map((b) => (b.type === "text" ? b.text : "")).join("");
  };
}

/** Calls `summarize` and returns its trimmed text; throws the abort reason or a one-line error. */
export async function requestSummary(
  summarize: Summarize,
  request: SummaryRequest,
  signal: AbortSignal | undefined,
): Promise<string> {
  signal?.throwIfAborted();
  const text = await summarize(request);
  signal?.throwIfAborted();
  if (typeof text !== "string" || text.trim() === "")
    throw new Error("compaction: the summarizer returned an empty summary");
  return text.trim();
}
