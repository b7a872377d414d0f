/**
 * The Gemini wire tap reads the stream linearly: a long event arriving in many small chunks is searched
 * for event breaks once, not once per chunk (it used to re-split everything pending on every chunk),
 * and it still finds a malformed event whose break is split across two chunks.
 */
import { describe, expect, it } from "vitest";
import { WireTap } from "../../../plugins/ai/provider-google/wire-tap.js";

/** A transport that answers with `chunks` as the body, one chunk per read. */
function serving(chunks: string[]): typeof fetch {
  return async () => {
    const encoder = new TextEncoder();
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (i < chunks.length) controller.enqueue(encoder.encode(chunks[i++]!));
        else controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
  };
}

/** Reads one response through the tap, with the global fetch (the tap's default transport) serving `chunks`. */
async function readAll(tap: WireTap, chunks: string[]): Promise<void> {
  const original = globalThis.fetch;
  globalThis.fetch = serving(chunks);
  try {
    const response = await tap.fetch("http://127.0.0.1/x");
    await response.text();
  } finally {
    globalThis.fetch = original;
  }
}

describe("WireTap", () => {
  it("reads a 12 MB event sent in 16 KB chunks in linear time", async () => {
    const event = `data: {"text":"${"a".repeat(12 * 1024 * 1024)}"}\n\n`;
    const chunks: string[] = [];
    for (let i = 0; i < event.length; i += 16 * 1024) chunks.push(event.slice(i, i + 16 * 1024));
    const tap = new WireTap();
    const started = Date.now();
    await readAll(tap, chunks);
    expect(tap.malformedEvent).toBeUndefined();
    // Generous: the quadratic reader took far longer (768 re-splits of up to 12 MB).
    expect(Date.now() - started).toBeLessThan(3_000);
  }, 60_000);

  it("finds a malformed event whose blank-line break is split across chunks", async () => {
    const tap = new WireTap();
    await readAll(tap, ['data: {"ok":1}\r\n', "\r\ndata: {not json}\r", "\n\r\n", 'data: {"ok":2}\n\n']);
    expect(tap.malformedEvent).toBe("data: {not json}");
  });
});
