/**
 * A `fetch` for the provider SDKs built on node:http and node:https. Node's own `fetch` is undici, which
 * Node loads on first use: ~30 ms of CPU and ~13 MB of resident memory, more than everything else a
 * `pi -p` run does above bare Node. The SDKs take a custom `fetch` and only read `status`, `ok`,
 * `headers`, `body` (as an async iterable of bytes) and `text()`/`json()` from what it returns, so this
 * one answers with a small `LiteResponse` whose body is the HTTP response stream itself.
 *
 * It covers what a model request sends: a string or byte body (JSON), headers, an abort signal,
 * redirects (followed as fetch follows them), and compressed answers. A request it does not cover — a
 * stream, form or blob body, a non-HTTP URL — goes to the global `fetch` unchanged, so nothing an SDK
 * can send is refused. Proxies: neither this nor Node's `fetch` reads proxy variables.
 */
import type { ClientRequest, IncomingMessage, RequestOptions } from "node:http";
import { createRequire } from "node:module";
import { JsonBody } from "./json-body.js";
import { LiteHeaders, type LiteHeadersInit } from "./lite-headers.js";

/**
 * node:http, node:https and node:zlib through `require`: on Node 22 an ESM import of node:http builds
 * the module's export list, which reads its lazy `WebSocket` getter and so loads undici after all.
 */
const requireBuiltin = createRequire(import.meta.url);

/** What fetch follows at most before failing, as undici does. */
const MAX_REDIRECTS = 20;

/** The fetch input forms: a URL string, a URL, or a request-like object with `url`. */
type FetchInput = string | URL | { url: string };

/** The `RequestInit` fields this fetch reads; anything it cannot send makes it hand over to global fetch. */
export interface LiteRequestInit {
  method?: string;
  headers?: unknown;
  body?: unknown;
  signal?: AbortSignal | null;
  redirect?: string;
}

/** A fetch `Response` with the parts the SDKs use. `body` is an async iterable of `Uint8Array` chunks. */
export class LiteResponse {
  readonly ok: boolean;
  readonly redirected: boolean;
  readonly type = "basic";
  private used = false;

  constructor(
    readonly body: (AsyncIterable<Uint8Array> & { destroy?: (error?: Error) => void }) | null,
    readonly status: number,
    readonly statusText: string,
    readonly headers: LiteHeaders,
    readonly url: string,
    redirected = false,
  ) {
    this.ok = status >= 200 && status <= 299;
    this.redirected = redirected;
  }

  get bodyUsed(): boolean {
    return this.used;
  }

  async bytes(): Promise<Uint8Array> {
    if (this.used) throw new TypeError("Body is unusable: Body has already been read");
    this.used = true;
    if (this.body === null) return new Uint8Array(0);
    const chunks: Uint8Array[] = [];
    for await (const chunk of this.body) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    return Buffer.from(await this.bytes()).toString("utf8");
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
}

/**
 * The body as this fetch sends it — bytes, or a string (a JSON request), sent as UTF-8 and never copied
 * whole into a Buffer: a long session's request is megabytes; or a `JsonBody`, serialized as it is
 * sent — `undefined` for none; `null` when only global fetch can send it.
 */
function plainBody(body: unknown): Payload | undefined | null {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string" || body instanceof JsonBody) return body;
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString(), "utf8");
  return null;
}

/** What a request carries: bytes, a string, or JSON serialized piece by piece. */
type Payload = Buffer | string | JsonBody;

/** An `AbortError` as fetch rejects with when the signal carries no reason. */
function abortError(): Error {
  return new DOMException("This operation was aborted", "AbortError");
}

/**
 * fetch over node:http(s). Same call shape as the global `fetch`; resolves with a `LiteResponse`
 * (or, for a request only the global fetch can send, with its `Response`).
 */
export async function nodeFetch(input: FetchInput, init: LiteRequestInit = {}): Promise<LiteResponse | Response> {
  // A Request object carries its own headers and body: the global fetch reads those.
  if (typeof input !== "string" && !(input instanceof URL))
    return globalThis.fetch(input as Request, init as RequestInit);
  let url = new URL(input);
  const body = plainBody(init.body);
  if (body === null || (url.protocol !== "http:" && url.protocol !== "https:"))
    return globalThis.fetch(input, init as RequestInit);
  let method = (init.method ?? "GET").toUpperCase();
  const headers = new LiteHeaders((init.headers ?? undefined) as LiteHeadersInit | undefined);
  if (!headers.has("accept")) headers.set("accept", "*/*");
  if (body !== undefined && !headers.has("content-type") && init.body instanceof URLSearchParams)
    headers.set("content-type", "application/x-www-form-urlencoded;charset=UTF-8");
  let payload: Payload | undefined = body;
  const signal = init.signal ?? undefined;
  for (let redirects = 0; ; redirects++) {
    if (signal?.aborted) throw signal.reason ?? abortError();
    const response = await send(url, method, headers, payload, signal);
    const location = response.headers.get("location");
    if (init.redirect === "manual" || location === null || ![301, 302, 303, 307, 308].includes(response.status)) {
      return redirects === 0 ? response : withRedirected(response);
    }
    response.body?.destroy?.();
    if (init.redirect === "error") throw new TypeError(`fetch failed: redirect to ${location} not allowed`);
    if (redirects >= MAX_REDIRECTS) throw new TypeError("fetch failed: redirect count exceeded");
    const next = new URL(location, url);
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
      if (method !== "HEAD") method = "GET";
      payload = undefined;
      for (const name of ["content-type", "content-length", "content-encoding", "content-language", "content-location"])
        headers.delete(name);
    }
    if (next.origin !== url.origin) {
      for (const name of ["authorization", "proxy-authorization", "cookie", "host"]) headers.delete(name);
    }
    url = next;
  }
}

function withRedirected(response: LiteResponse): LiteResponse {
  return new LiteResponse(response.body, response.status, response.statusText, response.headers, response.url, true);
}

/** One HTTP exchange: resolves at the response headers, with the (decoded) body stream. */
async function send(
  url: URL,
  method: string,
  headers: LiteHeaders,
  payload: Payload | undefined,
  signal: AbortSignal | undefined,
): Promise<LiteResponse> {
  const transport = (
    url.protocol === "https:" ? requireBuiltin("node:https") : requireBuiltin("node:http")
  ) as typeof import("node:http");
  const record = headers.toRecord();
  const size = payload instanceof JsonBody ? payload.measure() : undefined;
  if (size !== undefined) record["content-length"] = String(size.bytes);
  else if (typeof payload === "string") record["content-length"] = String(Buffer.byteLength(payload));
  else if (payload !== undefined) record["content-length"] = String((payload as Buffer).length);
  const options: RequestOptions = { method, headers: record };
  return new Promise<LiteResponse>((resolve, reject) => {
    let request: ClientRequest | undefined;
    let response: IncomingMessage | undefined;
    const onAbort = (): void => {
      const reason = signal?.reason ?? abortError();
      if (response !== undefined) response.destroy(reason);
      request?.destroy(reason);
      reject(reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    const release = (): void => signal?.removeEventListener("abort", onAbort);
    request = transport.request(url, options, (res) => {
      response = res;
      res.once("close", release);
      const status = res.statusCode ?? 0;
      const responseHeaders = new LiteHeaders();
      const raw = res.rawHeaders;
      for (let i = 0; i + 1 < raw.length; i += 2) responseHeaders.append(raw[i]!, raw[i + 1]!);
      const empty = method === "HEAD" || status === 204 || status === 304;
      decoded(res, responseHeaders.get("content-encoding")).then(
        (stream) =>
          resolve(
            new LiteResponse(
              empty ? null : asFetchBody(stream, signal),
              status,
              res.statusMessage ?? "",
              responseHeaders,
              url.href,
            ),
          ),
        reject,
      );
    });
    request.once("error", (error) => {
      release();
      reject(
        signal?.aborted
          ? (signal.reason ?? abortError())
          : new TypeError("fetch failed", { cause: socketCause(error) }),
      );
    });
    if (payload instanceof JsonBody)
      endWithPieces(request, size!.text === undefined ? payload.pieces() : [size!.text], size!.bytes);
    else if (typeof payload === "string") endWithPieces(request, [payload]);
    else request.end(payload);
  });
}

/** Characters of a string body written at a time. */
const TEXT_PIECE = 1 << 20;

/**
 * Sends a text body: each string of `texts` in pieces of at most TEXT_PIECE characters, each piece
 * written when the socket has taken the last one, so the bytes in flight stay at one piece instead of a
 * UTF-8 copy of the whole body. A piece never ends between the two halves of a surrogate pair (each
 * half alone would go out as U+FFFD). When the texts are made as they are sent (a `JsonBody`), a failure
 * to make one, or a total that is not the `bytes` announced as Content-Length, ends the request with
 * that error instead of sending a body the server would misread.
 */
function endWithPieces(request: ClientRequest, texts: Iterable<string>, bytes?: number): void {
  let source: Iterator<string> | undefined;
  let text = "";
  let at = 0;
  let sent = 0;
  const next = (): void => {
    try {
      source ??= texts[Symbol.iterator]();
      for (;;) {
        if (at >= text.length) {
          const step = source.next();
          if (step.done === true) break;
          text = step.value;
          at = 0;
          if (bytes !== undefined) sent += Buffer.byteLength(text, "utf8");
          if (bytes !== undefined && sent > bytes) break;
          continue;
        }
        let end = Math.min(text.length, at + TEXT_PIECE);
        const last = text.charCodeAt(end - 1);
        if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
        const piece = at === 0 && end === text.length ? text : text.slice(at, end);
        at = end;
        if (!request.write(piece)) {
          request.once("drain", next);
          return;
        }
      }
      if (bytes !== undefined && sent !== bytes)
        throw new Error(`the request body changed while it was sent (${sent} bytes, ${bytes} announced)`);
      request.end();
    } catch (error) {
      request.destroy(error as Error);
    }
  };
  next();
}

type BodyStream = AsyncIterable<Uint8Array> & { destroy?: (error?: Error) => void };

/**
 * The body as fetch's consumers know it: a connection lost mid-body fails as undici's does
 * (`TypeError: terminated`, caused by "other side closed"), which error texts and retry rules read;
 * an abort fails with the signal's reason.
 */
function asFetchBody(stream: BodyStream, signal: AbortSignal | undefined): BodyStream {
  return {
    destroy: (error?: Error) => stream.destroy?.(error),
    async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array> {
      try {
        for await (const chunk of stream) yield chunk as Uint8Array;
      } catch (error) {
        if (signal?.aborted) throw signal.reason ?? abortError();
        if ((error as Error | undefined)?.name === "AbortError") throw error;
        throw new TypeError("terminated", { cause: socketCause(error) });
      } finally {
        stream.destroy?.();
      }
    },
  };
}

/** A dropped connection named as undici names it; any other failure as it is. */
function socketCause(error: unknown): unknown {
  const e = error as { code?: string; message?: string } | undefined;
  if (e?.code === "ECONNRESET" || e?.message === "aborted" || e?.message === "socket hang up") {
    const closed = new Error("other side closed");
    closed.name = "SocketError";
    (closed as Error & { code: string }).code = "UND_ERR_SOCKET";
    return closed;
  }
  return error;
}

/** The body stream, decompressed when the server compressed it (fetch decodes gzip, deflate and br). */
async function decoded(res: IncomingMessage, encoding: string | null): Promise<BodyStream> {
  const coding = encoding?.trim().toLowerCase();
  if (coding === undefined || coding === "" || coding === "identity") return res;
  const zlib = requireBuiltin("node:zlib") as typeof import("node:zlib");
  const decoder =
    coding === "gzip" || coding === "x-gzip"
      ? zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH })
      : coding === "deflate"
        ? zlib.createInflate()
        : coding === "br"
          ? zlib.createBrotliDecompress()
          : undefined;
  if (decoder === undefined) return res;
  res.once("error", (error) => decoder.destroy(error));
  decoder.once("close", () => {
    if (!res.destroyed) res.destroy();
  });
  return res.pipe(decoder);
}
