/**
 * A local HTTP server on 127.0.0.1 that answers LLM API requests from a script: real status codes,
 * headers and Server-Sent Events in each API's wire format, plus the failures that matter (a dropped
 * connection, a stalled stream, a malformed line). It records every request so tests can check bodies.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** One SSE event: `event:` name (optional) and `data:` (objects are JSON-encoded). */
export interface SseEvent {
  event?: string;
  data: unknown;
}

/** One scripted answer to one request. */
export interface ScriptedResponse {
  status?: number;
  headers?: Record<string, string>;
  /** Stream these events as text/event-stream. */
  sse?: SseEvent[];
  /** Raw text appended to the SSE stream after the events (for malformed lines). */
  rawTail?: string;
  /** Answer with this JSON body instead of a stream (errors, non-streaming calls). */
  json?: unknown;
  /** After this many events, destroy the socket without ending the response. */
  dropAfter?: number;
  /** After this many events, stop writing and hold the connection open until the client goes away. */
  stallAfter?: number;
  /**
   * Hold the connection open without answering: "before-headers" sends nothing at all (the request is
   * read, no status line); "after-headers" sends the status and headers, then no body.
   */
  stall?: "before-headers" | "after-headers";
  /** With `rawTail`: after writing it (e.g. half an SSE line), hold the connection open instead of ending. */
  stallAfterTail?: boolean;
  /**
   * Wait this long before each event after the first (a slow stream that does end); a client that goes
   * away meanwhile ends the stream unfinished.
   */
  intervalMs?: number;
  /** Answer with exactly this body (any size, any bytes) instead of JSON or SSE; `headers` set its type. */
  rawBody?: string | Buffer;
}

/** A request as the server saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: any;
}

/** Serializes one event in the SSE wire format. */
export function sseFrame(event: SseEvent): string {
  const data = typeof event.data === "string" ? event.data : JSON.stringify(event.data);
  return `${event.event ? `event: ${event.event}\n` : ""}data: ${data}\n\n`;
}

/** The scripted server. Responses are served in order; a request with none left gets a 500. */
export class MockLlmServer {
  readonly requests: RecordedRequest[] = [];
  private readonly script: ScriptedResponse[] = [];
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  /** Resolvers waiting for the next stalled stream's client to disconnect. */
  private stalls: Array<() => void> = [];
  /** Streams whose every scripted event was written and whose response ended. */
  streamsFinished = 0;
  /** Streams whose client went away before their last event. */
  streamsCutShort = 0;
  url = "";
  /** Answers a request when the queue is empty, from what it asks (see `answerWith`). */
  private responder: ((request: RecordedRequest) => ScriptedResponse | undefined) | undefined;

  /**
   * Answers requests the queue has no entry for by calling `respond` with the request, for tests whose
   * requests come in an order they do not control or whose answer depends on what was sent.
   */
  answerWith(respond: (request: RecordedRequest) => ScriptedResponse | undefined): this {
    this.responder = respond;
    return this;
  }

  /** Queues answers for the next requests. */
  enqueue(...responses: ScriptedResponse[]): this {
    this.script.push(...responses);
    return this;
  }

  /** Drops answers a previous test queued but never had asked for, so a failure does not spill over. */
  clearScript(): void {
    this.script.length = 0;
  }

  /** Starts listening on an ephemeral port of 127.0.0.1. */
  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Resolves when the client of a stalled stream disconnects (e.g. after an abort). */
  clientGone(): Promise<void> {
    return new Promise((resolve) => this.stalls.push(resolve));
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // keep raw text
    }
    const request: RecordedRequest = { method: req.method ?? "GET", path: req.url ?? "/", headers: req.headers, body };
    this.requests.push(request);
    const next = this.script.shift() ?? this.responder?.(request);
    if (next === undefined) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "mock server: no scripted response left" } }));
      return;
    }
    const status = next.status ?? 200;
    if (next.stall === "before-headers") {
      res.on("close", () => this.stalls.shift()?.());
      return;
    }
    if (next.stall === "after-headers") {
      res.writeHead(status, {
        "content-type": next.sse === undefined ? "application/json" : "text/event-stream",
        ...next.headers,
      });
      res.flushHeaders();
      res.on("close", () => this.stalls.shift()?.());
      return;
    }
    if (next.rawBody !== undefined) {
      res.writeHead(status, { "content-type": "application/json", ...next.headers });
      res.end(next.rawBody);
      return;
    }
    if (next.sse === undefined) {
      res.writeHead(status, { "content-type": "application/json", ...next.headers });
      res.end(JSON.stringify(next.json ?? {}));
      return;
    }
    res.writeHead(status, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
      ...next.headers,
    });
    let clientGone = false;
    res.on("close", () => (clientGone = true));
    for (let i = 0; i < next.sse.length; i++) {
      if (next.intervalMs !== undefined && i > 0) {
        await new Promise((resolve) => setTimeout(resolve, next.intervalMs));
        if (clientGone) {
          this.streamsCutShort++;
          return;
        }
      }
      if (next.dropAfter === i) {
        res.socket?.destroy();
        return;
      }
      if (next.stallAfter === i) {
        res.on("close", () => this.stalls.shift()?.());
        return;
      }
      res.write(sseFrame(next.sse[i]!));
      // Let each event leave as its own chunk, as a real server streams them.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (next.dropAfter !== undefined && next.dropAfter >= next.sse.length) {
      res.socket?.destroy();
      return;
    }
    if (next.rawTail !== undefined) res.write(next.rawTail);
    if (next.stallAfterTail === true) {
      res.on("close", () => this.stalls.shift()?.());
      return;
    }
    res.end();
    this.streamsFinished++;
  }
}
