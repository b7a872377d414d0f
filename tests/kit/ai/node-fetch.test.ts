/**
 * nodeFetch (fetch over node:http, what the OpenAI provider sends with) and LiteHeaders, against a
 * local server and against Node's own fetch and Headers: what an SDK reads must come out the same.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LazyFormData, LazyResponse, LiteHeaders, LiteResponse, nodeFetch } from "../../../kit/ai/index.js";

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
const routes = new Map<string, Handler>();
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const handler = routes.get(new URL(req.url ?? "/", "http://x").pathname);
    if (handler === undefined) {
      res.writeHead(404).end("no route");
      return;
    }
    handler(req, body, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

routes.set("/echo", (req, body, res) => {
  res.writeHead(201, "Made", { "content-type": "application/json", "x-request-id": "req_1" });
  res.end(JSON.stringify({ method: req.method, headers: req.headers, body }));
});
routes.set("/stream", (_req, _body, res) => {
  res.writeHead(200, { "content-type": "text/event-stream" });
  let n = 0;
  const timer = setInterval(() => {
    res.write(`data: ${n}\n\n`);
    if (++n === 3) {
      clearInterval(timer);
      res.end();
    }
  }, 5);
});
routes.set("/gzip", (_req, _body, res) => {
  res.writeHead(200, { "content-encoding": "gzip", "content-type": "text/plain" });
  res.end(gzipSync("compressed hello"));
});
routes.set("/see-other", (_req, _body, res) => res.writeHead(303, { location: "/echo" }).end());
routes.set("/temporary", (_req, _body, res) => res.writeHead(307, { location: "/echo" }).end());
routes.set("/drop", (_req, _body, res) => {
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.write("data: first\n\n");
  setTimeout(() => res.socket?.destroy(), 20);
});
routes.set("/hang", (_req, _body, res) => {
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.write("data: first\n\n");
});

async function collect(body: AsyncIterable<Uint8Array> | null): Promise<string> {
  let text = "";
  for await (const chunk of body ?? []) text += Buffer.from(chunk).toString("utf8");
  return text;
}

describe("nodeFetch", () => {
  it("sends method, headers and a JSON body, and reads status, headers and json() as fetch does", async () => {
    const headers = new LiteHeaders({ "Content-Type": "application/json", Authorization: "Bearer k" });
    const init = { method: "POST", headers, body: JSON.stringify({ a: 1 }) };
    const ours = (await nodeFetch(`${base}/echo`, init)) as LiteResponse;
    const theirs = await fetch(`${base}/echo`, init as RequestInit);
    expect(ours).toBeInstanceOf(LiteResponse);
    expect([ours.status, ours.statusText, ours.ok, ours.url]).toEqual([
      theirs.status,
      theirs.statusText,
      theirs.ok,
      theirs.url,
    ]);
    expect(ours.headers.get("x-request-id")).toBe(theirs.headers.get("x-request-id"));
    const sent = (await ours.json()) as { method: string; headers: Record<string, string>; body: string };
    const sentByFetch = (await theirs.json()) as typeof sent;
    expect(sent.method).toBe("POST");
    expect(sent.body).toBe('{"a":1}');
    expect(sent.headers.authorization).toBe("Bearer k");
    expect(sent.headers["content-length"]).toBe(sentByFetch.headers["content-length"]);
    expect(sent.headers.accept).toBe("*/*");
    expect(ours.bodyUsed).toBe(true);
    await expect(ours.text()).rejects.toThrow(/already been read/);
  });

  it("streams the body as an async iterable of byte chunks", async () => {
    const response = (await nodeFetch(`${base}/stream`)) as LiteResponse;
    expect(await collect(response.body)).toBe("data: 0\n\ndata: 1\n\ndata: 2\n\n");
  });

  it("decodes a gzip answer", async () => {
    expect(await ((await nodeFetch(`${base}/gzip`)) as LiteResponse).text()).toBe("compressed hello");
  });

  it("follows redirects: 303 turns a POST into a GET without body, 307 keeps both", async () => {
    const init = { method: "POST", headers: { "content-type": "text/plain" }, body: "payload" };
    const seeOther = (await nodeFetch(`${base}/see-other`, init)) as LiteResponse;
    expect(seeOther.redirected).toBe(true);
    expect(seeOther.url).toBe(`${base}/echo`);
    expect(await seeOther.json()).toMatchObject({ method: "GET", body: "" });
    const temporary = (await nodeFetch(`${base}/temporary`, init)) as LiteResponse;
    expect(await temporary.json()).toMatchObject({ method: "POST", body: "payload" });
  });

  it("a connection dropped mid-body fails as undici's does: TypeError terminated, caused by other side closed", async () => {
    const response = (await nodeFetch(`${base}/drop`)) as LiteResponse;
    const error = await collect(response.body).then(
      () => undefined,
      (e: unknown) => e as TypeError & { cause?: Error },
    );
    const viaFetch = await (await fetch(`${base}/drop`)).text().then(
      () => undefined,
      (e: unknown) => e as TypeError & { cause?: Error },
    );
    expect([error?.name, error?.message, error?.cause?.message]).toEqual([
      viaFetch?.name,
      viaFetch?.message,
      viaFetch?.cause?.message,
    ]);
  });

  it("an abort mid-body ends the body with the signal's reason", async () => {
    const controller = new AbortController();
    const response = (await nodeFetch(`${base}/hang`, { signal: controller.signal })) as LiteResponse;
    const reason = new Error("cut by the guard");
    const reading = collect(response.body);
    setTimeout(() => controller.abort(reason), 20);
    await expect(reading).rejects.toBe(reason);
  });

  it("an aborted signal rejects before sending; a refused connection is fetch failed", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(nodeFetch(`${base}/echo`, { signal: controller.signal })).rejects.toMatchObject({
      name: "AbortError",
    });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(nodeFetch(`http://127.0.0.1:${port}/`)).rejects.toMatchObject({
      name: "TypeError",
      message: "fetch failed",
    });
  });

  it("hands a body it cannot send (a stream) to the global fetch", async () => {
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("streamed"));
        controller.close();
      },
    });
    const response = await nodeFetch(`${base}/echo`, { method: "POST", body, duplex: "half" } as never);
    expect(response).toBeInstanceOf(Response);
    expect(await response.json()).toMatchObject({ body: "streamed" });
  });
});

describe("LiteHeaders", () => {
  it("behaves as Headers for the operations the SDKs use", () => {
    const steps = (h: Headers | LiteHeaders): unknown[] => {
      h.append("X-A", " one ");
      h.append("x-a", "two");
      h.set("Content-Type", "application/json");
      h.append("b-first", "1");
      h.delete("B-FIRST");
      h.append("accept", "*/*");
      return [[...h], h.get("X-a"), h.has("CONTENT-TYPE"), h.get("missing"), [...h.keys()], [...h.values()]];
    };
    expect(steps(new LiteHeaders())).toEqual(steps(new Headers()));
    const init = { "X-One": "1", two: "2" };
    expect([...new LiteHeaders(init)]).toEqual([...new Headers(init)]);
    expect([...new LiteHeaders(new Headers(init))]).toEqual([...new Headers(init)]);
    expect([...new Headers(new LiteHeaders(init) as unknown as HeadersInit)]).toEqual([...new Headers(init)]);
    expect(() => new LiteHeaders({ "bad name": "x" })).toThrow(TypeError);
  });

  it("instanceof holds for both classes, and not for plain objects", () => {
    expect(new Headers()).toBeInstanceOf(LiteHeaders);
    expect(new LiteHeaders()).toBeInstanceOf(LiteHeaders);
    expect({ get: () => null } instanceof LiteHeaders).toBe(false);
  });
});

describe("LazyFormData / LazyResponse", () => {
  it("answer instanceof for the real classes and build the real class", () => {
    expect(new FormData() instanceof LazyFormData).toBe(true);
    expect({} instanceof LazyFormData).toBe(false);
    expect(new Response("x") instanceof LazyResponse).toBe(true);
    expect(new LazyFormData()).toBeInstanceOf(FormData);
    expect(new LazyResponse("body")).toBeInstanceOf(Response);
  });
});
