/**
 * A TCP relay between a provider's SDK and MockLlmServer that can hold a response part-way. The mock
 * server writes a whole scripted stream at once; to keep a real request in flight for as long as a test
 * needs (a plugin reload in the middle of a stream), the relay forwards the response up to the end of
 * the first SSE event that contains a marker, keeps the rest, and lets it through on `release()`. No
 * timers: the test awaits `holding`, then releases when it is ready.
 */
import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/** A hold armed for the next connection. */
export interface Hold {
  /** Resolves once the client has everything up to the marker's event and the rest is being kept. */
  holding: Promise<void>;
  /** Sends what was kept and lets the rest of the response through. */
  release(): void;
}

interface ArmedHold {
  marker: Buffer;
  reached: () => void;
  released: Promise<void>;
}

const EVENT_END = Buffer.from("\n\n");
const CHUNK_END = Buffer.from("\r\n");

/** Relays 127.0.0.1 connections to `targetUrl`'s host and port. */
export class HoldingRelay {
  url = "";
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private armed: ArmedHold | undefined;

  constructor(private readonly targetUrl: string) {}

  async start(): Promise<this> {
    const target = new URL(this.targetUrl);
    this.server = createServer((client) => this.relay(client, Number(target.port), target.hostname));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Holds the next connection's response after the SSE event containing `marker`. */
  holdNextAfter(marker: string): Hold {
    let reached!: () => void;
    let release!: () => void;
    const holding = new Promise<void>((resolve) => (reached = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.armed = { marker: Buffer.from(marker), reached, released };
    return { holding, release };
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private relay(client: Socket, port: number, host: string): void {
    const upstream = connect(port, host);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    const hold = this.armed;
    this.armed = undefined;
    if (hold === undefined) {
      upstream.pipe(client);
      return;
    }
    let seen = Buffer.alloc(0);
    let state: "watching" | "holding" | "passing" = "watching";
    let kept: Buffer[] = [];
    let ended = false;
    upstream.on("data", (chunk: Buffer) => {
      if (state === "passing") return void client.write(chunk);
      if (state === "holding") return void kept.push(chunk);
      seen = Buffer.concat([seen, chunk]);
      const at = seen.indexOf(hold.marker);
      const eventEnd = at === -1 ? -1 : seen.indexOf(EVENT_END, at);
      if (eventEnd === -1) return;
      // Cut after the event and its HTTP chunk terminator, so the client can parse everything it got.
      let cut = eventEnd + EVENT_END.length;
      if (seen.subarray(cut, cut + CHUNK_END.length).equals(CHUNK_END)) cut += CHUNK_END.length;
      client.write(seen.subarray(0, cut));
      kept = [seen.subarray(cut)];
      state = "holding";
      hold.reached();
      void hold.released.then(() => {
        state = "passing";
        client.write(Buffer.concat(kept));
        if (ended) client.end();
      });
    });
    upstream.on("end", () => {
      ended = true;
      if (state === "watching") client.end(seen);
      else if (state === "passing") client.end();
    });
  }
}
