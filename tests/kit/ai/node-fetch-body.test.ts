/**
 * nodeFetch sends a string body (a model request: megabytes for a long session) in pieces as the socket
 * takes them, never as one whole UTF-8 copy. What arrives must be the string's exact UTF-8 bytes with the
 * right Content-Length, whatever falls at a piece boundary (a surrogate pair, a multi-byte character),
 * and the same as Node's own fetch sends.
 */
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeFetch, type LiteResponse } from "../../../kit/ai/index.js";

let server: Server;
let base: string;

beforeAll(async () => {
  // Reads the body as raw bytes (never decoded piece by piece), then answers with its length and hash.
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
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

const sha = (text: string): string => createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex");

/** A string whose 1 Mi-character piece boundaries fall inside surrogate pairs and after multi-byte characters. */
function awkwardText(): string {
  const piece = 1 << 20;
  // "😀" is two UTF-16 units: placed so that unit piece-1 is its high half, the boundary cuts the pair.
  const first = `${"a".repeat(piece - 1)}😀`;
  const second = `${"é".repeat(piece - 3)}€😀x`;
  return `${first}${second}${'{"k":"v"},'.repeat(150_000)}end`;
}

describe("nodeFetch string bodies", () => {
  it("sends a 3 MB string's exact UTF-8 bytes, with its byte length as Content-Length, as fetch does", async () => {
    const text = awkwardText();
    const bytes = Buffer.byteLength(text, "utf8");
    const init = { method: "POST", headers: { "content-type": "application/json" }, body: text };
    const ours = await ((await nodeFetch(`${base}/`, init)) as LiteResponse).json();
    const theirs = await (await fetch(`${base}/`, init)).json();
    expect(ours).toEqual({ declared: String(bytes), received: bytes, sha: sha(text) });
    expect(ours).toEqual(theirs);
  });

  it("sends an empty and a short string body", async () => {
    for (const text of ["", "short ✓"]) {
      const response = (await nodeFetch(`${base}/`, { method: "POST", body: text })) as LiteResponse;
      const bytes = Buffer.byteLength(text);
      expect(await response.json()).toEqual({ declared: String(bytes), received: bytes, sha: sha(text) });
    }
  });
});
