/**
 * One turn's snapshot (TurnConfig): the model, system prompt, tools, stream options and hooks in force as
 * the turn starts, so a reload or a setting changed mid-turn changes the next turn, never half of this one.
 */
import type {
  AgentEvent,
  AgentMessage,
  Model,
  SessionEvent,
  Settings,
  StreamOptions,
  TelemetrySpan,
  ThinkingLevel,
  ToolContext,
  TurnConfig,
} from "pi-host";
import { activeToolSet } from "./active-tools.js";
import { composeHooks } from "./loop-hooks.js";
import { providerRetryPolicy, streamTimeouts } from "./retry-policy.js";
import { buildSystemPrompt, type SystemPromptCache } from "./system-prompt.js";
import type { SessionConfig, SessionDeps } from "./types.js";

/** Everything a turn is assembled from. */
export interface TurnInputs {
  model: Model;
  thinkingLevel: ThinkingLevel;
  settings: Settings;
  /** The session's auto-retry toggle; off, providers do not retry either. */
  autoRetry: boolean;
  config: SessionConfig;
  cwd: string;
  /** The session's handles a turn reads: router, store, tools, tool sources, prompt sources, hooks. */
  handles: Pick<SessionDeps, "llm" | "store" | "tools" | "toolSources" | "resources" | "hooks">;
  systemPrompts: SystemPromptCache;
  withFileLock: ToolContext["withFileLock"];
  takeSteering: () => AgentMessage[];
  takeFollowUps: () => AgentMessage[];
  /** Session events of the assembly itself (a tool source that failed to list). */
  notice: (event: SessionEvent) => void;
  /** The loop's events. */
  onEvent: (event: AgentEvent) => void;
  signal: AbortSignal | undefined;
  /** The run's span, under which the loop opens its turn, request and tool spans. */
  telemetry: TelemetrySpan;
}

/** The snapshot for one turn. */
export async function assembleTurn(inputs: TurnInputs): Promise<TurnConfig> {
  const { config, cwd, settings, handles } = inputs;
  const { tools, undeclared } = await activeToolSet({
    tools: handles.tools,
    toolSources: handles.toolSources,
    allowed: config.tools,
    excluded: config.excludeTools,
    withoutBuiltins: config.noBuiltinTools,
    cwd,
    emit: inputs.notice,
  });
  const toolNames = tools.map((t) => t.name);
  const systemPrompt = await inputs.systemPrompts.get(toolNames, () =>
    buildSystemPrompt(handles.resources.list(), {
      cwd,
      tools: tools.map((t) => ({ name: t.name, description: t.description, guidelines: t.guidelines })),
      systemPromptOverride: config.systemPrompt,
      appendSystemPrompt: config.appendSystemPrompt,
      skills: [],
      now: new Date(),
    }),
  );
  return {
    model: inputs.model,
    systemPrompt,
    tools,
    // Through the LLM router; never throws (failures are the stream's `error` event).
    stream: (m, context, options) => handles.llm.api.stream(m, context, options),
    streamOptions: {
      reasoning: inputs.thinkingLevel,
      thinkingBudgets: settings.thinkingBudgets as StreamOptions["thinkingBudgets"],
      sessionId: handles.store.api.current()?.id,
      retry: providerRetryPolicy(settings, inputs.autoRetry),
      ...streamTimeouts(settings),
    },
    // Undeclared tools (MCP `codemode`/`deferred` exposure) count as offered: codemode scripts may call them.
    toolContext: { cwd, withFileLock: inputs.withFileLock, activeToolNames: [...toolNames, ...undeclared] },
    hooks: composeHooks(handles.hooks, {
      blockImages: (settings.images as { blockImages?: unknown } | undefined)?.blockImages === true,
      // pi's default is on.
      autoResize: (settings.images as { autoResize?: unknown } | undefined)?.autoResize !== false,
    }),
    takeSteering: inputs.takeSteering,
    takeFollowUps: inputs.takeFollowUps,
    emit: inputs.onEvent,
    signal: inputs.signal,
    telemetry: inputs.telemetry,
  };
}
