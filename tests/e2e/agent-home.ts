/**
 * A throwaway user for e2e runs of the built `pi`: a temp HOME with an agent folder (PI_CODING_AGENT_DIR)
 * and a project folder to run in, no API keys from the machine, and helpers to script the faux provider
 * through the user's plugins.json, point a models.json provider at a MockLlmServer, and read the
 * session files a run wrote.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FauxTurnJson } from "../../plugins/ai/provider-faux/script.js";
import { deltaChunk, DONE, pieces, usageChunk, type Completion } from "../fixtures/sse/openai-completions/envelope.js";
import type { SseEvent } from "../support/mock-llm-server.js";
import { runPi, type PiRun } from "./run-pi.js";

/** One user's folders and environment. */
export interface AgentHome {
  home: string;
  agent: string;
  project: string;
  env: Record<string, string>;
  /** Runs the built pi in the project folder with this environment. */
  pi(args: string[], options?: { input?: string; cwd?: string; env?: Record<string, string> }): Promise<PiRun>;
  /** Scripts the faux provider (model "faux/faux-1") through the user's plugins.json. */
  scriptFaux(responses: FauxTurnJson[]): void;
  /** Adds a models.json provider "mock" (api openai-completions) whose model "mock-1" lives at `baseUrl`. */
  useMockServer(baseUrl: string): void;
  /** Every session file under the agent folder, oldest first (file names start with the time). */
  sessionFiles(): string[];
}

/** A fresh user with no keys, no settings and no sessions. */
export function agentHome(): AgentHome {
  const home = mkdtempSync(join(tmpdir(), "pi-run-e2e-"));
  const agent = join(home, "agent");
  const project = join(home, "project");
  mkdirSync(agent, { recursive: true });
  mkdirSync(project, { recursive: true });
  const env = {
    PI_CODING_AGENT_DIR: agent,
    HOME: home,
    ANTHROPIC_API_KEY: "",
    OPENAI_API_KEY: "",
    GEMINI_API_KEY: "",
    GOOGLE_API_KEY: "",
    PI_CODING_AGENT_SESSION_DIR: "",
  };
  return {
    home,
    agent,
    project,
    env,
    pi: (args, options = {}) =>
      runPi(args, { cwd: options.cwd ?? project, env: { ...env, ...options.env }, input: options.input }),
    scriptFaux(responses) {
      const fauxModels = {
        faux: {
          api: "faux",
          baseUrl: "http://localhost:0",
          apiKey: "none",
          models: [{ id: "faux-1", input: ["text", "image"] }],
        },
      };
      writeFileSync(
        join(agent, "plugins.json"),
        JSON.stringify({
          plugins: [
            { id: "models", config: { providers: fauxModels } },
            { id: "provider-faux", config: { responses } },
          ],
        }),
      );
    },
    useMockServer(baseUrl) {
      writeFileSync(
        join(agent, "models.json"),
        JSON.stringify({
          providers: {
            mock: {
              baseUrl,
              api: "openai-completions",
              apiKey: "MOCK_KEY",
              models: [{ id: "mock-1", contextWindow: 128000, maxTokens: 4096 }],
            },
          },
        }),
      );
    },
    sessionFiles() {
      const root = join(agent, "sessions");
      if (!existsSync(root)) return [];
      return readdirSync(root, { recursive: true, encoding: "utf8" })
        .filter((name) => name.endsWith(".jsonl"))
        .map((name) => join(root, name))
        .sort((a, b) => a.split("/").pop()!.localeCompare(b.split("/").pop()!));
    },
  };
}

/** A session file's lines, parsed as pi reads them. */
export function sessionLines(file: string): any[] {
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

/** The roles of a session file's message entries, in order. */
export function messageRoles(file: string): string[] {
  return sessionLines(file)
    .filter((e) => e.type === "message")
    .map((e) => e.message.role);
}

const completion: Completion = {
  id: "chatcmpl-e2e0000000000000000000001",
  model: "mock-1",
  created: 1747831200,
  systemFingerprint: "fp_e2e",
};
const usage = {
  prompt_tokens: 120,
  completion_tokens: 12,
  total_tokens: 132,
  prompt_tokens_details: { cached_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0 },
};

/** A Chat Completions stream answering `text` in small deltas, in OpenAI's wire format. */
export function completionsText(text: string): SseEvent[] {
  return [
    deltaChunk(completion, { role: "assistant", content: "", refusal: null }),
    ...pieces(text, 5).map((content) => deltaChunk(completion, { content })),
    deltaChunk(completion, {}, "stop"),
    usageChunk(completion, usage),
    DONE,
  ];
}

/** A Chat Completions stream calling one tool, its arguments split across chunks as OpenAI sends them. */
export function completionsToolCall(id: string, name: string, args: Record<string, unknown>): SseEvent[] {
  return [
    deltaChunk(completion, { role: "assistant", content: null }),
    deltaChunk(completion, { tool_calls: [{ index: 0, id, type: "function", function: { name, arguments: "" } }] }),
    ...pieces(JSON.stringify(args), 7).map((part) =>
      deltaChunk(completion, { tool_calls: [{ index: 0, function: { arguments: part } }] }),
    ),
    deltaChunk(completion, {}, "tool_calls"),
    usageChunk(completion, usage),
    DONE,
  ];
}
