/**
 * pi's `registerProvider`, `registerVirtualModel` and their removal through the built CLI: a provider an
 * extension registers (an existing api + baseUrl pointing at a local server, or its own `streamSimple`)
 * answers `pi -p --model <provider>/<id>`, `--list-models` lists it, a virtual model routes to a physical
 * one, and a command that unregisters a provider takes it out of RPC `get_available_models`.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, completionsText, type AgentHome } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";

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
});

/** A provider on the mock server's OpenAI-compatible API, plus one that streams by itself. */
function providerExtension(baseUrl: string): string {
  return `
import { createAssistantMessageEventStream } from "@earendil-works/pi-ai";
export default function (pi) {
  pi.registerProvider("ext", {
    name: "Extension provider",
    baseUrl: ${JSON.stringify(baseUrl)},
    apiKey: "EXT_TEST_KEY",
    api: "openai-completions",
    models: [{ id: "x", name: "Ext X", reasoning: false, input: ["text"],
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 32000, maxTokens: 4096 }],
  });
  pi.registerProvider("echo", {
    baseUrl: "http://echo.invalid",
    api: "echo-api",
    models: [{ id: "e1", name: "Echo", reasoning: false, input: ["text"],
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 8000, maxTokens: 1000 }],
    streamSimple(model, context) {
      const stream = createAssistantMessageEventStream();
      const system = context.messages.find((m) => m.role === "system");
      const last = context.messages.filter((m) => m.role === "user").at(-1);
      const said = typeof last.content === "string" ? last.content : last.content.map((c) => c.text ?? "").join("");
      const message = { role: "assistant", content: [{ type: "text", text: "echo: " + said + (system ? " (with system)" : "") }],
        api: model.api, provider: model.provider, model: model.id, stopReason: "stop", timestamp: Date.now(),
        usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2,
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } } };
      queueMicrotask(() => {
        stream.push({ type: "start", partial: message });
        stream.push({ type: "done", reason: "stop", message });
      });
      return stream;
    },
  });
  pi.registerVirtualModel({
    provider: "router", id: "auto", name: "Auto",
    route(request, ctx) {
      return { model: ctx.modelRegistry.find("echo", "e1"), thinkingLevel: "off" };
    },
  });
  pi.registerCommand("drop-ext", {
    handler: async () => { pi.unregisterProvider("ext"); pi.unregisterVirtualModel("router", "auto"); },
  });
}`;
}

describe("extension providers (built CLI)", () => {
  it("pi -p --model ext/x answers through the registered provider's baseUrl with its key", async () => {
    writeFileSync(join(user.project, "prov.ts"), providerExtension(`${server.url}/v1`));
    server.enqueue({ sse: completionsText("from ext") });
    const run = await user.pi(["-p", "--model", "ext/x", "-e", "prov.ts", "hello"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("from ext\n");
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers.authorization).toBe("Bearer EXT_TEST_KEY");
    expect(server.requests[0]!.body.model).toBe("x");
  });

  it("a provider's streamSimple answers its models; a virtual model routes to it", async () => {
    writeFileSync(join(user.project, "prov.ts"), providerExtension(`${server.url}/v1`));
    const echo = await user.pi(["-p", "--model", "echo/e1", "-e", "prov.ts", "ping"]);
    expect(echo.stderr).toBe("");
    expect(echo.stdout).toBe("echo: ping (with system)\n");
    const routed = await user.pi(["-p", "--model", "router/auto", "-e", "prov.ts", "pong"]);
    expect(routed.stderr).toBe("");
    expect(routed.stdout).toBe("echo: pong (with system)\n");
    expect(server.requests).toHaveLength(0);
  });

  it("--list-models lists the registered providers' models; without the extension they are unknown", async () => {
    writeFileSync(join(user.project, "prov.ts"), providerExtension(`${server.url}/v1`));
    const listed = await user.pi(["--list-models", "-e", "prov.ts"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^ext\s+x\s/m);
    expect(listed.stdout).toMatch(/^echo\s+e1\s/m);
    expect(listed.stdout).toMatch(/^router\s+auto\s/m);
    const without = await user.pi(["-p", "--model", "ext/x", "hello"]);
    expect(without.code).not.toBe(0);
    expect(without.stderr).toMatch(/unknown provider "ext"/);
  });

  it("--mode rpc: get_available_models has them; a command that unregisters takes them out", async () => {
    writeFileSync(join(user.project, "prov.ts"), providerExtension(`${server.url}/v1`));
    const child = spawn(process.execPath, [PI_BIN, "--mode", "rpc", "-e", "prov.ts", "--model", "echo/e1"], {
      cwd: user.project,
      env: { ...process.env, ...user.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const lines: any[] = [];
    let buffer = "";
    const waiters: Array<() => void> = [];
    child.stdout.on("data", (d: Buffer) => {
      buffer += d.toString();
      let cut = buffer.indexOf("\n");
      while (cut >= 0) {
        lines.push(JSON.parse(buffer.slice(0, cut)));
        buffer = buffer.slice(cut + 1);
        cut = buffer.indexOf("\n");
      }
      for (const w of waiters.splice(0)) w();
    });
    const response = async (id: string): Promise<any> => {
      for (;;) {
        const found = lines.find((l) => l.type === "response" && l.id === id);
        if (found) return found;
        await new Promise<void>((r) => waiters.push(r));
      }
    };
    const send = (command: Record<string, unknown>) => child.stdin.write(`${JSON.stringify(command)}\n`);
    const ids = (answer: any) => answer.data.models.map((m: any) => `${m.provider}/${m.id}`);
    try {
      send({ id: "a", type: "get_available_models" });
      const before = ids(await response("a"));
      expect(before).toContain("ext/x");
      expect(before).toContain("router/auto");
      send({ id: "b", type: "prompt", message: "/drop-ext" });
      expect((await response("b")).success).toBe(true);
      send({ id: "c", type: "get_available_models" });
      const after = ids(await response("c"));
      expect(after).not.toContain("ext/x");
      expect(after).not.toContain("router/auto");
      expect(after).toContain("echo/e1");
    } finally {
      child.stdin.end();
      await new Promise((r) => child.on("close", r));
    }
  });
});
