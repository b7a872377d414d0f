/**
 * What one run did, read from the `pi --mode json` event stream it printed (pi 1.6's session events, one
 * JSON object a line): turns, tokens and cost summed over assistant messages, the final answer, and
 * the provider's error when the last assistant message ended in one.
 */

/** Totals of one run. */
export interface RunMetrics {
  /** `turn_end` events: one assistant response with its tool calls. */
  turns: number;
  /** Input + output + cache read + cache write tokens of every assistant message. */
  tokens: number;
  /** The provider's cost of every assistant message, in dollars (0 where the model has no prices). */
  cost: number;
  /** The text of the last assistant message. */
  answer: string;
  /** The error message of the last assistant message when it stopped on an error. */
  error: string | undefined;
  /** Whether the run reached `agent_end`. */
  ended: boolean;
  /** `provider/id` of the model that wrote the last assistant message (the one pi chose without --model). */
  model: string | undefined;
}

/** Sums a run's events; lines that are not JSON objects (there should be none) are skipped. */
export class RunEventReader {
  private readonly metrics: RunMetrics = {
    turns: 0,
    tokens: 0,
    cost: 0,
    answer: "",
    error: undefined,
    ended: false,
    model: undefined,
  };
  private rest = "";

  /** Takes a chunk of stdout; records are split on LF only, as pi 1.6's JSON mode frames them. */
  push(chunk: string): void {
    const lines = (this.rest + chunk).split("\n");
    this.rest = lines.pop() ?? "";
    for (const line of lines) this.line(line.replace(/\r$/, ""));
  }

  /** The totals, after the last chunk. */
  finish(): RunMetrics {
    if (this.rest !== "") this.line(this.rest);
    this.rest = "";
    return { ...this.metrics };
  }

  private line(line: string): void {
    if (line.trim() === "") return;
    let event: any;
    try {
      event = JSON.parse(line);
    } catch {
      return;
    }
    if (event === null || typeof event !== "object") return;
    if (event.type === "turn_end") this.metrics.turns++;
    else if (event.type === "agent_end") this.metrics.ended = true;
    else if (event.type === "message_end" && event.message?.role === "assistant") this.assistant(event.message);
  }

  private assistant(message: any): void {
    const usage = message.usage ?? {};
    const count = (n: unknown): number => (typeof n === "number" && Number.isFinite(n) ? n : 0);
    this.metrics.tokens += count(usage.input) + count(usage.output) + count(usage.cacheRead) + count(usage.cacheWrite);
    this.metrics.cost += count(usage.cost?.total);
    const content = message.content;
    this.metrics.answer =
      typeof content === "string"
        ? content
        : Array.isArray(content)
          ? content
              .filter((block: any) => block?.type === "text" && typeof block.text === "string")
              .map((block: any) => block.text)
              .join("")
          : "";
    if (typeof message.provider === "string" && typeof message.model === "string")
      this.metrics.model = `${message.provider}/${message.model}`;
    this.metrics.error =
      message.stopReason === "error" ? String(message.errorMessage ?? "the provider reported an error") : undefined;
  }
}
