/**
 * A fetch wrapper handed to the Gemini SDK. The SDK throws away two facts we need: the headers of a
 * failed response (its ApiError has only a status and the body), and the raw text of a stream event it
 * could not parse (its SyntaxError names a position, not the line). The tap records both, without
 * changing a byte of what the SDK reads. It reads linearly: each chunk is searched once for event
 * breaks (a 32 MB event costs one pass, not one pass per chunk); the request guard under it caps the
 * length of a line.
 */

/** What one request attempt looked like on the wire. Reset before each attempt. */
export class WireTap {
  /** Headers of the last non-2xx response (Retry-After lives here). */
  errorHeaders: Headers | undefined;
  /** The first `data:` event whose payload is not JSON, exactly as it arrived. */
  malformedEvent: string | undefined;
  /** Text received after the last complete event, in the pieces it arrived in. */
  private parts: string[] = [];
  private partsLength = 0;
  /** The fetch under the tap for this attempt (the request guard's). */
  private transport: typeof fetch = (input, init) => fetch(input, init);

  /** Forgets the previous attempt; `transport` is the fetch this attempt's requests go through. */
  reset(transport?: typeof fetch): void {
    this.errorHeaders = undefined;
    this.malformedEvent = undefined;
    this.parts = [];
    this.partsLength = 0;
    if (transport !== undefined) this.transport = transport;
  }

  /** The fetch the SDK calls instead of the global one. */
  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const response = await this.transport(input, init);
    if (!response.ok) {
      this.errorHeaders = response.headers;
      return response;
    }
    if (response.body === null) return response;
    const decoder = new TextDecoder();
    const watched = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform: (chunk, controller) => {
          this.observe(decoder.decode(chunk, { stream: true }));
          controller.enqueue(chunk);
        },
        flush: () => this.observeEnd(decoder.decode()),
      }),
    );
    return new Response(watched, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };

  private observe(text: string): void {
    if (this.malformedEvent !== undefined || text === "") return;
    // Only the new text, and the 3 characters before it where a break may have begun, can hold a break.
    // The pending text is kept in pieces and joined only when an event ends: searching a growing
    // string on every chunk would copy it every time.
    const tail = this.pendingTail();
    if (!/\r\n\r\n|\n\n|\r\r/.test(tail + text)) {
      this.parts.push(text);
      this.partsLength += text.length;
      return;
    }
    const all = this.parts.join("") + text;
    // The SDK splits events on the same delimiters.
    const breaks = /\r\n\r\n|\n\n|\r\r/g;
    breaks.lastIndex = this.partsLength - tail.length;
    let start = 0;
    for (let match = breaks.exec(all); match !== null; match = breaks.exec(all)) {
      this.check(all.slice(start, match.index));
      start = match.index + match[0].length;
    }
    const rest = all.slice(start);
    this.parts = rest === "" ? [] : [rest];
    this.partsLength = rest.length;
  }

  /** The last (up to) 3 characters of the pending text. */
  private pendingTail(): string {
    let tail = "";
    for (let i = this.parts.length - 1; i >= 0 && tail.length < 3; i--) tail = this.parts[i]!.slice(-3) + tail;
    return tail.slice(-3);
  }

  private observeEnd(text: string): void {
    if (this.malformedEvent !== undefined) return;
    const rest = (this.parts.join("") + text).trim();
    this.parts = [];
    this.partsLength = 0;
    // The SDK refuses any text left without a closing blank line, JSON or not.
    if (rest !== "") this.malformedEvent = rest;
  }

  private check(event: string): void {
    const trimmed = event.trim();
    if (!trimmed.startsWith("data:")) return;
    try {
      JSON.parse(trimmed.slice("data:".length).trim());
    } catch {
      this.malformedEvent ??= trimmed;
    }
  }
}
