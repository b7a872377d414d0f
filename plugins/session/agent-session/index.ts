/**
 * The agent session plugin: provides `agent/session`, the orchestrator every mode talks to. Its lasting
 * state (which session is open, model, thinking level, queue modes, auto-compaction and auto-retry)
 * survives a reload, and so does a run: a reload waits for the current turn only, the run parks between
 * two turns and the next generation resumes it (run.ts).
 */
import { Type } from "@sinclair/typebox";
import { AgentSessionContract, SESSION_EVENT, type SessionEvent } from "pi-host";
import { AgentLoopContract } from "pi-host";
import { LlmContract, ModelsContract } from "pi-host";
import { CommandContract } from "pi-host";
import { HooksContract } from "pi-host";
import { HostEnvironmentContract, readHostEnvironment } from "pi-host";
import { PromptExpanderContract, ResourcesContract, SettingsContract } from "pi-host";
import {
  SESSION_SAVE_ERROR_EVENT,
  SessionCompactorContract,
  SessionStoreContract,
  type SessionSaveProblem,
} from "pi-host";
import { DurableRunsContract, TelemetryContract, ToolContract, ToolSourceContract } from "pi-host";
import { definePlugin } from "pi-host";
import { effectiveSessionConfig } from "./run-choices.js";
import { AgentSessionService } from "./session-extras.js";
import type { SessionConfig, SessionPluginState } from "./types.js";

const Thinking = Type.Union(["off", "minimal", "low", "medium", "high", "xhigh"].map((l) => Type.Literal(l)));
const QueueMode = Type.Union([Type.Literal("all"), Type.Literal("one-at-a-time")]);

const Config = Type.Object(
  {
    cwd: Type.Optional(Type.String()),
    sessionDir: Type.Optional(Type.String()),
    session: Type.Optional(Type.String({ description: '"new", "continue", "none" or a session file' })),
    model: Type.Optional(Type.String()),
    provider: Type.Optional(Type.String()),
    thinking: Type.Optional(Thinking),
    tools: Type.Optional(Type.Array(Type.String())),
    systemPrompt: Type.Optional(Type.String()),
    appendSystemPrompt: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);

/** A run parked between two turns (run.ts); messages are the loop's and the store's own shapes. */
const Messages = Type.Array(Type.Unknown());
const ParkedRun = Type.Object({
  id: Type.String(),
  loop: Type.Object({
    messages: Messages,
    newMessages: Messages,
    pending: Messages,
    turns: Type.Number(),
    done: Type.Boolean(),
    toolsDue: Type.Optional(Type.Object({ message: Type.Unknown(), callIds: Type.Array(Type.String()) })),
  }),
  retryAttempt: Type.Number(),
  overflowCompacted: Type.Boolean(),
  steering: Messages,
  followUps: Messages,
  afterCrash: Type.Optional(Type.Boolean()),
});

const State = Type.Object({
  sessionPath: Type.Optional(Type.String()),
  provider: Type.Optional(Type.String()),
  modelId: Type.Optional(Type.String()),
  thinkingLevel: Type.Optional(Thinking),
  steeringMode: QueueMode,
  followUpMode: QueueMode,
  autoCompaction: Type.Boolean(),
  autoRetry: Type.Boolean(),
  run: Type.Optional(ParkedRun),
});

export default definePlugin({
  id: "agent-session",
  version: "1.0.0",
  description: "The orchestrator: prompts, steering, follow-ups, models, compaction, retries, persistence",
  provides: [AgentSessionContract],
  requires: [
    AgentLoopContract,
    SessionStoreContract,
    ModelsContract,
    LlmContract,
    { contract: ToolContract },
    { contract: ToolSourceContract },
    { contract: ResourcesContract },
    { contract: HooksContract },
    { contract: CommandContract },
    // What a `/name` line means: a command to run, or a skill or template to expand (the resources plugin).
    { contract: PromptExpanderContract, optional: true },
    { contract: SessionCompactorContract, optional: true },
    { contract: SettingsContract, optional: true },
    // The host's per-run flags (--model, --session, ...) and working folder.
    { contract: HostEnvironmentContract, optional: true },
    // A run's root span; without a telemetry plugin every span is the no-op one.
    { contract: TelemetryContract, optional: true },
    // Commit before show, checkpoints and resuming a crashed run (docs/durable.md); off without it.
    { contract: DurableRunsContract, optional: true },
  ],
  config: Config,
  state: {
    version: 1,
    schema: State,
    initial: (): SessionPluginState => ({
      steeringMode: "one-at-a-time",
      followUpMode: "one-at-a-time",
      autoCompaction: true,
      autoRetry: true,
    }),
    migrate: (previous) => previous as SessionPluginState,
  },
  setup(ctx) {
    const host = ctx.use(HostEnvironmentContract);
    const session = new AgentSessionService({
      ctx: ctx as never,
      config: () => effectiveSessionConfig(ctx.config as SessionConfig, readHostEnvironment(host)),
      loop: ctx.use(AgentLoopContract),
      llm: ctx.use(LlmContract),
      models: ctx.use(ModelsContract),
      store: ctx.use(SessionStoreContract),
      compactor: ctx.use(SessionCompactorContract),
      tools: ctx.useAll(ToolContract),
      resources: ctx.useAll(ResourcesContract),
      expander: ctx.use(PromptExpanderContract),
      settings: ctx.use(SettingsContract),
      hooks: ctx.useAll(HooksContract),
      toolSources: ctx.useAll(ToolSourceContract),
      commands: ctx.useAll(CommandContract),
      telemetry: ctx.use(TelemetryContract),
      durable: ctx.use(DurableRunsContract),
    });
    ctx.provide(AgentSessionContract, session);
    // A run the previous generation parked between two turns is this one's before any call comes in.
    ctx.onStart(() => session.adoptParkedRun());
    // The store reports a session it cannot save on the bus; every mode hears it as a session event.
    ctx.on(SESSION_SAVE_ERROR_EVENT, (problem: SessionSaveProblem) => {
      const event: SessionEvent = {
        type: "session_save_error",
        error: problem.error,
        path: problem.path,
        reason: problem.reason,
      };
      ctx.emit(SESSION_EVENT, event);
    });
  },
});
