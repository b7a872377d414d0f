/**
 * The SDK as embedders use it: the documented examples in examples/sdk/ run as programs (importing
 * "pi-host/sdk" through the package's exports) against MockLlmServer, and createAgentSession from the
 * built dist/sdk.js is driven in process with each of its options.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SessionEvent } from "../../contracts/agent-session.js";
import { AiProviderContract } from "../../contracts/ai/index.js";
import { definePlugin } from "../../kernel/index.js";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, completionsText, completionsToolCall, messageRoles, type AgentHome } from "./agent-home.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SDK = join(ROOT, "dist", "sdk.js");

/** Runs an example program with the user's environment; resolves with its output and exit code. */
function runExample(
  user: AgentHome,
  file: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, "examples", "sdk", file), ...args], {
      cwd: user.project,
      env: { ...process.env, ...user.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The built SDK module, loaded the way an embedder's program loads it. */
async function sdk(): Promise<typeof import("../../hosts/sdk.js")> {
  if (!existsSync(SDK)) throw new Error(`${SDK} is missing; run "npm run build" first`);
  return import(pathToFileURL(SDK).href);
}

const FAUX_MODELS = {
  providers: { faux: { api: "faux", baseUrl: "http://localhost:0", apiKey: "none", models: [{ id: "faux-1" }] } },
};

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

describe("examples/sdk (documented in docs/sdk.md)", () => {
  it("minimal.mjs streams the answer from the model and keeps the session in memory", async () => {
    server.enqueue({ sse: completionsText("Three files: a, b and c.") });
    const run = await runExample(user, "minimal.mjs", ["mock/mock-1", "What files are here?"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Three files: a, b and c.\n");
    expect(server.requests[0]!.body.messages.at(-1)).toMatchObject({ role: "user", content: "What files are here?" });
    expect(user.sessionFiles()).toEqual([]);
  });

  it("custom-tool.mjs: the model sees only the in-process tool, calls it, and gets its result", async () => {
    server.enqueue(
      { sse: completionsToolCall("call_wc", "word_count", { text: "the quick brown fox" }) },
      { sse: completionsText("There are 4 words.") },
    );
    const run = await runExample(user, "custom-tool.mjs", ["mock/mock-1"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("word_count said: 4 words\nThere are 4 words.\n");
    expect(server.requests[0]!.body.tools.map((t: any) => t.function.name)).toEqual(["word_count"]);
    expect(server.requests[1]!.body.messages.at(-1)).toMatchObject({
      role: "tool",
      tool_call_id: "call_wc",
      content: "4 words",
    });
  });
});

describe("createAgentSession (dist/sdk.js, in process)", () => {
  it("composes the default distribution with the options as the last layer: model, cwd, agentDir, session, events", async () => {
    const { createAgentSession } = await sdk();
    server.enqueue({ sse: completionsText("hello from the SDK") });
    const agentDir = join(user.home, "other-agent");
    mkdirSync(agentDir);
    writeFileSync(
      join(agentDir, "models.json"),
      JSON.stringify({
        providers: {
          side: { baseUrl: `${server.url}/v1`, api: "openai-completions", apiKey: "K", models: [{ id: "side-1" }] },
        },
      }),
    );
    const runtime = await createAgentSession({ cwd: user.project, agentDir, model: "side/side-1", tools: ["read"] });
    const events: SessionEvent[] = [];
    const stop = runtime.subscribe((e) => events.push(e));
    try {
      await runtime.session.call("prompt", "hi");
      expect(runtime.session.call("lastAssistantText")).toBe("hello from the SDK");
      expect(events.map((e) => e.type)).toContain("agent_end");
      expect(server.requests[0]!.body.tools.map((t: any) => t.function.name)).toEqual(["read"]);
      const file = runtime.session.call("state").sessionFile!;
      expect(file.startsWith(join(agentDir, "sessions"))).toBe(true);
      expect(messageRoles(file)).toEqual(["user", "assistant"]);
      stop();
      const before = events.length;
      expect(runtime.kernel.describe().plugins.find((p) => p.id === "mode-print")?.status).toBe("active");
      expect(events.length).toBe(before);
    } finally {
      await runtime.dispose();
      await runtime.dispose();
    }
    expect(user.sessionFiles()).toEqual([]);
  });

  it("config scripts a plugin (the faux provider), inline plugins join, entries disable", async () => {
    const { createAgentSession } = await sdk();
    const seen: string[] = [];
    const spy = definePlugin({
      id: "spy",
      version: "1.0.0",
      requires: [{ contract: AiProviderContract }],
      setup(ctx) {
        ctx.onStart(() => void seen.push(`providers: ${ctx.useAll(AiProviderContract).list().length}`));
      },
    });
    const runtime = await createAgentSession({
      cwd: user.project,
      agentDir: user.agent,
      model: "faux/faux-1",
      session: "none",
      config: { models: FAUX_MODELS, "provider-faux": { responses: [{ content: "scripted" }] } },
      plugins: [{ definition: spy }, { id: "provider-google", enabled: false }],
    });
    try {
      await runtime.session.call("prompt", "hi");
      expect(runtime.session.call("lastAssistantText")).toBe("scripted");
      expect(runtime.session.call("state").sessionFile).toBeUndefined();
      const plugins = runtime.kernel.describe().plugins;
      expect(plugins.find((p) => p.id === "spy")?.status).toBe("active");
      expect(plugins.find((p) => p.id === "provider-google")?.status).toBe("disabled");
      expect(seen).toEqual([`providers: ${runtime.kernel.useAll(AiProviderContract).list().length}`]);
      expect(runtime.diagnostics).toEqual([]);
    } finally {
      await runtime.dispose();
    }
    expect(user.sessionFiles()).toEqual([]);
  });

  it("bad input throws one line naming the plugin and the field; a missing session plugin says so", async () => {
    const { createAgentSession } = await sdk();
    await expect(
      createAgentSession({ cwd: user.project, agentDir: user.agent, thinking: "loud" as never }),
    ).rejects.toThrow(/createAgentSession: thinking must be one of off, minimal, low, medium, high, xhigh, not "loud"/);
    await expect(
      createAgentSession({
        cwd: user.project,
        agentDir: user.agent,
        plugins: [{ id: "agent-session", enabled: false }],
      }),
    ).rejects.toThrow(/no plugin provides "agent\/session"/);
    await expect(
      createAgentSession({ cwd: user.project, agentDir: user.agent, distributions: [join(user.project, "nope.json")] }),
    ).rejects.toThrow(/nope\.json: no such file/);
  });
});
