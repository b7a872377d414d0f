/**
 * pi 1.6.0 extension features through the built CLI: a registered flag given on the command line, the
 * request hooks reaching the wire of a local OpenAI-compatible server (headers, payload, system prompt),
 * an unknown event as a warning line, and ctx.ui dialogs over RPC's extension UI sub-protocol.
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
  user.useMockServer(`${server.url}/v1`);
});

const HOOKS = `
export default function (pi) {
  pi.registerFlag("plan", { type: "boolean", default: false });
  pi.on("not_an_event", () => {});
  pi.on("before_agent_start", (event) => (pi.getFlag("plan") ? { systemPrompt: event.systemPrompt + "\\nPLAN MODE" } : undefined));
  pi.on("before_provider_headers", (event) => { event.headers["x-extension"] = "yes"; });
  pi.on("before_provider_request", (event) => ({ ...event.payload, temperature: 0 }));
}`;

describe("pi 1.6.0 extensions (built CLI)", () => {
  it("--plan reaches getFlag; headers and payload changes reach the server; an unknown event is one warning line", async () => {
    writeFileSync(join(user.project, "hooks.ts"), HOOKS);
    server.enqueue({ sse: completionsText("planned") });
    const run = await user.pi(["-p", "--model", "mock/mock-1", "-e", "hooks.ts", "--plan", "hello"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("planned\n");
    expect(run.stderr).toBe(
      `extension ${join(user.project, "hooks.ts")}: pi.on("not_an_event"): pi 1.6.0 has no such event, so the handler never runs\n`,
    );
    const { headers, body } = server.requests[0]!;
    expect(headers["x-extension"]).toBe("yes");
    expect(body.temperature).toBe(0);
    expect(body.messages[0].content).toMatch(/\nPLAN MODE$/);
  });

  it("without --plan the system prompt is the session's; a near-miss flag is still a usage error", async () => {
    writeFileSync(join(user.project, "hooks.ts"), HOOKS);
    server.enqueue({ sse: completionsText("plain") });
    const run = await user.pi(["-p", "--model", "mock/mock-1", "-e", "hooks.ts", "hello"]);
    expect(run.code).toBe(0);
    expect(server.requests[0]!.body.messages[0].content).not.toMatch(/PLAN MODE/);
    const typo = await user.pi(["-p", "--modle", "mock/mock-1", "hello"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/unknown flag --modle; did you mean --model\?/);
  });

  it("an extension flag no extension registers is one error line and exit 2, before anything is sent", async () => {
    writeFileSync(join(user.project, "hooks.ts"), HOOKS);
    const before = server.requests.length;
    const run = await user.pi(["-p", "--model", "mock/mock-1", "-e", "hooks.ts", "--reviewer=strict", "hello"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^pi: unknown flag --reviewer \(no extension registers it\); the closest known flag is --\S+; run "pi --help" for the options\n$/,
    );
    expect(server.requests.length).toBe(before);
  });

  it("--mode rpc: a command's ctx.ui.confirm is an extension_ui_request the client answers; ui_prompt events frame it", async () => {
    writeFileSync(
      join(user.project, "ask.ts"),
      `export default function (pi) {
  const seen = [];
  pi.on("ui_prompt_start", (e) => { seen.push(e.kind); });
  pi.registerCommand("ask", { handler: async (_a, ctx) => { const ok = await ctx.ui.confirm("Deploy?", "to prod"); ctx.ui.notify("answer " + ok + " " + seen.join(",")); } });
}`,
    );
    const child = spawn(
      process.execPath,
      [PI_BIN, "--mode", "rpc", "--model", "mock/mock-1", "-e", "ask.ts", "--no-session"],
      {
        cwd: user.project,
        env: { ...process.env, ...user.env },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    const records: any[] = [];
    let buffer = "";
    let wake: () => void = () => {};
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffer += chunk;
      for (let nl = buffer.indexOf("\n"); nl !== -1; nl = buffer.indexOf("\n")) {
        records.push(JSON.parse(buffer.slice(0, nl)));
        buffer = buffer.slice(nl + 1);
      }
      wake();
    });
    const next = async (match: (r: any) => boolean): Promise<any> => {
      for (;;) {
        const found = records.find(match);
        if (found !== undefined) return found;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    };
    try {
      child.stdin.write(`${JSON.stringify({ id: "p1", type: "prompt", message: "/ask" })}\n`);
      const request = await next((r) => r.type === "extension_ui_request" && r.method === "confirm");
      expect(request).toMatchObject({ title: "Deploy?", message: "to prod" });
      child.stdin.write(`${JSON.stringify({ type: "extension_ui_response", id: request.id, confirmed: true })}\n`);
      const note = await next((r) => r.type === "extension_ui_request" && r.method === "notify");
      expect(note.message).toBe("answer true confirm");
    } finally {
      child.stdin.end();
      child.kill("SIGTERM");
    }
  });
});
