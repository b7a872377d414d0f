/**
 * The extension runtime of one plugin generation: the loaded extensions and what they registered, the
 * handles they act through, and the dispatch of pi's events to their handlers. Loading is lazy — the
 * first tool listing, hook call or prompt loads every extension (setup may do no I/O) — and happens once.
 *
 * Handler errors follow pi: they are reported (a `notice` on the session's event bus, which print and
 * JSON modes write to stderr) and the other handlers still run.
 */
import { resolve } from "node:path";
import { SESSION_EVENT, type AgentSession, type SessionEvent, type SessionState } from "pi-host";
import type { Llm, AssistantStream, AuthStore, Context, Model, ModelCatalog, StreamOptions } from "pi-host";
import type { ResourceSource, SettingsStore } from "pi-host";
import { agentDir as agentFolder, projectFilesApply, readHostEnvironment, type HostEnvironmentProvider } from "pi-host";
import type { SessionStore } from "pi-host";
import { coerceFlag, effectiveExtensionsConfig } from "./run-choices.js";
import { createFileLocks, type AgentTool, type ToolContext } from "pi-host";
import { activeUi, type TuiApp, type UserInterface } from "pi-host";
import type { FlagOwner, Handle, ManyHandle, PluginContext } from "pi-host";
import { createExtensionApi } from "./api.js";
import { createCommandContext, createExtensionContext } from "./context.js";
import { MessageDelivery } from "./delivery.js";
import { ObserverQueue, SAVED_BEFORE_HANDLERS } from "./message-end.js";
import { discoverExtensions, type ExtensionLocation } from "./discover.js";
import { decideProjectTrust, ResourcePaths, untrustedProjectExtensions } from "./startup.js";
import { newExtension } from "./types.js";
import { createEventBus, type ExtensionEventBus } from "./event-bus.js";
import { lastCompaction, SessionEventTranslator, type PiEvent } from "./events.js";
import { ExtensionModuleLoader } from "./load.js";
import { UiPromptSpans } from "./ui-prompts.js";
import { ExtensionTui } from "./tui-ui.js";
import { KeyedProviders } from "./keyed-providers.js";
import { ProviderRegistrations } from "./providers.js";
import { describeResourceCommand, readResourceCommands, type ResourceCommand } from "./resource-commands.js";
import type {
  ExtensionCommandDefinition,
  ExtensionHandler,
  ExtensionToolDefinition,
  LoadedExtension,
} from "./types.js";

/** The plugin's config (see index.ts for each key's meaning). */
export interface PiExtensionsConfig {
  extensions: string[];
  packageExtensions: string[];
  commandLineExtensions: string[];
  noExtensions: boolean;
  agentDir?: string;
  flags: Record<string, string | boolean>;
}

/** The handles the runtime works through. */
export interface RuntimeServices {
  ctx: PluginContext<PiExtensionsConfig>;
  session: Handle<AgentSession>;
  store: Handle<SessionStore>;
  uis: ManyHandle<UserInterface>;
  settings: Handle<SettingsStore>;
  /** The host's facts; its project-trust decision says whether `.pi/extensions` loads. Absent: it does not. */
  host?: Handle<HostEnvironmentProvider>;
  models: Handle<ModelCatalog>;
  auth: Handle<AuthStore>;
  llm: Handle<Llm>;
  tools: ManyHandle<AgentTool<any, any>>;
  resources: ManyHandle<ResourceSource>;
  /** The terminal view, which draws extensions' components (absent: no TUI in this distribution). */
  app?: Handle<TuiApp>;
  /** Every plugin that takes flags (this one too); a flag another one takes is not this plugin's to refuse. */
  flagOwners?: ManyHandle<FlagOwner>;
}

/** A registered command under the name a prompt invokes it by (`name`, or `name:N` when names clash). */
export interface ResolvedCommand {
  invocationName: string;
  name: string;
  extension: LoadedExtension;
  definition: ExtensionCommandDefinition;
}

/** One generation's extensions and their world. */
export class ExtensionRuntime {
  readonly extensions: LoadedExtension[] = [];
  readonly delivery: MessageDelivery;
  /** `pi.events`, shared by all extensions of this generation. */
  readonly events: ExtensionEventBus;
  /** `pi.setActiveTools()`: the tools the model may see and call; undefined = all. */
  activeTools: Set<string> | undefined;
  /** Tools of the latest request (any source), for `pi.getAllTools()`. */
  lastRequestTools: Array<{ name: string; description: string; parameters: unknown }> = [];
  /** The system prompt the session built for the latest request, before extensions changed it. */
  baseSystemPrompt: string | undefined;
  /** True while a prompt is checked for commands and `input` handlers: claimed, but no run yet. */
  inPromptPhase = false;
  private loading: Promise<void> | undefined;
  /** Extensions have loaded: handlers can run. */
  private loaded = false;
  get isLoaded(): boolean {
    return this.loaded;
  }
  /** Which providers have keys, for `ctx.modelRegistry.getAvailable()`. */
  readonly keyedProviders: KeyedProviders;
  private translator: SessionEventTranslator | undefined;
  /** pi's notification events in order, off the agent's path (and `message_end`s run before a save). */
  readonly observerQueue = new ObserverQueue();
  private resourceCommands: ResourceCommand[] = [];
  private fileLock: ToolContext["withFileLock"] | undefined;
  private readonly ownLocks = createFileLocks();
  private modulesLoader: ExtensionModuleLoader | undefined;

  /** Open extension dialogs, for `ui_prompt_start` / `ui_prompt_end`. */
  /** Whether the project is trusted in this process (the host's decision, or a `project_trust` "yes"). */
  projectTrusted = false;
  /** `pi.registerMcpServer`, by name. */
  readonly mcpServers = new Map<string, Record<string, unknown>>();
  /** The effective settings as read when extensions loaded (`pi.getSettings()` is synchronous). */
  settingsSnapshot: Record<string, unknown> = {};
  /** Skill and template paths `resources_discover` handlers returned. */
  readonly resourcePaths = new ResourcePaths();
  readonly uiPrompts = new UiPromptSpans((event) => this.queue(event));
  /** Providers and virtual models extensions registered in the model catalog. */
  readonly providers = new ProviderRegistrations(this);
  /** Extensions' components and renderers in the TUI. */
  readonly tui: ExtensionTui;

  constructor(readonly services: RuntimeServices) {
    this.delivery = new MessageDelivery(this);
    this.tui = new ExtensionTui({
      app: services.app,
      extensions: this.extensions,
      cwd: () => this.cwd,
      report: (where, error) => this.report(undefined, where, error),
    });
    this.keyedProviders = new KeyedProviders(services.models, services.auth);
    this.events = createEventBus((channel, error) => this.report(undefined, `events "${channel}"`, error));
  }

  // ── where and what ──────────────────────────────────────────────────────────────────────────

  /**
   * The plugin's config with the host's run flags and package extensions applied (run-choices.ts); read
   * when needed, since the host's handle answers only once the boot has committed.
   */
  get config(): PiExtensionsConfig {
    return effectiveExtensionsConfig(this.services.ctx.config, readHostEnvironment(this.services.host));
  }

  /** The session's working folder. */
  get cwd(): string {
    return this.services.session.available ? this.services.session.api.cwd() : process.cwd();
  }

  /** pi's agent folder: config, else PI_CODING_AGENT_DIR, else ~/.pi/agent. */
  agentDir(): string {
    return agentFolder(this.config.agentDir);
  }

  /** The session's state, or undefined when no session plugin runs. */
  state(): SessionState | undefined {
    return this.services.session.available ? this.services.session.api.state() : undefined;
  }

  /** pi's `ctx.isIdle()`: no run is going on (a prompt being checked for commands does not count). */
  isIdle(): boolean {
    return this.inPromptPhase || this.state()?.isStreaming !== true;
  }

  /** The user interface of the running mode, or one that answers every dialog with its default. */
  ui(): UserInterface {
    return activeUi(this.services.uis);
  }

  /** pi's `ctx.mode`: the running mode whose user interface answers ("tui", "rpc"), else "print". */
  mode(): "tui" | "rpc" | "json" | "print" {
    // Slots are keyed `<pluginId>#<key>`; the mode's own key follows the "#".
    const slot = this.services.uis.list().find((h) => h.peek()?.hasUI() === true)?.key;
    const key = slot?.slice(slot.indexOf("#") + 1);
    if (key === "rpc") return "rpc";
    if (key !== undefined) return "tui";
    return "print";
  }

  /** pi's `ctx`. */
  context() {
    return createExtensionContext(this);
  }

  /** pi's `ExtensionCommandContext`, for command handlers. */
  commandContext() {
    return createCommandContext(this);
  }

  /** The system prompt as extensions see it: a `before_agent_start` handler's, else the latest request's, else the next one's. */
  systemPrompt(): string | undefined {
    return this.delivery.systemPromptOverride ?? this.baseSystemPrompt ?? this.nextSystemPrompt;
  }

  /** The prompt the first request will carry, asked of the session once a prompt holds it (`sessionInUse`). */
  private nextSystemPrompt: string | undefined;
  sessionInUse = false;
  async previewSystemPrompt(): Promise<void> {
    if (!this.sessionInUse || !this.services.session.available || this.systemPrompt() !== undefined) return;
    this.nextSystemPrompt = await this.services.session.api
      .systemPrompt()
      .catch((error: unknown) => (this.report(undefined, "reading the system prompt", error), undefined));
  }

  // ── loading ─────────────────────────────────────────────────────────────────────────────────

  /** Loads every extension once; later calls wait for the same load. Never rejects. */
  ensureLoaded(): Promise<void> {
    // Once loaded (from `session_start` on), a tool listing the session makes for its prompt needs no wait.
    if (this.loaded) return Promise.resolve(this.release());
    this.loading ??= this.load().catch((error: unknown) => this.report(undefined, "loading extensions", error));
    return this.loading.then(() => this.release());
  }

  /** Notices of a load the host asked for before any mode listened (`registeredFlags`); the next use says them. */
  private held: Array<["info" | "warning" | "error", string]> | undefined;
  private release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const [level, message] of held) this.notice(level, message);
  }

  private async load(): Promise<void> {
    const cwd = this.cwd;
    const settings = this.services.settings.available ? await this.services.settings.api.get(cwd) : {};
    this.settingsSnapshot = settings;
    // `+path`, `-path` and `!glob` entries switch discovered extensions (pi config), they add none.
    const fromSettings = Array.isArray(settings.extensions)
      ? settings.extensions.filter((p): p is string => typeof p === "string" && !"+-!".includes(p[0] ?? ""))
      : [];
    const configured = [
      ...fromSettings,
      ...this.config.extensions,
      ...this.packageExtensions(),
      ...this.config.commandLineExtensions,
    ];
    const find = (projectTrusted: boolean) =>
      discoverExtensions({
        cwd,
        agentDir: this.agentDir(),
        configured,
        noDiscovery: this.config.noExtensions,
        projectTrusted,
      });
    const trusted = await projectFilesApply(this.services.host, cwd);
    this.projectTrusted = trusted;
    const discovery = await find(trusted);
    const state = this.state();
    this.translator = new SessionEventTranslator(state?.model ?? undefined, state?.thinkingLevel, state?.sessionFile);
    for (const location of discovery.found) await this.loadOne(location);
    // pi's `project_trust`: user and command-line extensions may trust the project for its own extensions.
    const projectOnes = trusted ? [] : await untrustedProjectExtensions(find, discovery.found);
    if (projectOnes.length > 0 && (await decideProjectTrust(this, cwd)) === "yes") {
      this.projectTrusted = true;
      for (const location of projectOnes) await this.loadOne(location);
    } else {
      for (const notice of discovery.notices) this.notice("warning", `pi-extensions: ${notice}`);
    }
    this.loaded = true;
    // Their message, entry and tool renderers draw rows the view drew before they were registered.
    if (this.extensions.length > 0) this.tui.app()?.renderersChanged?.();
    await this.checkFlags();
    if (this.extensions.length > 0) await Promise.all([this.refreshResourceCommands(), this.keyedProviders.refresh()]);
    await this.previewSystemPrompt();
    await this.emit({ type: "session_start", reason: "startup" });
    await this.resourcePaths.discover(this, "startup");
  }

  /** Loads one extension: its factory runs with its own `pi`; one that throws is skipped with an error notice. */
  private async loadOne(location: ExtensionLocation): Promise<void> {
    const extension = newExtension(location);
    try {
      const factory = await (await this.loader()).factory(location.path);
      await factory(createExtensionApi(extension, this));
      extension.loading = false;
      // pi applies the providers a factory registered once it loaded; a bad one fails this extension.
      for (const work of extension.pending.splice(0)) work();
      this.extensions.push(extension);
    } catch (error) {
      this.notice("error", `pi-extensions: failed to load extension ${location.path}: ${messageOf(error)}`);
    } finally {
      extension.loading = false;
    }
  }

  /** The extensions installed packages bring; pi's `--no-extensions` turns them off with the rest (not `-e`). */
  private packageExtensions(): string[] {
    return this.config.noExtensions ? [] : this.config.packageExtensions;
  }

  /** The module loader; pi's stand-in modules (TypeBox's checker among them) load only when an extension does. */
  private async loader(): Promise<ExtensionModuleLoader> {
    if (this.modulesLoader !== undefined) return this.modulesLoader;
    const { hostModules } = await import("./modules.js");
    this.modulesLoader = new ExtensionModuleLoader(
      hostModules({
        agentDir: () => this.agentDir(),
        models: () => (this.services.models.available ? this.services.models.api.list() : []),
        findModel: (provider, id) =>
          this.services.models.available ? this.services.models.api.find(provider, id) : undefined,
        stream: (model, context, options) => this.stream(model, context, options),
        withFileMutationQueue: (path, work) => this.withFileMutationQueue(path, work),
        reportBusError: (channel, error) => this.report(undefined, `event bus "${channel}"`, error),
      }),
    );
    return this.modulesLoader;
  }

  // ── what extensions registered ──────────────────────────────────────────────────────────────

  /** Handlers of `event`, in load order then registration order. */
  handlers(event: string): Array<{ extension: LoadedExtension; handler: ExtensionHandler }> {
    return this.extensions.flatMap((extension) =>
      (extension.handlers.get(event) ?? []).map((handler) => ({ extension, handler })),
    );
  }

  hasHandlers(event: string): boolean {
    return this.extensions.some((e) => (e.handlers.get(event)?.length ?? 0) > 0);
  }

  /** Every extension tool by name; a later registration of a name replaces an earlier one. */
  tools(): Map<string, { extension: LoadedExtension; definition: ExtensionToolDefinition }> {
    const out = new Map<string, { extension: LoadedExtension; definition: ExtensionToolDefinition }>();
    for (const extension of this.extensions)
      for (const definition of extension.tools.values()) out.set(definition.name, { extension, definition });
    return out;
  }

  /** Commands by invocation name: pi suffixes a name several extensions use with `:1`, `:2`... in load order. */
  commands(): ResolvedCommand[] {
    const all = this.extensions.flatMap((extension) =>
      [...extension.commands].map(([name, definition]) => ({ name, extension, definition })),
    );
    const counts = new Map<string, number>();
    for (const c of all) counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
    const seen = new Map<string, number>();
    return all.map((c) => {
      const index = (seen.get(c.name) ?? 0) + 1;
      seen.set(c.name, index);
      return { ...c, invocationName: counts.get(c.name)! > 1 ? `${c.name}:${index}` : c.name };
    });
  }

  /** The names of the flags the loaded extensions register (loading them first, notices held). */
  async registeredFlags(): Promise<string[]> {
    if (this.loading === undefined) this.held = [];
    await (this.loading ??= this.load().catch((error: unknown) => this.report(undefined, "loading extensions", error)));
    return [...new Set(this.extensions.flatMap((e) => [...e.flags.keys()]))];
  }

  /** The value of a registered flag: the command line or the plugin's `flags` config, else the flag's default. */
  flagValue(name: string): boolean | string | undefined {
    const flag = this.extensions.map((e) => e.flags.get(name)).find((f) => f !== undefined);
    if (name in this.config.flags) return coerceFlag(this.config.flags[name]!, flag?.type);
    return flag?.default;
  }

  /** One error line for each given flag no extension (nor another plugin) registers, or of the wrong kind (after loading). */
  private async checkFlags(): Promise<void> {
    const others = new Set<string>();
    for (const owner of this.services.flagOwners?.list() ?? []) {
      if (owner.key.endsWith("#pi-extensions")) continue;
      for (const name of await owner.api.registeredFlags().catch(() => [])) others.add(name);
    }
    for (const [name, value] of Object.entries(this.config.flags)) {
      const flag = this.extensions.map((e) => e.flags.get(name)).find((f) => f !== undefined);
      if (flag === undefined && others.has(name)) continue;
      if (flag === undefined)
        this.notice(
          "error",
          `pi-extensions: unknown flag --${name}: no extension registers it (pi --help lists pi's flags)`,
        );
      else if (flag.type === "string" && value === true)
        this.notice("error", `pi-extensions: --${name} needs a value: --${name}=<text>`);
    }
  }

  /** pi's `getMcpServers()`: name and config of each registered server. */
  mcpServerList(): Array<{ name: string; config: Record<string, unknown> }> {
    return [...this.mcpServers].map(([name, config]) => ({ name, config: { ...config } }));
  }

  /** pi's `getCommands()`: extension commands, then prompt templates, then skills. */
  listCommands(): Array<{ name: string; description?: string; source: string; sourceInfo: unknown }> {
    const extensionCommands = this.commands().map((c) => ({
      name: c.invocationName,
      ...(c.definition.description !== undefined && { description: c.definition.description }),
      source: "extension",
      sourceInfo: c.extension.sourceInfo,
    }));
    const resources = this.resourceCommands.map(describeResourceCommand);
    return [...extensionCommands, ...resources];
  }

  /** Re-reads templates and skills so the synchronous `getCommands()` can list them. */
  async refreshResourceCommands(): Promise<void> {
    this.resourceCommands = await readResourceCommands(this.services.resources.list(), this.cwd, (error) =>
      this.report(undefined, "listing prompt templates and skills", error),
    );
  }

  // ── events ──────────────────────────────────────────────────────────────────────────────────

  /** Every session event: run bookkeeping at once, then pi's events to observers, in order. */
  onSessionEvent(event: SessionEvent): void {
    this.delivery.observe(event);
    if (!this.loaded || this.translator === undefined) return;
    for (const piEvent of this.translator.translate(event, () => lastCompaction(this.services.store)))
      this.queue(piEvent);
  }

  /** Queues a notification event behind the ones before it (handlers run in order, off the agent's path). */
  queue(event: PiEvent): void {
    if (!this.loaded || !this.hasHandlers(event.type)) return;
    if (event.type === "message_end" && this.observerQueue.endedBeforeSave.has(event.message as object)) return;
    void this.observerQueue.add(() => this.emit(event));
  }

  /** The event translator, once extensions loaded (ctx.compact marks a summary an extension supplied). */
  get translation(): SessionEventTranslator | undefined {
    return this.translator;
  }

  /** Resolves when every observer event queued so far has been handled (pi drains them before `tool_call`). */
  drained(): Promise<void> {
    return this.observerQueue.drained();
  }

  /** Calls every handler of a notification event (a `message_end` here is of a message saved already). */
  async emit(event: PiEvent): Promise<void> {
    const ctx = this.context();
    for (const { extension, handler } of this.handlers(event.type)) {
      try {
        const result = (await handler(event, ctx)) as { message?: unknown } | undefined;
        if (event.type === "message_end" && result?.message !== undefined) throw SAVED_BEFORE_HANDLERS;
      } catch (error) {
        this.report(extension, event.type, error);
      }
    }
  }

  /** Tells every extension the runtime is going away (pi's `session_shutdown`, reason "quit"). */
  async shutdown(): Promise<void> {
    this.providers.clear();
    if (!this.loaded || !this.hasHandlers("session_shutdown")) return;
    await this.observerQueue.drained();
    await this.emit({ type: "session_shutdown", reason: "quit" });
  }

  /** Reports a handler's (or the runtime's) error as pi does: to the user, without stopping anything. */
  report(extension: LoadedExtension | undefined, where: string, error: unknown): void {
    const who = extension === undefined ? "pi-extensions" : `extension ${extension.path}`;
    this.notice("error", `${who}: ${where}: ${messageOf(error)}`);
  }

  /** A notice on the session's event bus (print and JSON modes write warnings and errors to stderr). */
  notice(level: "info" | "warning" | "error", message: string): void {
    if (this.services.ctx.signal.aborted) return;
    if (this.held !== undefined) this.held.push([level, message]);
    else this.publish({ type: "notice", level, message });
  }

  /** Publishes a session event (a message an extension added) for modes and observers. */
  publish(event: SessionEvent): void {
    this.services.ctx.emit(SESSION_EVENT, event);
  }

  // ── services for extensions ─────────────────────────────────────────────────────────────────

  /** Remembers the running session's file lock, so extension tools queue behind built-in edits. */
  useFileLock(lock: ToolContext["withFileLock"]): void {
    this.fileLock = lock;
  }

  /** pi's `withFileMutationQueue`: the session's per-file lock on the real path. */
  async withFileMutationQueue<T>(path: string, work: () => Promise<T>): Promise<T> {
    const { realpath } = await import("node:fs/promises");
    const absolute = resolve(this.cwd, path);
    const target = await realpath(absolute).catch(() => absolute);
    return (this.fileLock ?? this.ownLocks)(target, work);
  }

  /**
   * One LLM call for an extension (pi-ai's `stream`/`complete`), through the host's LLM router: the
   * provider of the model's API, with the stored key unless the options carry one. Never throws:
   * failures end the stream with an error event.
   */
  stream(model: Model, context: Context, options: StreamOptions = {}): AssistantStream {
    return this.services.llm.api.stream(model, context, options);
  }
}

/** An error's message, for one-line reports. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
