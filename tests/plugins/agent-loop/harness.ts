/**
 * A small harness for loop tests: a faux provider, tools built from functions, queues for steering and
 * follow-ups, and a log of every event, wired into `runAgent` exactly as a session would.
 */
import { Type, type TSchema } from "@sinclair/typebox";
import {
  runAgent,
  type AgentEvent,
  type AgentMessage,
  type LoopHooks,
  type TurnConfig,
} from "../../../contracts/agent.js";
import type { UserMessage } from "../../../contracts/ai/index.js";
import { createFileLocks, type AgentTool, type ToolResult, type ToolUpdate } from "../../../contracts/tool.js";
import { runTurn } from "../../../plugins/session/agent-loop/loop.js";
import { createFauxProvider, type FauxOptions, type FauxProvider } from "../../../plugins/ai/provider-faux/faux.js";

/** A user message with text. */
export function user(text: string): UserMessage {
  return { role: "user", content: text, timestamp: Date.now() };
}

/** A tool whose body is a plain async function of its arguments. */
export function tool(
  name: string,
  body: (args: any, signal: AbortSignal | undefined, onUpdate: ToolUpdate | undefined) => Promise<ToolResult | string>,
  options: { parameters?: TSchema; executionMode?: "parallel" | "sequential" } = {},
): AgentTool<any, any> {
  return {
    name,
    description: `test tool ${name}`,
    parameters: options.parameters ?? Type.Object({}, { additionalProperties: true }),
    executionMode: options.executionMode,
    async execute(_id, args, signal, onUpdate) {
      const out = await body(args, signal, onUpdate);
      return typeof out === "string" ? { content: [{ type: "text", text: out }] } : out;
    },
  };
}

/** Everything a loop test sets up and observes. */
export class LoopHarness {
  readonly faux: FauxProvider;
  readonly events: AgentEvent[] = [];
  readonly steering: AgentMessage[] = [];
  readonly followUps: AgentMessage[] = [];
  readonly abort = new AbortController();
  tools: AgentTool<any, any>[] = [];
  hooks: LoopHooks = {};
  toolExecution: "parallel" | "sequential" | undefined;
  /** Counts of loop calls, to prove each turn is its own call. */
  turnCalls = 0;

  constructor(options: FauxOptions = {}) {
    this.faux = createFauxProvider(options);
  }

  config(): TurnConfig {
    return {
      model: this.faux.model(),
      systemPrompt: "You are a test.",
      tools: this.tools,
      stream: (model, context, options) => this.faux.stream(model, context, options),
      streamOptions: {},
      toolContext: { cwd: process.cwd(), withFileLock: createFileLocks() },
      toolExecution: this.toolExecution,
      hooks: this.hooks,
      takeSteering: () => this.steering.splice(0),
      takeFollowUps: () => this.followUps.splice(0),
      emit: (event) => this.events.push(event),
      signal: this.abort.signal,
    };
  }

  /** Runs a prompt to the end; returns the messages the run added. */
  run(prompt: string, history: AgentMessage[] = []): Promise<AgentMessage[]> {
    const loop = {
      api: {
        runTurn: (run: Parameters<typeof runTurn>[0], config: TurnConfig) => {
          this.turnCalls++;
          return runTurn(run, config);
        },
      },
    };
    return runAgent(loop, [user(prompt)], history, () => this.config());
  }

  /** Event types in order, with tool ids for tool events. */
  trace(): string[] {
    return this.events.map((e) => {
      if (e.type.startsWith("tool_execution")) return `${e.type}:${(e as { toolCallId: string }).toolCallId}`;
      if (e.type === "message_start" || e.type === "message_end")
        return `${e.type}:${(e as { message: AgentMessage }).message.role}`;
      return e.type;
    });
  }

  /** Each tool call id of the run and how many results it got. */
  resultCounts(messages: AgentMessage[]): Map<string, number> {
    const counts = new Map<string, number>();
    for (const m of messages) {
      if (m.role === "assistant")
        for (const b of (m as any).content) if (b.type === "toolCall") counts.set(b.id, counts.get(b.id) ?? 0);
    }
    for (const m of messages)
      if (m.role === "toolResult") counts.set((m as any).toolCallId, (counts.get((m as any).toolCallId) ?? 0) + 1);
    return counts;
  }
}

/** A promise with its resolver, to hold a tool open until the test lets it finish. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}
