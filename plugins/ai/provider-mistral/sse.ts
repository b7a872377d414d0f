/**
 * Mistral's server-sent events: `data: {json}` lines, events split by a blank line (any of CR, LF,
 * CRLF), ending with `data: [DONE]` or the end of the body. Each event is one completion chunk.
 */

/** One streamed completion chunk, the fields this provider reads. */
export interface MistralChunk {
  id?: string;
  usage?: Record<string, unknown> & { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
  choices: Array<{
    index?: number;
    finish_reason?: string | null;
    delta: {
      role?: string;
      content?: string | null | MistralContentChunk[];
      tool_calls?: MistralToolCallDelta[] | null;
    };
  }>;
}

/** A typed content chunk of a delta (text, or thinking made of text parts). */
export type MistralContentChunk =
  | { type: "text"; text?: string }
  | { type: "thinking"; thinking?: Array<{ type?: string; text?: string }> }
  | { type: string; [field: string]: unknown };

/** One tool call's piece in a delta. */
export interface MistralToolCallDelta {
  id?: string | null;
  index?: number;
  function: { name?: string; arguments?: string | Record<string, unknown> };
}

/** The chunks of a response body, in order; throws on an event that is not a chunk. */
export async function* readChunks(body: AsyncIterable<Uint8Array>): AsyncGenerator<MistralChunk> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const bytes of body) {
    buffer += decoder.decode(bytes, { stream: true });
    for (let cut = boundary(buffer); cut !== undefined; cut = boundary(buffer)) {
      const event = parse(buffer.slice(0, cut.index));
      buffer = buffer.slice(cut.index + cut.length);
      if (event === "done") return;
      if (event !== undefined) yield event;
    }
  }
  buffer += decoder.decode();
  const last = parse(buffer);
  if (last !== undefined && last !== "done") yield last;
}

function boundary(buffer: string): { index: number; length: number } | undefined {
  const match = /\r\n\r\n|\n\n|\r\r|\r\n\n|\n\r\n/.exec(buffer);
  return match === null ? undefined : { index: match.index, length: match[0].length };
}

function parse(raw: string): MistralChunk | "done" | undefined {
  const data = raw
    .split(/\r\n|\r|\n/)
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(5).trimStart())
    .join("\n")
    .trim();
  if (data === "") return undefined;
  if (data === "[DONE]") return "done";
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    throw new Error(`Malformed data in the Mistral stream (not JSON): ${JSON.stringify(data.slice(0, 300))}`);
  }
  if (parsed === null || typeof parsed !== "object" || !Array.isArray((parsed as MistralChunk).choices)) {
    // Mistral reports a failure mid-stream as an object without choices.
    const message = (parsed as { message?: unknown; error?: { message?: unknown } } | null)?.message;
    throw new Error(typeof message === "string" ? `Mistral API error: ${message}` : "Invalid Mistral streaming event");
  }
  return parsed as MistralChunk;
}
