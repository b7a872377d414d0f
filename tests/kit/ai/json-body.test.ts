/**
 * JsonBody serializes a request piece by piece (a long array element by element), so a long session's
 * request is never one string. The text must be exactly `JSON.stringify(value)`, whatever the value holds,
 * and nodeFetch must send those bytes with their length as Content-Length, short bodies and long ones.
 */
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JsonArrayStream, JsonBody, nodeFetch, type LiteResponse } from "../../../kit/ai/index.js";

/** A request-shaped value with what JSON.stringify treats specially: undefined, functions, toJSON, non-ASCII, lone surrogates. */
function requestLike(messages: number): Record<string, unknown> {
  return {
    model: "m-1",
    'quoted "key"': 1,
    skipped: undefined,
    fn: () => 1,
    messages: Array.from({ length: messages }, (_, i) => {
      if (i % 7 === 3) return undefined;
      if (i % 11 === 5) return () => i;
      if (i % 13 === 4) return new Date(Date.UTC(2026, 0, 1, 0, 0, i));
      if (i % 17 === 6) return { toJSON: (key: string) => ({ index: key }) };
      return {
        role: i % 2 === 0 ? "user" : "assistant",
        content: [{ type: "text", text: `message ${i} 😀 é \u{d800} ${"x".repeat(i % 300)}` }],
        missing: undefined,
        n: i / 3,
      };
    }),
    tools: [{ type: "function", function: { name: "read", parameters: { type: "object" } } }],
    stream: true,
    stream_options: { include_usage: true },
  };
}

describe("JsonBody", () => {
  it("gives JSON.stringify's text for short and long arrays, special values included", () => {
    for (const count of [0, 1, 32, 33, 5_000]) {
      const value = requestLike(count);
      const body = new JsonBody(value);
      expect([...body.pieces()].join("")).toBe(JSON.stringify(value));
      expect(String(body)).toBe(JSON.stringify(value));
      expect(body.measure().bytes).toBe(Buffer.byteLength(JSON.stringify(value), "utf8"));
    }
  });

  it("keeps a short text from the counting pass and drops a long one", () => {
    expect(new JsonBody(requestLike(10)).measure().text).toBe(JSON.stringify(requestLike(10)));
    const long = new JsonBody({ messages: Array.from({ length: 20_000 }, (_, i) => ({ text: `${i}`.repeat(20) })) });
    expect(long.measure().text).toBeUndefined();
    expect(Math.max(...[...long.pieces()].map((p) => p.length))).toBeLessThan(70 * 1024);
  });

  it("serializes arrays and objects with toJSON as JSON.stringify does", () => {
    for (const value of [
      [1, undefined, "a"],
      { toJSON: () => ({ a: 1 }) },
      { list: Object.assign([1, 2], { toJSON: () => "l" }) },
    ])
      expect([...new JsonBody(value).pieces()].join("")).toBe(JSON.stringify(value));
  });
});

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of req) chunks.push(chunk as Buffer);
    } catch {
      return; // the client ended the request on purpose (a body that changed while it was sent)
    }
    const bytes = Buffer.concat(chunks);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        declared: req.headers["content-length"],
        received: bytes.length,
        sha: createHash("sha256").update(bytes).digest("hex"),
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("nodeFetch with a JsonBody", () => {
  it("sends JSON.stringify's exact bytes with their length, for a short and a multi-megabyte body", async () => {
    for (const count of [3, 40_000]) {
      const value = requestLike(count);
      const text = JSON.stringify(value);
      const init = { method: "POST", headers: { "content-type": "application/json" }, body: new JsonBody(value) };
      const answer = await ((await nodeFetch(`${base}/`, init)) as LiteResponse).json();
      const bytes = Buffer.from(text, "utf8");
      expect(answer).toEqual({
        declared: String(bytes.length),
        received: bytes.length,
        sha: createHash("sha256").update(bytes).digest("hex"),
      });
    }
  });

  it("is sent as its text by a fetch that does not know it", async () => {
    const value = requestLike(50);
    const init = {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new JsonBody(value) as unknown as BodyInit,
    };
    const answer = (await (await fetch(`${base}/`, init)).json()) as { received: number };
    expect(answer.received).toBe(Buffer.byteLength(JSON.stringify(value), "utf8"));
  });
});

describe("nodeFetch with a JsonBody that changes while it is sent", () => {
  it("fails the request instead of sending more or fewer bytes than announced, or crashing", async () => {
    let pass = 0;
    const growing = new JsonBody({
      messages: new JsonArrayStream(() => {
        pass++;
        return Array.from({ length: 40 + pass }, (_, i) => ({ text: `${i}`.repeat(30_000) }));
      }),
    });
    await expect(nodeFetch(`${base}/`, { method: "POST", body: growing })).rejects.toMatchObject({
      cause: { message: expect.stringContaining("changed while it was sent") },
    });

    let calls = 0;
    const failing = new JsonBody({
      messages: new JsonArrayStream(() =>
        Array.from({ length: 40 }, (_, i) => ({
          toJSON: () => {
            calls++;
            if (calls > 40 && i === 30) throw new Error("no second time");
            return { text: `${i}`.repeat(30_000) };
          },
        })),
      ),
    });
    await expect(nodeFetch(`${base}/`, { method: "POST", body: failing })).rejects.toMatchObject({
      cause: { message: "no second time" },
    });
  });
});
