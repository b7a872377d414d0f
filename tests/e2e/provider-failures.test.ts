/**
 * A failing provider, end to end through the built `pi -p` and the real OpenAI SDK: the session's
 * retry is the only one (1 + retry.maxRetries requests), a Retry-After longer than the limit gives up
 * at once in one line, a 20 MB error body never reaches stderr or the session file in full, terminal
 * escapes in an error body reach the terminal stripped, and an unreachable endpoint fails in one line
 * without a MaxListenersExceededWarning.
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, type AgentHome } from "./agent-home.js";

let server: MockLlmServer;
let user: AgentHome;

beforeAll(async () => {
  server = await new MockLlmServer().start();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  user = agentHome();
  user.useMockServer(`${server.url}/v1`);
});

/** Retries without real waiting. */
function useRetrySettings(retry: Record<string, unknown>): void {
  writeFileSync(join(user.agent, "settings.json"), JSON.stringify({ retry: { baseDelayMs: 1, ...retry } }));
}

function errorBody(message: string): string {
  return JSON.stringify({ error: { message, type: "server_error" } });
}

function sessionBytes(): number {
  return user.sessionFiles().reduce((sum, file) => sum + statSync(file).size, 0);
}

describe("pi -p with a failing provider", () => {
  it("makes exactly 1 + retry.maxRetries requests for one failing prompt", async () => {
    useRetrySettings({ maxRetries: 2 });
    // A fourth answer would succeed: only a multiplied retry count could reach it.
    for (let i = 0; i < 3; i++) server.enqueue({ status: 503, rawBody: errorBody("upstream down") });
    server.enqueue({
      sse: [
        {
          data: {
            id: "c",
            object: "chat.completion.chunk",
            created: 1,
            model: "mock-1",
            choices: [{ index: 0, delta: { content: "late" }, finish_reason: "stop" }],
          },
        },
        { data: "[DONE]" },
      ],
    });
    const run = await user.pi(["-p", "--model", "mock/mock-1", "hello"]);
    expect(run.code).toBe(1);
    expect(server.requests).toHaveLength(3);
    expect(run.stderr).toContain("upstream down");
    expect(run.stdout).not.toContain("late");
    // The unused answer is left for nobody.
    server.requests.length = 0;
    await user.pi(["-p", "--model", "mock/mock-1", "again"]);
  }, 60_000);

  it("gives up at once on retry-after 100000, with one line that says so", async () => {
    useRetrySettings({ maxRetries: 3 });
    server.enqueue({ status: 429, headers: { "retry-after": "100000" }, rawBody: errorBody("rate limited") });
    const started = Date.now();
    const run = await user.pi(["-p", "--model", "mock/mock-1", "hello"]);
    expect(run.code).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(run.stderr).toMatch(
      /rate limited.*asks to retry after 28 h, longer than the 60 s retry limit.*not retrying/,
    );
    expect(
      run.stderr
        .trim()
        .split("\n")
        .filter((l) => /retry/.test(l)),
    ).toHaveLength(1);
    // Generous: the point is "not minutes".
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it("keeps a 20 MB error body out of stderr and the session, on every retry", async () => {
    useRetrySettings({ maxRetries: 2 });
    const huge = errorBody("z".repeat(20 * 1024 * 1024));
    for (let i = 0; i < 3; i++) server.enqueue({ status: 500, rawBody: huge });
    const run = await user.pi(["-p", "--model", "mock/mock-1", "hello"]);
    expect(run.code).toBe(1);
    expect(server.requests).toHaveLength(3);
    expect(run.stderr.length).toBeLessThan(10_000);
    expect(run.stderr).toMatch(/bytes cut\)/);
    expect(sessionBytes()).toBeLessThan(100_000);
  }, 90_000);

  it("strips terminal escapes from a provider's error text before it reaches the terminal and the session", async () => {
    useRetrySettings({ maxRetries: 0 });
    server.enqueue({ status: 400, rawBody: errorBody("bad \u001b]0;owned\u0007\u001b[2J\u001b[Hrequest\u0007") });
    const run = await user.pi(["-p", "--model", "mock/mock-1", "hello"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("bad request");
    expect(run.stderr).not.toMatch(/[\u001b\u0007]/);
    for (const file of user.sessionFiles()) expect(readFileSync(file, "utf8")).not.toMatch(/\\u001b|\\u0007/);
  }, 60_000);

  it("ends a stalled stream after settings' httpIdleTimeoutMs, in one line, and retries it like any transient failure", async () => {
    writeFileSync(
      join(user.agent, "settings.json"),
      JSON.stringify({ httpIdleTimeoutMs: 500, retry: { baseDelayMs: 1, maxRetries: 1 } }),
    );
    server.enqueue({ sse: [], stall: "after-headers" }, { sse: [], stall: "before-headers" });
    const started = Date.now();
    const run = await user.pi(["-p", "--model", "mock/mock-1", "hello"]);
    expect(run.code).toBe(1);
    expect(server.requests).toHaveLength(2);
    expect(run.stderr.trim()).toBe(
      "Stream stalled: no response from the provider within 500 ms (request sent, no headers received)",
    );
    // Generous: pi's default would be 300 s per attempt.
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it("fails an unreachable endpoint in one line, without a MaxListenersExceededWarning", async () => {
    useRetrySettings({ maxRetries: 3 });
    // A port that was free a moment ago: nothing listens on it.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    user.useMockServer(`http://127.0.0.1:${port}/v1`);
    const run = await user.pi(["-p", "--model", "mock/mock-1", "hello"]);
    expect(run.code).toBe(1);
    expect(run.stderr).not.toContain("MaxListenersExceededWarning");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/connection/i);
  }, 60_000);
});
