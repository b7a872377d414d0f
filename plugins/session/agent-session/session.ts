/**
 * The orchestrator behind `agent/session`. It owns the run (run.ts): a prompt becomes loop turns, every
 * message is persisted as it ends, a transient failure runs again (retry-policy.ts), a full or overflowing
 * context is compacted (compaction-policy.ts), and every event goes out on the kernel bus. A run parked
 * between turns for a reload is resumed here by the next generation (`resumeRun`). The rest it
 * delegates: what a prompt line means to the resources plugin's prompt expander, the model to
 * model-choice.ts, the session file and tree to session-tree.ts, a turn's snapshot to turn-config.ts
 * (tools, hooks, system prompt), the queues to queue.ts and what it reports to stats.ts.
 */
import { randomUUID } from "node:crypto";
import { createFileLocks, SESSION_EVENT } from "pi-host";
import type { AgentEvent, AgentMessage, AgentSession, CompactionResult, ImageContent, Model } from "pi-host";
import type {
  SessionEvent,
  SessionInfo,
  SessionState,
  SessionStats,
  Settings,
  TelemetrySpan,
  ThinkingLevel,
  TurnConfig,
} from "pi-host";
import { SessionCompaction } from "./compaction-policy.js";
import { DurableHook } from "./durable.js";
import { hookProviders } from "./loop-hooks.js";
import { lastAssistant, messageText, userMessage } from "./messages.js";
import { ModelChoice } from "./model-choice.js";
import { PromptQueues, type QueueMode } from "./queue.js";
import { RunKeeper } from "./run-keeper.js";
import { openRunSpan } from "./run-span.js";
import { SessionTree } from "./session-tree.js";
import { sessionState, sessionStats } from "./stats.js";
import { SystemPromptCache } from "./system-prompt.js";
import { assembleTurn } from "./turn-config.js";
import type { SessionConfig, SessionDeps, SessionExtraMethods, SessionPluginState } from "./types.js";

export type { SessionConfig, SessionDeps, SessionPluginState } from "./types.js";

/** The orchestrator. One per plugin generation; its lasting state lives in the plugin state. */
export class SessionOrchestrator implements Omit<AgentSession, SessionExtraMethods> {
  protected readonly emit = (event: SessionEvent): void => this.deps.ctx.emit(SESSION_EVENT, event);
  private readonly queues = new PromptQueues(this.emit);
  private readonly locks = createFileLocks();
  private readonly systemPrompts = new SystemPromptCache();
  protected readonly choice: ModelChoice;
  protected readonly sessions: SessionTree;
  private readonly compaction: SessionCompaction;
  private readying: Promise<void> | undefined;
  private settings: Settings = {};
  protected readonly runs: RunKeeper;
  private readonly durable: DurableHook;

  constructor(protected readonly deps: SessionDeps) {
    const saved = (): SessionPluginState => this.saved;
    const patchState = (patch: Partial<SessionPluginState>): void => this.patchState(patch);
    const { emit } = this;
    const available = (): Promise<Model[]> => deps.llm.api.available();
    this.durable = new DurableHook({ durable: deps.durable, store: deps.store, settings: () => this.settings, emit });
    this.choice = new ModelChoice({ models: deps.models, store: deps.store, saved, patchState, emit, available });
    this.sessions = new SessionTree({
      store: deps.store,
      compactor: deps.compactor,
      choice: this.choice,
      config: () => this.config,
      cwd: () => this.cwd(),
      saved,
      patchState,
      emit,
      pickModel: () => this.choice.pick(this.config, this.settings),
      whenIdle: (what) => this.whenIdle(what),
    });
    this.compaction = new SessionCompaction({
      ...deps, // its compactor, store and hooks
      emit,
      settings: () => this.settings,
      model: () => this.choice.model,
      autoCompaction: () => this.saved.autoCompaction,
    });
    this.runs = new RunKeeper(
      {
        loop: deps.loop,
        settings: () => this.settings,
        autoRetry: () => this.saved.autoRetry,
        emit,
        compaction: this.compaction,
        contextWindow: () => this.choice.model?.contextWindow,
        contextMessages: () => this.contextMessages(),
        turnConfig: (signal, telemetry) => this.turnConfig(signal, telemetry),
        runSpan: (resumed) => openRunSpan(deps, this.cwd(), this.choice.model, resumed),
        safePoint: (runId) => deps.ctx.safePoint("resumeRun", runId),
        queues: this.queues,
        saved,
        patchState,
        onRunStart: () => this.systemPrompts.reset(),
        durable: this.durable,
      },
      emit,
    );
  }

  /** The run's choices: read when needed, since the host's handle answers only once the boot has committed. */
  private get config(): SessionConfig {
    return this.deps.config();
  }

  cwd(): string {
    return this.config.cwd ?? process.cwd();
  }

  private get saved(): SessionPluginState {
    return this.deps.ctx.getState();
  }

  private patchState(patch: Partial<SessionPluginState>): void {
    this.deps.ctx.setState({ ...this.saved, ...patch });
  }

  // ── start-up ────────────────────────────────────────────────────────────────────────────────

  /** Opens the session and picks the model on first use (setup may do no I/O). */
  ready(): Promise<void> {
    this.readying ??= this.start().catch((error: unknown) => {
      this.readying = undefined;
      throw error;
    });
    return this.readying;
  }

  private async start(): Promise<void> {
    const { settings } = this.deps;
    this.settings = settings.available ? await settings.api.get(this.cwd()) : {};
    this.queues.restoreModes(this.saved, this.settings);
    await this.sessions.openAtStart();
    await this.choice.loadScope(this.config, this.settings);
    this.choice.pick(this.config, this.settings);
  }

  // ── prompting ───────────────────────────────────────────────────────────────────────────────

  async prompt(
    text: string,
    options: { images?: ImageContent[]; streamingBehavior?: "steer" | "followUp" } = {},
  ): Promise<void> {
    await this.ready();
    this.runs.adopt();
    if (!this.runs.busy) await this.resumeCrashed();
    if (this.runs.busy) {
      if (options.streamingBehavior === "steer") return this.steer(text, options.images);
      if (options.streamingBehavior === "followUp") return this.followUp(text, options.images);
      throw new Error(
        "the agent is already working; send the message as steering or a follow-up, or wait until it is done",
      );
    }
    // Claim the session before the first await, so a second prompt arriving meanwhile is refused.
    const release = this.runs.claim();
    try {
      let [input, images] = [text, options.images];
      for (const h of hookProviders(this.deps.hooks, "beforePrompt")) {
        const change = await h.api.beforePrompt({ text: input, images });
        if (change?.handled) return;
        [input, images] = [change?.text ?? input, change?.images ?? images];
      }
      const command = this.deps.expander.available ? this.deps.expander.api.commandFor(input) : undefined;
      if (command !== undefined) {
        // Registered under its name (CommandContract's key); gone only if a reload removed it just now.
        const handler = this.deps.commands.find(command.name);
        if (handler === undefined) throw new Error(`the command /${command.name} is no longer registered`);
        release();
        return await handler.api.run(command.args);
      }
      // Only a model turn needs a model: a `/command` or an input hook above runs without one, as in pi.
      this.choice.required();
      const expanded = await this.expand(input);
      return await this.runs.start(release, randomUUID(), [userMessage(expanded, images)]);
    } finally {
      release();
    }
  }

  async steer(text: string, images?: ImageContent[]): Promise<void> {
    this.runs.queue("steering", userMessage(await this.expand(text), images));
  }

  async followUp(text: string, images?: ImageContent[]): Promise<void> {
    this.runs.queue("followUps", userMessage(await this.expand(text), images));
  }

  async abort(): Promise<void> {
    this.sessions.abortSummary();
    this.runs.adopt();
    this.runs.run?.retries.cancel();
    this.runs.run?.abort.abort();
    this.queues.clear();
    await this.runs.ended();
    return this.runs.carriedOn("abort");
  }

  async clearQueue(): Promise<{ steering: string[]; followUp: string[] }> {
    return this.queues.clear();
  }

  async idle(): Promise<void> {
    this.runs.adopt();
    await this.runs.idle();
    return this.runs.carriedOn("idle");
  }

  /** `/skill:name args` and `/template args` through the prompt expander; without one, text as typed. */
  private async expand(text: string): Promise<string> {
    const { expander } = this.deps;
    return expander.available ? expander.api.expandPrompt(text, this.cwd()) : text;
  }

  // ── the run ─────────────────────────────────────────────────────────────────────────────────

  /** Takes over a run the previous generation parked between two turns; the plugin calls it at commit. */
  adoptParkedRun(): void {
    this.runs.adopt();
  }

  /** Carries on a run parked between two turns by the previous generation (see run.ts). */
  async resumeRun(runId: string): Promise<void> {
    await this.ready();
    return this.runs.resume(runId);
  }

  /** A durable run a crash interrupted goes on to its end before anything new (durable.ts); parked, refused. */
  protected async resumeCrashed(): Promise<void> {
    const parked = this.durable.interrupted();
    if (parked !== undefined) await this.runs.start(this.runs.claim(), parked.id, [], parked);
  }

  /** The transcript the next run starts from: the session's context, leaf to root. */
  private contextMessages(): AgentMessage[] {
    return this.deps.store.api.buildContext().messages;
  }

  /** Snapshot for one turn (turn-config.ts): model, prompt, tools and options in force as it starts. */
  protected turnConfig(signal: AbortSignal, telemetry: TelemetrySpan): Promise<TurnConfig> {
    const { deps } = this;
    return assembleTurn({
      model: this.choice.model!,
      thinkingLevel: this.choice.thinkingLevel,
      settings: this.settings,
      autoRetry: this.saved.autoRetry,
      config: this.config,
      cwd: this.cwd(),
      handles: deps,
      systemPrompts: this.systemPrompts,
      withFileLock: this.locks,
      takeSteering: () => this.queues.take("steering"),
      takeFollowUps: () => this.queues.take("followUps"),
      notice: this.emit,
      onEvent: (event) => this.onAgentEvent(event),
      signal,
      telemetry,
    });
  }

  /** Every message is saved as it ends; every event goes out on the bus. */
  private onAgentEvent(event: AgentEvent): void {
    this.durable.persist(event, this.runs.run?.id);
    this.emit(event);
  }

  // ── compaction ──────────────────────────────────────────────────────────────────────────────

  /** Compacts once the current run (if any) has finished, including its own retries and compaction. */
  async compact(instructions?: string): Promise<CompactionResult | undefined> {
    await this.ready();
    this.runs.adopt();
    await this.runs.idle();
    if (this.runs.moved) return this.runs.carriedOn("compact", instructions);
    return this.runs.holding(() => this.compaction.run("manual", { instructions }));
  }

  async setAutoCompaction(enabled: boolean): Promise<void> {
    this.patchState({ autoCompaction: enabled });
  }

  async setAutoRetry(enabled: boolean): Promise<void> {
    this.patchState({ autoRetry: enabled });
  }

  async abortRetry(): Promise<void> {
    this.runs.run?.retries.cancel();
  }

  // ── sessions and the tree (session-tree.ts), only while no run goes on ──────────────────────

  /** Start-up first; then refused while a run goes on. */
  protected async whenIdle(what: string): Promise<void> {
    await this.ready();
    this.runs.adopt();
    if (this.runs.busy) throw new Error(`the agent is working; ${what} when it is done, or abort it first`);
  }

  newSession(options: { parentSession?: string } = {}): Promise<SessionInfo | undefined> {
    return this.sessions.newSession(options);
  }

  switchSession(path: string): Promise<SessionInfo | undefined> {
    return this.sessions.switchSession(path);
  }

  fork(entryId: string): Promise<{ text: string; session: SessionInfo | undefined }> {
    return this.sessions.fork(entryId);
  }

  clone(): Promise<SessionInfo | undefined> {
    return this.sessions.clone();
  }

  navigateTree(entryId: string, options: { summarize?: boolean; instructions?: string } = {}): Promise<void> {
    return this.sessions.navigate(entryId, options, () => this.choice.forSummary());
  }

  forkPoints(): Array<{ entryId: string; text: string }> {
    return this.sessions.forkPoints();
  }

  async setSessionName(name: string): Promise<void> {
    await this.ready();
    this.sessions.rename(name);
  }

  // ── model, thinking and queue modes (model-choice.ts) ───────────────────────────────────────

  async setModel(provider: string, modelId: string): Promise<Model> {
    await this.ready();
    return this.choice.set(provider, modelId);
  }

  async cycleModel(
    direction: "forward" | "backward" = "forward",
  ): Promise<{ model: Model; thinkingLevel: ThinkingLevel; isScoped: boolean } | undefined> {
    return this.choice.cycle(await this.availableModels(), direction);
  }

  /** Models whose provider has a key (or needs none). */
  async availableModels(): Promise<Model[]> {
    await this.ready();
    return this.deps.llm.api.available();
  }

  async setThinkingLevel(level: ThinkingLevel): Promise<void> {
    await this.ready();
    this.choice.setThinking(level);
  }

  async cycleThinkingLevel(): Promise<ThinkingLevel | undefined> {
    await this.ready();
    return this.choice.cycleThinking();
  }

  async setSteeringMode(mode: QueueMode): Promise<void> {
    this.queues.steering.mode = mode;
    this.patchState({ steeringMode: mode });
  }

  async setFollowUpMode(mode: QueueMode): Promise<void> {
    this.queues.followUps.mode = mode;
    this.patchState({ followUpMode: mode });
  }

  // ── reading ─────────────────────────────────────────────────────────────────────────────────

  state(): SessionState {
    return sessionState(this.deps.store, {
      model: this.choice.model,
      thinkingLevel: this.choice.thinkingLevel,
      isStreaming: this.runs.busy,
      isCompacting: this.compaction.running,
      queues: this.queues,
      autoCompactionEnabled: this.saved.autoCompaction,
    });
  }

  messages(): AgentMessage[] {
    return this.deps.store.api.current() === undefined ? [] : this.contextMessages();
  }

  entries() {
    return this.deps.store.api.entries();
  }

  tree() {
    return this.deps.store.api.tree();
  }

  lastAssistantText(): string | undefined {
    const last = lastAssistant(this.messages());
    return last && messageText(last);
  }

  stats(): SessionStats {
    return sessionStats(this.deps.store, this.choice.model);
  }
}
