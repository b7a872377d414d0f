/**
 * What a provider's server sends is untrusted: a 20 MB error body, terminal escapes in an error, a
 * tool call whose JSON never ends, a 32 MB stream line, a Retry-After of a day. Each must end the
 * stream with one short, clean error (or a marked tool call), for every SDK-backed provider.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { argumentsErrorOf, retryAfterMsOf, type ToolCall } from "../../../hosts/api.js";
import { MockLlmServer } from "../../support/mock-llm-server.js";
import { ask, drain, PROVIDERS } from "./fixtures.js";

let server: MockLlmServer;
beforeEach(async () => {
  server = await new MockLlmServer().start();
});
afterEach(async () => {
  await server.close();
});

/** An error body in the shape all three APIs use: `{ "error": { "message": ... } }`. */
function errorBody(message: string): string {
  return JSON.stringify({ error: { code: 400, message, type: "invalid_request_error", status: "INVALID_ARGUMENT" } });
}

describe.each(PROVIDERS)("$name: untrusted responses", (c) => {
  it("cuts a 20 MB error body to 4 KB and says how much was cut", async () => {
    const huge = "x".repeat(20 * 1024 * 1024);
    server.enqueue({ status: 400, rawBody: errorBody(huge) });
    const { final, events } = await drain(c.provider.stream(c.model(server.url), ask("hi"), { apiKey: "k" }));
    expect(final.stopReason).toBe("error");
    expect(Buffer.byteLength(final.errorMessage!, "utf8")).toBeLessThan(4_200);
    expect(final.errorMessage).toMatch(/… \(\d+ bytes cut\)$/);
    const error = events.at(-1);
    expect(error?.type === "error" && error.error.errorMessage).toBe(final.errorMessage);
  });

  it("strips terminal escapes and control characters from an error body, keeping the words", async () => {
    server.enqueue({
      status: 400,
      rawBody: errorBody("bad \u001b]0;pwned\u0007title\u001b[2J\u001b[Hcleared\r\u0000 request\u009b31m\tend\nline"),
    });
    const { final } = await drain(c.provider.stream(c.model(server.url), ask("hi"), { apiKey: "k" }));
    expect(final.stopReason).toBe("error");
    expect(final.errorMessage).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(final.errorMessage).toContain("bad titlecleared request");
    expect(final.errorMessage).not.toContain("pwned");
  });

  it("drops a 32 MB stream line quickly with an error that says so", async () => {
    const line = `data: {"x":"${"y".repeat(32 * 1024 * 1024)}"}\n\n`;
    server.enqueue({ sse: c.answer.slice(0, 1), rawTail: line });
    const started = Date.now();
    const { final } = await drain(c.provider.stream(c.model(server.url), ask("hi"), { apiKey: "k" }));
    expect(final.stopReason).toBe("error");
    expect(final.errorMessage).toMatch(/stream line longer than 16 MB/);
    // Generous: the point is "seconds, not a minute" on a busy machine.
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 60_000);

  it("gives up at once on a Retry-After longer than the retry limit, in one line that says so", async () => {
    server.enqueue({ status: 429, headers: { "retry-after": "100000" }, rawBody: errorBody("slow down") });
    const started = Date.now();
    const { final } = await drain(
      c.provider.stream(c.model(server.url), ask("hi"), {
        apiKey: "k",
        retry: { enabled: true, maxRetries: 3, baseDelayMs: 10, maxDelayMs: 60_000 },
      }),
    );
    expect(final.stopReason).toBe("error");
    expect(final.errorMessage).toMatch(
      /asks to retry after 28 h, longer than the 60 s retry limit .*; not retrying\)$/,
    );
    expect(final.errorMessage).not.toContain("\n");
    expect(retryAfterMsOf(final)).toBe(100_000_000);
    expect(server.requests).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("makes exactly one request for a failing prompt when no provider retries are asked for", async () => {
    server.enqueue({ status: 503, rawBody: errorBody("down") }, { status: 503, rawBody: errorBody("down") });
    const { final } = await drain(c.provider.stream(c.model(server.url), ask("hi"), { apiKey: "k" }));
    expect(final.stopReason).toBe("error");
    expect(server.requests).toHaveLength(1);
  });
});

describe.each(PROVIDERS.filter((c) => c.name !== "google-generative-ai"))("$name: tool-call arguments", (c) => {
  it("marks a call whose arguments JSON never ends, instead of repairing it", async () => {
    server.enqueue({ sse: c.toolCall('{"command": "rm -rf /tmp/x && echo ') });
    const { final } = await drain(c.provider.stream(c.model(server.url), ask("hi"), { apiKey: "k" }));
    const call = final.content.find((b): b is ToolCall => b.type === "toolCall");
    expect(call).toBeDefined();
    expect(argumentsErrorOf(call!)).toMatch(/^the arguments were not valid JSON: /);
    // The mark never reaches JSON (session file, other providers' requests).
    expect(JSON.stringify(call)).not.toContain("not valid JSON");
  });

  it("leaves a call with complete arguments unmarked", async () => {
    server.enqueue({ sse: c.toolCall('{"command": "ls"}') });
    const { final } = await drain(c.provider.stream(c.model(server.url), ask("hi"), { apiKey: "k" }));
    const call = final.content.find((b): b is ToolCall => b.type === "toolCall");
    expect(call?.arguments).toEqual({ command: "ls" });
    expect(argumentsErrorOf(call!)).toBeUndefined();
  });
});
