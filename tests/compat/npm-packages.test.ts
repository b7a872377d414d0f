/**
 * Real pi packages from the npm registry, vendored as the tarballs `npm pack <name>@<version>` gave
 * (tests/compat/npm-packages/, with their dependencies), served by a verdaccio registry on 127.0.0.1.
 * Each package: `pi install npm:<name>@<version>` succeeds; a print-mode run loads its extensions with
 * no error line; and one of its commands or tools works end to end against MockLlmServer on the built
 * CLI (RPC mode where the package talks to a user, print mode where it does not).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentHome, completionsText, completionsToolCall, type AgentHome } from "../e2e/agent-home.js";
import { runPi, type PiRun } from "../e2e/run-pi.js";
import type { TestRegistry } from "../fixtures/packages/registry.js";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { RpcProcess } from "./support/rpc-process.js";
import { startVendoredRegistry } from "./support/vendored-registry.js";

const SLOW = 180_000;

let registry: TestRegistry;
let llm: MockLlmServer;

beforeAll(async () => {
  [registry, llm] = await Promise.all([startVendoredRegistry(), new MockLlmServer().start()]);
}, SLOW);
afterAll(async () => {
  await Promise.all([registry?.close(), llm?.close()]);
});

/** A fresh user whose npm reaches only the vendored registry and whose model is MockLlmServer. */
function newUser(): AgentHome & { runEnv: Record<string, string> } {
  const user = agentHome();
  user.useMockServer(`${llm.url}/v1`);
  llm.requests.length = 0;
  return Object.assign(user, { runEnv: { ...registry.env, ...user.env } });
}

async function pi(user: ReturnType<typeof newUser>, args: string[], input?: string): Promise<PiRun> {
  return runPi(args, { cwd: user.project, env: user.runEnv, input });
}

/** Installs `spec` and checks a plain print-mode run loads its extensions with no error line. */
async function installAndLoad(user: ReturnType<typeof newUser>, spec: string): Promise<void> {
  const install = await pi(user, ["install", `npm:${spec}`]);
  expect(install.code, install.stderr).toBe(0);
  expect(install.stdout).toContain(`Installed npm:${spec}`);
  llm.enqueue({ sse: completionsText("loaded") });
  const run = await pi(user, ["-p", "--model", "mock/mock-1", "hello"]);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toBe("loaded\n");
  expect(errorLines(run.stderr)).toEqual([]);
}

/** Lines of stderr that report a failure (load errors, handler errors, unsupported members). */
function errorLines(stderr: string): string[] {
  return stderr.split("\n").filter((line) => /failed|error|not supported|cannot/i.test(line));
}

function rpc(user: ReturnType<typeof newUser>): RpcProcess {
  return new RpcProcess(["--model", "mock/mock-1"], { cwd: user.project, env: user.runEnv });
}

/** The text of every message the model was sent, for checking what reached it. */
function sentText(): string {
  return llm.requests.map((r) => JSON.stringify(r.body.messages)).join("\n");
}

describe("real pi packages from npm, installed with pi install (built CLI, vendored registry, MockLlmServer)", () => {
  it(
    "pi-aliases@1.0.7: /clear starts a new session (ctx.newSession), /exit ends the RPC process (ctx.shutdown)",
    async () => {
      const user = newUser();
      await installAndLoad(user, "pi-aliases@1.0.7");
      const p = rpc(user);
      const first = (await p.command({ type: "get_state" })).data.sessionId;
      await p.prompt("/clear");
      let second = first;
      for (let i = 0; i < 100 && second === first; i++) {
        await new Promise((r) => setTimeout(r, 50));
        second = (await p.command({ type: "get_state" })).data.sessionId;
      }
      expect(second).not.toBe(first);
      await p.prompt("/exit");
      expect(await p.exited).toBe(0);
      expect(errorLines(p.stderr)).toEqual([]);
    },
    SLOW,
  );

  it(
    "pi-simplify@0.2.2: /simplify <file> sends its review prompt naming the file to the model",
    async () => {
      const user = newUser();
      await installAndLoad(user, "pi-simplify@0.2.2");
      llm.enqueue({ sse: completionsText("reviewed") });
      const run = await pi(user, ["-p", "--model", "mock/mock-1", "/simplify src/app.ts"]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe("reviewed\n");
      expect(errorLines(run.stderr)).toEqual([]);
      expect(sentText()).toContain("src/app.ts");
      expect(sentText()).not.toContain("/simplify");
    },
    SLOW,
  );

  // Both theme packages manage pi's TUI themes; in RPC mode pi has none to offer (getAllThemes() is []),
  // and each says so, as under pi 1.6.0. (pi-sync-system-theme's /system-theme-push reads `args[0]`
  // of pi's string argument, so it takes one letter under pi too; it is not the test here.)
  for (const [spec, said] of [
    ["pi-system-theme@0.5.0", /interactive theme support/],
    ["pi-sync-system-theme@0.2.5", /Requires interactive mode with themes/],
  ] as const) {
    it(
      `${spec}: /system-theme in RPC mode answers as under pi (theme settings need the TUI)`,
      async () => {
        const user = newUser();
        await installAndLoad(user, spec);
        const p = rpc(user);
        const seen = p.records.length;
        await p.prompt("/system-theme");
        const note = await p.after(seen, (r) => r.type === "extension_ui_request" && r.method === "notify");
        expect(note.message).toMatch(said);
        expect(await p.close()).toBe(0);
        expect(errorLines(p.stderr)).toEqual([]);
        // Warnings may remain (pi-sync-system-theme also handles "session_switch", which pi 1.6.0 does not have).
        expect(p.records.filter((r) => r.type === "notice" && r.level === "error")).toEqual([]);
      },
      SLOW,
    );
  }

  it(
    "@juicesharp/rpiv-ask-user-question@2.11.0: the model's ask_user_question becomes an RPC select, the answer goes back",
    async () => {
      const user = newUser();
      await installAndLoad(user, "@juicesharp/rpiv-ask-user-question@2.11.0");
      const question = {
        questions: [
          {
            question: "Which date library should we use?",
            header: "Library",
            options: [
              { label: "date-fns", description: "small functions" },
              { label: "luxon", description: "time zones" },
            ],
          },
        ],
      };
      llm.enqueue(
        { sse: completionsToolCall("call_ask", "ask_user_question", question) },
        { sse: completionsText("noted") },
      );
      const p = rpc(user);
      const seen = p.records.length;
      await p.prompt("pick a library");
      const ask = await p.after(seen, (r) => r.type === "extension_ui_request" && r.method === "select");
      expect(ask.title).toContain("Which date library should we use?");
      const choice = (ask.options as string[]).find((o) => o.includes("luxon"));
      expect(choice).toBeDefined();
      p.send({ type: "extension_ui_response", id: ask.id, value: choice });
      await p.after(seen, (r) => r.type === "agent_end");
      expect(await p.close()).toBe(0);
      const result = JSON.stringify(llm.requests.at(-1)!.body.messages.at(-1));
      expect(result).toContain("luxon");
      expect(errorLines(p.stderr)).toEqual([]);
    },
    SLOW,
  );

  it(
    "@aliou/pi-processes@0.12.0: the model's process start runs a background command, and its output is read back",
    async () => {
      const user = newUser();
      await installAndLoad(user, "@aliou/pi-processes@0.12.0");
      llm.enqueue(
        {
          sse: completionsToolCall("call_start", "process", {
            action: "start",
            name: "hello",
            command: "echo compat-hello-$((6*7))",
          }),
        },
        { sse: completionsText("started") },
      );
      const run = await pi(user, ["-p", "--model", "mock/mock-1", "start hello"]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe("started\n");
      expect(errorLines(run.stderr)).toEqual([]);
      const result = JSON.stringify(llm.requests.at(-1)!.body.messages.at(-1));
      expect(result).toMatch(/proc_[0-9a-z]+/);
      expect(result).toContain("hello");
    },
    SLOW,
  );

  it(
    "@baochunli/pi-collaborating-agents@0.4.6: the model's agent_message status reports this agent",
    async () => {
      const user = newUser();
      await installAndLoad(user, "@baochunli/pi-collaborating-agents@0.4.6");
      llm.enqueue(
        { sse: completionsToolCall("call_status", "agent_message", { action: "status" }) },
        { sse: completionsText("status read") },
      );
      const run = await pi(user, ["-p", "--model", "mock/mock-1", "who am i"]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe("status read\n");
      expect(errorLines(run.stderr)).toEqual([]);
      const result = llm.requests.at(-1)!.body.messages.at(-1);
      expect(result.role).toBe("tool");
      expect(result.content).toMatch(/^Agent: \S+\nFocus: local\nActive peers: 0\nReservations: 0$/);
    },
    SLOW,
  );

  it(
    "pi-prompt-template-model@0.12.2: a template with model: frontmatter switches the model and sends its text",
    async () => {
      const user = newUser();
      const models = JSON.parse(readFileSync(join(user.agent, "models.json"), "utf8"));
      models.providers.mock.models.push({ id: "mock-2", contextWindow: 128000, maxTokens: 4096 });
      writeFileSync(join(user.agent, "models.json"), JSON.stringify(models));
      mkdirSync(join(user.agent, "prompts"), { recursive: true });
      writeFileSync(
        join(user.agent, "prompts", "deep-check.md"),
        "---\ndescription: Check with the second model\nmodel: mock/mock-2\n---\nLook closely at: $@\n",
      );
      await installAndLoad(user, "pi-prompt-template-model@0.12.2");
      llm.enqueue({ sse: completionsText("checked") });
      const run = await pi(user, ["-p", "--model", "mock/mock-1", "/deep-check the parser"]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe("checked\n");
      expect(errorLines(run.stderr)).toEqual([]);
      const request = llm.requests.at(-1)!.body;
      expect(request.model).toBe("mock-2");
      expect(JSON.stringify(request.messages)).toContain("Look closely at: the parser");
    },
    SLOW,
  );
});
