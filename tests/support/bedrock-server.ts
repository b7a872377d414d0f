/**
 * A local Bedrock runtime on 127.0.0.1 speaking HTTP/2 without TLS (the AWS SDK's default handler is
 * HTTP/2): `POST /model/<id>/converse-stream` answers with a scripted AWS event stream, or with an AWS
 * JSON error. Every request is recorded with its headers and parsed body, so tests check the signing.
 */
import { createServer, type Http2Server, type IncomingHttpHeaders } from "node:http2";
import type { AddressInfo } from "node:net";

/** One recorded request. */
export interface BedrockRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

/** What the server answers: event-stream messages (sent one write each), or an error. */
export type BedrockReply =
  | { messages: Buffer[]; holdOpen?: boolean }
  | { status: number; errorType: string; message: string };

/** The local server; script replies with `reply()` (used in order, the last one repeats). */
export class BedrockServer {
  readonly requests: BedrockRequest[] = [];
  private readonly replies: BedrockReply[] = [];
  private server: Http2Server | undefined;
  url = "";

  reply(...replies: BedrockReply[]): this {
    this.replies.push(...replies);
    return this;
  }

  async start(): Promise<this> {
    const server = createServer();
    server.on("stream", (stream, headers) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        this.requests.push({
          path: String(headers[":path"]),
          headers,
          body: text === "" ? undefined : JSON.parse(text),
        });
        const reply = this.replies.length > 1 ? this.replies.shift()! : this.replies[0];
        if (reply === undefined || "status" in reply) {
          const r = reply ?? { status: 500, errorType: "InternalServerException", message: "no reply scripted" };
          stream.respond({ ":status": r.status, "content-type": "application/json", "x-amzn-errortype": r.errorType });
          stream.end(JSON.stringify({ message: r.message }));
          return;
        }
        stream.respond({ ":status": 200, "content-type": "application/vnd.amazon.eventstream" });
        for (const message of reply.messages) stream.write(message);
        if (!reply.holdOpen) stream.end();
      });
      stream.on("error", () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
