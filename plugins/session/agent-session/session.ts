/**
 * The orchestrator behind `agent/session`. It turns a prompt into a run of loop turns, persists every
 * message as it ends, retries transient failures, compacts when the context fills up (and once more on
 * overflow, then retries), and publishes every event on the kernel bus. Everything it uses — loop,
 * providers, tools, store, compactor, models, keys, prompt sources — it reaches through contract handles.
 */
import type { AfterToolCallResult, AgentEvent, AgentLoop, AgentMessage, LoopHooks, TurnConfig } from "pi-host";
import { runAgent, convertToLlm } from "pi-host";
import { SESSION_EVENT, type AgentSession, type SessionEvent, type SessionState, type SessionStats } from "pi-host";
import {
  DEFAULT_RETRY,
  estimateContextTokens,
  usageTokens,
  isContextOverflow,
  isTransientStatus,
  retryAfterMsOf,
  retryDelayMs,
  exceedsRetryLimit,
  DEFAULT_PROVIDER_RETRY,
  sleep,
  type AssistantMessage,
  type AssistantStream,
  type Llm,
  type Context,
  type ImageContent,
  type Model,
  type ModelCatalog,
  type RetryPolicy,
  type StreamOptions,
  type ThinkingLevel,
  type UserMessage,
} from "pi-host";
import type { SlashCommand } from "pi-host";
import type { AgentHooks } from "pi-host";
import { fillTemplate, type ResourceSource, type Settings, type SettingsStore } from "pi-host";
import {
  DEFAULT_COMPACTION,
  type CompactionResult,
  type CompactionSettings,
  type SessionCompactor,
  type SessionInfo,
  type SessionStore,
} from "pi-host";
import { createFileLocks, type AgentTool, type ToolSource } from "pi-host";
import type { Handle, ManyHandle, PluginContext } from "pi-host";
import { MessageQueue, type QueueMode } from "./queue.js";
import { buildSystemPrompt } from "./system-prompt.js";

/** Per-invocation choices: the plugin's config with the host's run flags (CLI flags, SDK options) over it. */
export interface SessionConfig {
  cwd?: string;
  sessionDir?: string;
  /** "new" (default), "continue", "none" (in memory), or a session file to open. */
  session?: string;
  model?: string;
  provider?: string;
  thinking?: ThinkingLevel;
  /** Allowed tool names; undefined = every enabled tool, [] = none. */
  tools?: string[];
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
  settings: Handle<SettingsStore>;
  hooks: ManyHandle<AgentHooks>;
  toolSources: ManyHandle<ToolSource>;
  commands: ManyHandle<SlashCommand>;
}

const THINKING_LEVELS: ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh"];

/** The orchestrator. One per plugin generation; its lasting state lives in the plugin state. */
export class SessionOrchestrator implements AgentSession {
  private readonly steering = new MessageQueue("one-at-a-time");
  private readonly followUps = new MessageQueue("one-at-a-time");
  private readonly locks = createFileLocks();
  private readying: Promise<void> | undefined;
  private model: Model | undefined;
  private thinkingLevel: ThinkingLevel = "off";
  private settings: Settings = {};
  private running: Promise<void> | undefined;
  private compacting = false;
  private abortController: AbortController | undefined;
  private retryAbort: AbortController | undefined;

  constructor(private readonly deps: SessionDeps) {}

  /** The run's choices: read when needed, since the host's handle answers only once the boot has committed. */
  private get config(): SessionConfig {
    return this.deps.config();
  }

  private get workdir(): string {
    return this.config.cwd ?? process.cwd();
  }

  cwd(): string {
    return this.workdir;
  }

  private get saved(): SessionPluginState {
    return this.deps.ctx.getState();
  }

  private patchState(patch: Partial<SessionPluginState>): void {
    this.deps.ctx.setState({ ...this.saved, ...patch });
  }

  private emit(event: SessionEvent): void {
    this.deps.ctx.emit(SESSION_EVENT, event);
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
    const { config } = this;
    const { store, settings } = this.deps;
    this.settings = settings.available ? await settings.api.get(this.workdir) : {};
    this.steering.mode = this.saved.steeringMode ?? (this.settings.steeringMode as QueueMode) ?? "one-at-a-time";
    this.followUps.mode = this.saved.followUpMode ?? (this.settings.followUpMode as QueueMode) ?? "one-at-a-time";

    const open = store.api.current();
    if (!(open && this.saved.sessionPath !== undefined && open.path === this.saved.sessionPath)) {
      const options = { cwd: this.workdir, sessionDir: config.sessionDir };
      const choice = config.session ?? "new";
      let info: SessionInfo;
      if (this.saved.sessionPath !== undefined) info = await this.openReporting(this.saved.sessionPath);
      else if (choice === "none") info = await store.api.newSession({ ...options, inMemory: true });
      else if (choice === "continue") info = await store.api.continueRecent(options);
      else if (choice === "new") info = await store.api.newSession(options);
      else info = await this.openReporting(choice);
      this.patchState({ sessionPath: info.path });
      this.emit({
        type: "session_change",
        session: info,
        reason: choice === "new" || choice === "none" ? "new" : "open",
      });
    }
    await this.pickModel();
  }

  private async openReporting(path: string): Promise<SessionInfo> {
    const report = await this.deps.store.api.open(path);
    if (report.setAside) {
      this.emit({
        type: "notice",
        level: "warning",
        message: `${report.setAside.lines} damaged line(s) of ${path} were set aside in ${report.setAside.file}`,
      });
    }
    for (const problem of report.problems ?? []) this.emit({ type: "notice", level: "warning", message: problem });
    return report;
  }

  /** Model: this plugin's state > the session's last model > --model > settings > nothing yet. */
  private async pickModel(): Promise<void> {
    const { models, store } = this.deps;
    const context = store.api.buildContext();
    const fromState =
      this.saved.provider && this.saved.modelId ? models.api.find(this.saved.provider, this.saved.modelId) : undefined;
    let model = fromState;
    let thinking = this.saved.thinkingLevel;
    if (model === undefined && this.config.model !== undefined) {
      const resolved = models.api.resolve(this.config.model, this.config.provider);
      model = resolved.model;
      thinking ??= resolved.thinking;
    }
    if (model === undefined && context.model) model = models.api.find(context.model.provider, context.model.modelId);
    if (model === undefined && typeof this.settings.defaultModel === "string") {
      model = models.api.resolve(
        this.settings.defaultModel,
        (this.settings.defaultProvider as string | undefined) ?? this.config.provider,
      ).model;
    }
    thinking ??=
      this.config.thinking ??
      context.thinkingLevel ??
      (this.settings.defaultThinkingLevel as ThinkingLevel | undefined) ??
      "medium";
    if (model !== undefined)
      this.applyModel(
        model,
        thinking,
        context.model?.provider !== model.provider || context.model?.modelId !== model.id,
      );
  }

  private applyModel(model: Model, thinking: ThinkingLevel, record: boolean): void {
    const level = model.reasoning ? thinking : "off";
    const changedLevel = level !== this.thinkingLevel;
    const hadModel = this.model !== undefined;
    this.model = model;
    this.thinkingLevel = level;
    this.patchState({ provider: model.provider, modelId: model.id, thinkingLevel: level });
    if (record) this.deps.store.api.appendModelChange(model.provider, model.id);
    if (record || changedLevel) this.deps.store.api.appendThinkingLevelChange(level);
    this.emit({ type: "model_change", model, thinkingLevel: level });
    if (changedLevel && hadModel) this.emit({ type: "thinking_level_changed", level });
  }

  // ── prompting ───────────────────────────────────────────────────────────────────────────────

  async prompt(
    text: string,
    options: { images?: ImageContent[]; streamingBehavior?: "steer" | "followUp" } = {},
  ): Promise<void> {
    await this.ready();
    if (this.running !== undefined) {
      if (options.streamingBehavior === "steer") return this.steer(text, options.images);
      if (options.streamingBehavior === "followUp") return this.followUp(text, options.images);
      throw new Error(
        "the agent is already working; send the message as steering or a follow-up, or wait until it is done",
      );
    }
    // Claim the session before the first await, so a second prompt arriving meanwhile is refused.
    const release = this.claim();
    try {
      let input = text;
      for (const h of this.hookProviders("beforePrompt")) {
        const change = await h.api.beforePrompt({ text: input });
        if (change?.handled) return;
        input = change?.text ?? input;
      }
      const command = /^\/([\w:.-]+)(?:\s+([\s\S]*))?$/.exec(input.trim());
      const handler = command && this.deps.commands.list().find((h) => h.peek()?.name === command[1]);
      if (command && handler) {
        release();
        return await handler.api.run(command[2] ?? "");
      }
      // Only a model turn needs a model: a `/command` or an input hook above runs without one, as in pi.
      if (this.model === undefined) {
        throw new Error(
          'no model selected; pass --model provider/id, or set "defaultProvider" and "defaultModel" in settings.json',
        );
      }
      const expanded = await this.expand(input);
      // Released before agent_settled goes out, so a client that prompts again on it is not refused.
      let aborted = false;
      try {
        aborted = await this.run([userMessage(expanded, options.images)]);
      } finally {
        release();
        this.emit({ type: "agent_settled", aborted });
      }
    } finally {
      release();
    }
  }

  /** Marks a run as going on; the returned function ends it and wakes whoever waits for idle. */
  private claim(): () => void {
    let finish!: () => void;
    const running = new Promise<void>((resolve) => (finish = resolve));
    this.running = running;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (this.running === running) this.running = undefined;
      finish();
    };
  }

  async steer(text: string, images?: ImageContent[]): Promise<void> {
    this.steering.push(userMessage(await this.expand(text), images));
    this.emitQueue();
  }

  async followUp(text: string, images?: ImageContent[]): Promise<void> {
    this.followUps.push(userMessage(await this.expand(text), images));
    this.emitQueue();
  }

  async abort(): Promise<void> {
    this.retryAbort?.abort();
    this.abortController?.abort();
    const dropped = this.steering.clear().length + this.followUps.clear().length;
    if (dropped > 0) this.emitQueue();
    await this.running;
  }

  async clearQueue(): Promise<{ steering: string[]; followUp: string[] }> {
    const cleared = { steering: this.steering.texts(), followUp: this.followUps.texts() };
    if (this.steering.clear().length + this.followUps.clear().length > 0) this.emitQueue();
    return cleared;
  }

  async idle(): Promise<void> {
    while (this.running !== undefined) await this.running;
  }

  private emitQueue(): void {
    this.emit({ type: "queue_update", steering: this.steering.texts(), followUp: this.followUps.texts() });
  }

  /** `/skill:name args` and `/template args` expand through the prompt sources; other text is kept. */
  private async expand(text: string): Promise<string> {
    const match = /^\/(skill:)?([\w.-]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
    if (match === null || !this.deps.resources.list().length) return text;
    const [, skillPrefix, name, args = ""] = match;
    const sources = this.deps.resources.list();
    if (skillPrefix) {
      for (const source of sources) {
        const skill = (await source.api.skills(this.workdir)).find((s) => s.name === name);
        if (skill) {
          const { readFile } = await import("node:fs/promises");
          const body = await readFile(skill.path, "utf8");
          return `<skill name="${skill.name}" location="${skill.path}">\n${body.trim()}\n</skill>${args ? `\n\n${args}` : ""}`;
        }
      }
      throw new Error(`unknown skill "${name}"; list skills with /skills or check SKILL.md frontmatter`);
    }
    for (const source of sources) {
      const template = (await source.api.templates(this.workdir)).find((t) => t.name === name);
      if (template) return fillTemplate(template.body, args);
    }
    return text;
  }

  /**
   * Runs turns for `prompts` (the session is already claimed), then retries transient failures and
   * compacts as the settings say; resolves with whether the run was aborted.
   */
  private async run(prompts: AgentMessage[]): Promise<boolean> {
    this.abortController = new AbortController();
    this.promptCache = undefined;
    const retry = this.retryPolicy();
    let attempt = 0;
    let overflowCompacted = false;
    try {
      let pending = prompts;
      for (;;) {
        const added = await runAgent(this.deps.loop, pending, this.contextMessages(), () => this.turnConfig());
        pending = [];
        const last = [...added].reverse().find((m): m is AssistantMessage => m.role === "assistant");
        if (last === undefined || last.stopReason !== "error") break;
        if (this.abortController.signal.aborted) break;
        if (!overflowCompacted && this.compactionOn() && isContextOverflow(last, this.model?.contextWindow)) {
          overflowCompacted = true;
          const result = await this.compactNow("overflow", undefined, true);
          if (result !== undefined) continue;
          break;
        }
        // The server's own wait (Retry-After), when it gave one: longer than the limit means give up now;
        // the provider's error message already says so in one line.
        const serverWaitMs = retryAfterMsOf(last);
        if (
          retry.enabled &&
          this.saved.autoRetry &&
          isRetryable(last) &&
          attempt < retry.maxRetries &&
          !exceedsRetryLimit(serverWaitMs, retry)
        ) {
          attempt++;
          const delayMs = serverWaitMs ?? retryDelayMs(attempt - 1, retry);
          this.emit({
            type: "auto_retry_start",
            attempt,
            maxAttempts: retry.maxRetries,
            delayMs,
            errorMessage: last.errorMessage ?? "",
          });
          this.retryAbort = new AbortController();
          try {
            await sleep(delayMs, this.retryAbort.signal);
          } catch {
            this.emit({ type: "auto_retry_end", success: false, attempt, finalError: "retry cancelled" });
            break;
          }
          continue;
        }
        if (attempt > 0) this.emit({ type: "auto_retry_end", success: false, attempt, finalError: last.errorMessage });
        attempt = 0;
        break;
      }
      if (attempt > 0) this.emit({ type: "auto_retry_end", success: true, attempt });
      if (this.compactionOn() && !this.abortController.signal.aborted) await this.compactIfFull();
      return this.abortController.signal.aborted;
    } finally {
      this.abortController = undefined;
      this.retryAbort = undefined;
    }
  }

  /**
   * The session's retry: the one layer that counts retries (settings `retry`: enabled, maxRetries,
   * baseDelayMs, maxDelayMs — pi's docs also call the last one maxAgentDelayMs).
   */
  private retryPolicy(): RetryPolicy {
    const r = (this.settings.retry ?? {}) as Partial<RetryPolicy> & { maxAgentDelayMs?: number };
    const number = (value: unknown, fallback: number): number =>
      typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : fallback;
    return {
      enabled: r.enabled !== false,
      maxRetries: number(r.maxRetries, DEFAULT_RETRY.maxRetries),
      baseDelayMs: number(r.baseDelayMs, DEFAULT_RETRY.baseDelayMs),
      maxDelayMs: number(r.maxDelayMs ?? r.maxAgentDelayMs, DEFAULT_RETRY.maxDelayMs),
    };
  }

  /**
   * What a provider may do on its own: no retries unless `retry.provider.maxRetries` asks for them (pi's
   * default is 0), so one failing prompt makes 1 + retry.maxRetries requests, not a product of two counts.
   * Its `maxDelayMs` is the longest server-requested wait accepted (`retry.provider.maxRetryDelayMs`).
   */
  private providerRetryPolicy(): RetryPolicy {
    const session = this.retryPolicy();
    const provider = ((this.settings.retry as { provider?: Record<string, unknown> } | undefined)?.provider ??
      {}) as Record<string, unknown>;
    const number = (value: unknown): number | undefined =>
      typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
    return {
      enabled: session.enabled && this.saved.autoRetry,
      maxRetries: number(provider.maxRetries) ?? DEFAULT_PROVIDER_RETRY.maxRetries,
      baseDelayMs: session.baseDelayMs,
      maxDelayMs: Math.min(number(provider.maxRetryDelayMs) ?? session.maxDelayMs, session.maxDelayMs),
    };
  }

  /** Stall timeouts from settings: `httpIdleTimeoutMs` (pi's, default 300 000; 0 or "disabled" turns it off), `retry.provider.timeoutMs`. */
  private streamTimeouts(): Pick<StreamOptions, "firstByteTimeoutMs" | "idleTimeoutMs"> {
    const idle = this.settings.httpIdleTimeoutMs;
    const idleTimeoutMs =
      idle === "disabled" ? 0 : typeof idle === "number" && Number.isFinite(idle) && idle >= 0 ? idle : undefined;
    const provider = (this.settings.retry as { provider?: { timeoutMs?: unknown } } | undefined)?.provider;
    const firstByte = provider?.timeoutMs;
    const firstByteTimeoutMs =
      typeof firstByte === "number" && Number.isFinite(firstByte) && firstByte >= 0 ? firstByte : idleTimeoutMs;
    return {
      ...(idleTimeoutMs !== undefined && { idleTimeoutMs }),
      ...(firstByteTimeoutMs !== undefined && { firstByteTimeoutMs }),
    };
  }

  /** The transcript the next run starts from: the session's context, leaf to root. */
  private contextMessages(): AgentMessage[] {
    return this.deps.store.api.buildContext().messages;
  }

  /** Snapshot for one turn: model, prompt, tools and options in force as it starts. */
  private async turnConfig(): Promise<TurnConfig> {
    const model = this.model!;
    const tools = await this.activeTools();
    return {
      model,
      systemPrompt: await this.systemPrompt(tools),
      tools,
      stream: (m, context, options) => this.stream(m, context, options),
      streamOptions: {
        reasoning: this.thinkingLevel,
        thinkingBudgets: this.settings.thinkingBudgets as StreamOptions["thinkingBudgets"],
        sessionId: this.deps.store.api.current()?.id,
        retry: this.providerRetryPolicy(),
        ...this.streamTimeouts(),
      },
      toolContext: { cwd: this.workdir, withFileLock: this.locks, activeToolNames: tools.map((t) => t.name) },
      hooks: this.hooks(),
      takeSteering: () => this.takeFrom(this.steering),
      takeFollowUps: () => this.takeFrom(this.followUps),
      emit: (event) => this.onAgentEvent(event),
      signal: this.abortController?.signal,
    };
  }

  private takeFrom(queue: MessageQueue): AgentMessage[] {
    const taken = queue.take();
    if (taken.length > 0) this.emitQueue();
    return taken;
  }

  /** The hook providers that implement `name`, in distribution order. */
  private hookProviders(name: keyof AgentHooks): Array<Handle<AgentHooks>> {
    return this.deps.hooks.list().filter((h) => typeof h.peek()?.[name] === "function");
  }

  /**
   * The loop's hooks, composed from every hooks provider: the first block wins; rewrites of the
   * transcript, the request and a tool result apply in order, each seeing the previous one's output.
   */
  private hooks(): LoopHooks {
    return {
      convertToLlm: (messages) => convertToLlm(messages),
      transformContext: async (messages, signal) => {
        let current = messages;
        for (const h of this.hookProviders("transformContext"))
          current = (await h.api.transformContext(current, signal)) ?? current;
        return current;
      },
      prepareRequest: async (request) => {
        let current = request;
        for (const h of this.hookProviders("prepareRequest"))
          current = (await h.api.prepareRequest(current)) ?? current;
        return current;
      },
      beforeToolCall: async (call, signal) => {
        for (const h of this.hookProviders("beforeToolCall")) {
          const verdict = await h.api.beforeToolCall(call, signal);
          if (verdict?.block) return verdict;
        }
        return undefined;
      },
      afterToolCall: async (call, signal) => {
        let merged: AfterToolCallResult | undefined;
        let result = call.result;
        let isError = call.isError;
        for (const h of this.hookProviders("afterToolCall")) {
          const change = await h.api.afterToolCall({ ...call, result, isError }, signal);
          if (change === undefined) continue;
          merged = { ...merged, ...change };
          result = {
            ...result,
            ...(change.content !== undefined && { content: change.content }),
            ...(change.details !== undefined && { details: change.details }),
          };
          isError = change.isError ?? isError;
        }
        return merged;
      },
    };
  }

  /** Every message is saved as it ends; every event goes out on the bus. */
  private onAgentEvent(event: AgentEvent): void {
    if (event.type === "message_end") this.deps.store.api.appendMessage(event.message);
    this.emit(event);
  }

  /**
   * The enabled tools, filtered by the allow-list: tool plugins first, then tools listed by tool sources
   * (MCP servers, extensions). Each call goes through a stable handle, so a tool edited mid-session serves
   * the next call while a running call finishes on its old code. A name already taken is skipped.
   */
  private async activeTools(): Promise<AgentTool<any, any>[]> {
    const allowed = this.config.tools;
    const tools: AgentTool<any, any>[] = [];
    const add = (spec: Omit<AgentTool<any, any>, "execute">, execute: AgentTool<any, any>["execute"]): void => {
      if ((allowed !== undefined && !allowed.includes(spec.name)) || tools.some((t) => t.name === spec.name)) return;
      const { name, label, description, parameters, guidelines, executionMode, prepareArguments } = spec;
      tools.push({ name, label, description, parameters, guidelines, executionMode, prepareArguments, execute });
    };
    for (const handle of this.deps.tools.list()) {
      const tool = handle.peek();
      if (tool !== undefined) add(tool, (...args) => handle.api.execute(...args));
    }
    for (const source of this.deps.toolSources.list()) {
      const listed = await source.api.listTools(this.workdir, allowed).catch((error: unknown) => {
        this.emit({
          type: "notice",
          level: "warning",
          message: `a tool source failed to list its tools: ${(error as Error).message}`,
        });
        return [];
      });
      for (const spec of listed) add(spec, (...args) => source.api.executeTool(spec.name, ...args));
    }
    return tools;
  }

  /**
   * The system prompt, built once per run and again only when the run's tool set changes: prompt
   * sources read context files and skill folders, which a run does not need to re-read every turn
   * (a new run, or /reload, picks up edits).
   */
  private async systemPrompt(tools: AgentTool<any, any>[]): Promise<string> {
    const key = tools.map((t) => t.name).join("\n");
    if (this.promptCache?.key === key) return this.promptCache.prompt;
    const prompt = await this.buildPrompt(tools);
    this.promptCache = { key, prompt };
    return prompt;
  }

  private promptCache: { key: string; prompt: string } | undefined;

  private async buildPrompt(tools: AgentTool<any, any>[]): Promise<string> {
    const { config } = this;
    return buildSystemPrompt(this.deps.resources.list(), {
      cwd: this.workdir,
      tools: tools.map((t) => ({ name: t.name, description: t.description, guidelines: t.guidelines })),
      systemPromptOverride: config.systemPrompt,
      appendSystemPrompt: config.appendSystemPrompt,
      skills: [],
      now: new Date(),
    });
  }

  /** Streams through the LLM router; never throws (failures are the stream's `error` event). */
  private stream(model: Model, context: Context, options: StreamOptions): AssistantStream {
    return this.deps.llm.api.stream(model, context, options);
  }

  // ── compaction ──────────────────────────────────────────────────────────────────────────────

  /** Auto-compaction is on when both the session toggle and the `compaction.enabled` setting allow it. */
  private compactionOn(): boolean {
    return this.saved.autoCompaction && this.compactionSettings().enabled;
  }

  private compactionSettings(): CompactionSettings {
    return { ...DEFAULT_COMPACTION, ...((this.settings.compaction ?? {}) as Partial<CompactionSettings>) };
  }

  private async compactIfFull(): Promise<void> {
    const { compactor } = this.deps;
    if (!compactor.available || this.model === undefined) return;
    const tokens = contextTokens(this.contextMessages());
    if (compactor.api.shouldCompact(tokens, this.model.contextWindow, this.compactionSettings()))
      await this.compactNow("threshold");
  }

  /** Compacts once the current run (if any) has finished, including its own retries and compaction. */
  async compact(instructions?: string): Promise<CompactionResult | undefined> {
    await this.ready();
    await this.idle();
    const release = this.claim();
    try {
      return await this.compactNow("manual", instructions);
    } finally {
      release();
    }
  }

  /** Summarizes the older part of the session and appends the compaction entry; reports as events. */
  private async compactNow(
    reason: "manual" | "threshold" | "overflow",
    instructions?: string,
    willRetry = false,
  ): Promise<CompactionResult | undefined> {
    const { compactor, store } = this.deps;
    if (!compactor.available) throw new Error("no compaction plugin is enabled; add one to plugins.json");
    this.compacting = true;
    this.emit({ type: "compaction_start", reason });
    const signal = this.abortController?.signal;
    try {
      const result = await compactor.api.compact(store.api.path(), this.compactionSettings(), this.summaryModel(), {
        instructions,
        signal,
      });
      if (result !== undefined)
        store.api.appendCompaction(result.summary, result.firstKeptEntryId, result.tokensBefore, result.details);
      this.emit({
        type: "compaction_end",
        reason,
        result: result ?? null,
        aborted: false,
        willRetry: willRetry && result !== undefined,
      });
      return result;
    } catch (error) {
      const aborted = signal?.aborted === true;
      this.emit({
        type: "compaction_end",
        reason,
        result: null,
        aborted,
        willRetry: false,
        errorMessage: aborted ? undefined : (error as Error).message,
      });
      if (reason === "manual" && !aborted) throw error;
      return undefined;
    } finally {
      this.compacting = false;
    }
  }

  /** The model that writes summaries: the session's current one. */
  private summaryModel(): Model {
    if (this.model === undefined) throw new Error("no model selected to write the summary");
    return this.model;
  }

  async setAutoCompaction(enabled: boolean): Promise<void> {
    this.patchState({ autoCompaction: enabled });
  }

  async setAutoRetry(enabled: boolean): Promise<void> {
    this.patchState({ autoRetry: enabled });
  }

  async abortRetry(): Promise<void> {
    this.retryAbort?.abort();
  }

  // ── sessions and the tree ───────────────────────────────────────────────────────────────────

  private async whenIdle(what: string): Promise<void> {
    await this.ready();
    if (this.running !== undefined) throw new Error(`the agent is working; ${what} when it is done, or abort it first`);
  }

  async newSession(options: { parentSession?: string } = {}): Promise<SessionInfo | undefined> {
    await this.whenIdle("start a new session");
    const current = this.deps.store.api.current();
    const info = await this.deps.store.api.newSession({
      cwd: this.workdir,
      sessionDir: this.config.sessionDir,
      inMemory: current !== undefined && current.path === undefined,
      parentSession: options.parentSession,
    });
    this.patchState({ sessionPath: info.path });
    if (this.model) this.applyModel(this.model, this.thinkingLevel, true);
    this.emit({ type: "session_change", session: info, reason: "new" });
    return info;
  }

  async switchSession(path: string): Promise<SessionInfo | undefined> {
    await this.whenIdle("switch sessions");
    const info = await this.openReporting(path);
    this.patchState({ sessionPath: info.path, provider: undefined, modelId: undefined, thinkingLevel: undefined });
    await this.pickModel();
    this.emit({ type: "session_change", session: info, reason: "switch" });
    return info;
  }

  async fork(entryId: string): Promise<{ text: string; session: SessionInfo | undefined }> {
    await this.whenIdle("fork");
    const { store } = this.deps;
    const entry = store.api.entry(entryId);
    if (entry === undefined || entry.type !== "message" || entry.message.role !== "user") {
      throw new Error(`entry ${entryId} is not a user message; pick one from get_fork_messages`);
    }
    const text = messageText(entry.message);
    const info =
      entry.parentId === null
        ? await this.newSession({ parentSession: store.api.current()?.path })
        : await store.api.fork(entry.parentId);
    this.patchState({ sessionPath: info?.path });
    this.emit({ type: "session_change", session: info, reason: "fork" });
    return { text, session: info };
  }

  async clone(): Promise<SessionInfo | undefined> {
    await this.whenIdle("clone the session");
    const info = await this.deps.store.api.fork();
    this.patchState({ sessionPath: info.path });
    this.emit({ type: "session_change", session: info, reason: "fork" });
    return info;
  }

  async recordMessage(message: AgentMessage): Promise<void> {
    await this.ready();
    await this.idle();
    this.deps.store.api.appendMessage(message);
    this.emit({ type: "message_start", message });
    this.emit({ type: "message_end", message });
  }

  forkPoints(): Array<{ entryId: string; text: string }> {
    return this.deps.store.api
      .path()
      .filter((e) => e.type === "message" && e.message.role === "user")
      .map((e) => ({ entryId: e.id, text: messageText((e as { message: AgentMessage }).message) }));
  }

  async setSessionName(name: string): Promise<void> {
    await this.ready();
    const trimmed = name.trim();
    if (trimmed === "") throw new Error("a session name cannot be empty");
    this.deps.store.api.appendSessionInfo(trimmed);
    this.emit({ type: "session_info_changed", name: trimmed });
  }

  async navigateTree(entryId: string, options: { summarize?: boolean; instructions?: string } = {}): Promise<void> {
    await this.whenIdle("move in the tree");
    const { store, compactor } = this.deps;
    if (store.api.entry(entryId) === undefined) throw new Error(`no entry ${entryId} in this session`);
    const oldLeaf = store.api.leafId();
    if (options.summarize && oldLeaf !== null && compactor.available) {
      const target = new Set(store.api.path(entryId).map((e) => e.id));
      const leaving = store.api.path(oldLeaf).filter((e) => !target.has(e.id));
      const summary = await compactor.api.summarizeBranch(leaving, this.summaryModel(), {
        instructions: options.instructions,
      });
      store.api.branch(entryId);
      if (summary !== undefined) store.api.appendBranchSummary(oldLeaf, summary.summary, summary.details);
      return;
    }
    store.api.branch(entryId);
  }

  // ── model and thinking ──────────────────────────────────────────────────────────────────────

  async setModel(provider: string, modelId: string): Promise<Model> {
    await this.ready();
    const model = this.deps.models.api.find(provider, modelId);
    if (model === undefined) return this.deps.models.api.resolve(`${provider}/${modelId}`).model;
    this.applyModel(model, this.thinkingLevel === "off" ? "medium" : this.thinkingLevel, true);
    return model;
  }

  async cycleModel(
    direction: "forward" | "backward" = "forward",
  ): Promise<{ model: Model; thinkingLevel: ThinkingLevel } | undefined> {
    const models = await this.availableModels();
    if (models.length === 0) return undefined;
    const index = this.model
      ? models.findIndex((m) => m.provider === this.model!.provider && m.id === this.model!.id)
      : -1;
    const next = models[(index + (direction === "forward" ? 1 : models.length - 1) + models.length) % models.length]!;
    this.applyModel(next, this.thinkingLevel === "off" ? "medium" : this.thinkingLevel, true);
    return { model: next, thinkingLevel: this.thinkingLevel };
  }

  /** Models whose provider has a key (or needs none). */
  async availableModels(): Promise<Model[]> {
    await this.ready();
    return this.deps.llm.api.available();
  }

  async setThinkingLevel(level: ThinkingLevel): Promise<void> {
    await this.ready();
    if (!THINKING_LEVELS.includes(level))
      throw new Error(`unknown thinking level "${level}"; use one of ${THINKING_LEVELS.join(", ")}`);
    if (this.model === undefined) throw new Error("no model selected");
    this.applyModel(this.model, level, false);
  }

  async cycleThinkingLevel(): Promise<ThinkingLevel | undefined> {
    await this.ready();
    if (this.model === undefined || !this.model.reasoning) return undefined;
    const next = THINKING_LEVELS[(THINKING_LEVELS.indexOf(this.thinkingLevel) + 1) % THINKING_LEVELS.length]!;
    this.applyModel(this.model, next, false);
    return next;
  }

  async setSteeringMode(mode: QueueMode): Promise<void> {
    this.steering.mode = mode;
    this.patchState({ steeringMode: mode });
  }

  async setFollowUpMode(mode: QueueMode): Promise<void> {
    this.followUps.mode = mode;
    this.patchState({ followUpMode: mode });
  }

  // ── reading ─────────────────────────────────────────────────────────────────────────────────

  state(): SessionState {
    const info = this.deps.store.api.current();
    return {
      model: this.model ?? null,
      thinkingLevel: this.thinkingLevel,
      isStreaming: this.running !== undefined,
      isCompacting: this.compacting,
      steeringMode: this.steering.mode,
      followUpMode: this.followUps.mode,
      sessionFile: info?.path,
      sessionId: info?.id,
      ...(info?.name !== undefined && { sessionName: info.name }),
      autoCompactionEnabled: this.saved.autoCompaction,
      messageCount: info === undefined ? 0 : this.contextMessages().length,
      pendingMessageCount: this.steering.length + this.followUps.length,
    };
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
    const last = [...this.messages()].reverse().find((m): m is AssistantMessage => m.role === "assistant");
    return last?.content.map((b) => (b.type === "text" ? b.text : "")).join("");
  }

  stats(): SessionStats {
    const info = this.deps.store.api.current();
    const path = info === undefined ? [] : this.deps.store.api.path();
    const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 };
    let cost = 0;
    const counts = { user: 0, assistant: 0, toolCalls: 0, toolResults: 0, total: 0 };
    for (const entry of path) {
      if (entry.type !== "message") continue;
      const m = entry.message;
      counts.total++;
      if (m.role === "user") counts.user++;
      else if (m.role === "toolResult") counts.toolResults++;
      else if (m.role === "assistant") {
        const a = m as AssistantMessage;
        counts.assistant++;
        counts.toolCalls += a.content.filter((b) => b.type === "toolCall").length;
        tokens.input += a.usage.input;
        tokens.output += a.usage.output;
        tokens.cacheRead += a.usage.cacheRead;
        tokens.cacheWrite += a.usage.cacheWrite;
        cost += a.usage.cost.total;
      }
    }
    tokens.total = tokens.input + tokens.output + tokens.cacheRead + tokens.cacheWrite;
    const stats: SessionStats = {
      sessionFile: info?.path,
      sessionId: info?.id,
      userMessages: counts.user,
      assistantMessages: counts.assistant,
      toolCalls: counts.toolCalls,
      toolResults: counts.toolResults,
      totalMessages: counts.total,
      tokens,
      cost,
    };
    if (this.model !== undefined && info !== undefined) {
      const used = contextTokens(this.contextMessages());
      stats.contextUsage = {
        tokens: used,
        contextWindow: this.model.contextWindow,
        percent: Math.round((used / this.model.contextWindow) * 1000) / 10,
      };
    }
    return stats;
  }
}

/**
 * The context's size in tokens: the last answered request's usage plus an estimate of what came after.
 * Only that tail is converted, so a 20,000-message session costs what its last turn costs.
 */
function contextTokens(messages: readonly AgentMessage[]): number {
  let anchor = messages.length;
  while (anchor > 0) {
    const m = messages[anchor - 1]!;
    if (
      m.role === "assistant" &&
      (m as AssistantMessage).stopReason !== "error" &&
      (m as AssistantMessage).stopReason !== "aborted" &&
      usageTokens((m as AssistantMessage).usage) > 0
    )
      break;
    anchor--;
  }
  return estimateContextTokens(convertToLlm(messages.slice(Math.max(0, anchor - 1)))).tokens;
}

function userMessage(text: string, images?: ImageContent[]): UserMessage {
  return { role: "user", content: images?.length ? [{ type: "text", text }, ...images] : text, timestamp: Date.now() };
}

function messageText(message: AgentMessage): string {
  const content = (message as { content?: unknown }).content;
  if (typeof content === "string") return content;
  return Array.isArray(content)
    ? content.map((b: { type: string; text?: string }) => (b.type === "text" ? b.text : "")).join("")
    : "";
}

/** Whether an errored answer is worth another run: rate limits, overload, server errors, dropped connections. */
function isRetryable(message: AssistantMessage): boolean {
  const text = message.errorMessage ?? "";
  const status = /\b(4\d\d|5\d\d)\b/.exec(text)?.[1];
  if (status !== undefined) return isTransientStatus(Number(status));
  return /overloaded|rate.?limit|too many requests|temporarily unavailable|connection|socket|terminated|timed? ?out|stalled|ECONNRESET|fetch failed/i.test(
    text,
  );
}
