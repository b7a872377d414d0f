/**
 * The session plugin's own shapes: the per-run choices it reads, the state that survives a reload and
 * the handles it works through.
 * Kept apart from the orchestrator so every part of the plugin can name them without importing it.
 */
import type { AgentHooks, AgentLoop, AgentTool, Handle, Llm, ManyHandle, ModelCatalog, PluginContext } from "pi-host";
import type { PromptExpander, ResourceSource, SessionCompactor, SessionStore, SettingsStore } from "pi-host";
import type { DurableRuns, SlashCommand, Telemetry, ThinkingLevel, ToolSource } from "pi-host";
import type { QueueMode } from "./queue.js";
import type { ParkedRun } from "./run.js";

/** Per-invocation choices: the plugin's config with the host's run flags (CLI flags, SDK options) over it. */
export interface SessionConfig {
  cwd?: string;
  sessionDir?: string;
  /** "new" (default), "continue", "none" (in memory), or a session file to open. */
  session?: string;
  /** The id a new session gets (`--session-id`) instead of a fresh UUID. */
  sessionId?: string;
  model?: string;
  provider?: string;
  thinking?: ThinkingLevel;
  /** `--models` scope patterns (the `enabledModels` setting when absent). */
  models?: string[];
  /** The tool selection in pi's `--tools` language (names, `*` patterns, `+name`/`-name`); undefined = every enabled tool, [] = none. */
  tools?: string[];
  /** `--exclude-tools`: names or `*` patterns removed after the selection (not settable in plugins.json). */
  excludeTools?: string[];
  /** `-nbt`: built-in tools off unless the selection names them (not settable in plugins.json). */
  noBuiltinTools?: boolean;
  systemPrompt?: string;
  appendSystemPrompt?: string[];
}

/** What survives a reload of this plugin. */
export interface SessionPluginState {
  sessionPath?: string;
  provider?: string;
  modelId?: string;
  thinkingLevel?: ThinkingLevel;
  steeringMode: QueueMode;
  followUpMode: QueueMode;
  autoCompaction: boolean;
  autoRetry: boolean;
  /** A run parked between two turns while a reload moves it to the next generation (run.ts). */
  run?: ParkedRun;
}

/** The handles the orchestrator works through. */
export interface SessionDeps {
  ctx: PluginContext<SessionConfig, SessionPluginState>;
  /** The effective choices (see run-choices.ts), read when needed; used instead of `ctx.config`. */
  config: () => SessionConfig;
  loop: Handle<AgentLoop>;
  llm: Handle<Llm>;
  models: Handle<ModelCatalog>;
  store: Handle<SessionStore>;
  compactor: Handle<SessionCompactor>;
  tools: ManyHandle<AgentTool<any, any>>;
  resources: ManyHandle<ResourceSource>;
  /** Which command a `/name` line runs and the `/skill:` and `/template` expansion (optional). */
  expander: Handle<PromptExpander>;
  settings: Handle<SettingsStore>;
  hooks: ManyHandle<AgentHooks>;
  toolSources: ManyHandle<ToolSource>;
  commands: ManyHandle<SlashCommand>;
  /** Where a run's root span comes from (optional: without it, no spans). */
  telemetry: Handle<Telemetry>;
  /** Commit before show and resuming a crashed run (optional: without it, runs are as pi's). */
  durable: Handle<DurableRuns>;
}

/** The `agent/session` methods session-extras.ts adds to the orchestrator (session.ts has no room left). */
export type SessionExtraMethods =
  | "importSession"
  | "scopedModels"
  | "setScopedModels"
  | "recordMessage"
  | "resumeInterrupted";
