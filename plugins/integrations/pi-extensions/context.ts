/**
 * pi's `ctx` for handlers, tools and commands (ExtensionContext, ExtensionCommandContext): the user
 * interface of the running mode, read access to the session, the model catalog, and control of the run.
 * Members read their value when used (getters), so a context kept by an extension stays current.
 *
 * `ctx.ui` maps onto the ui contract (dialogs, notify, status, widgets, title, editor text), answered by
 * whichever mode runs — over the RPC extension UI sub-protocol in `--mode rpc`, with each dialog's
 * default where no user can answer (print, JSON). Members for pi's own TUI (custom components, footer,
 * header, themes, editor components...) answer as pi answers them without a TUI in those modes
 * (plain-ui.ts); in the TUI they draw through the view (tui-ui.ts).
 */
import { dirname } from "node:path";
import { HOST_SHUTDOWN_REQUEST_EVENT, type UiDialogOptions, type WidgetPlacement } from "pi-host";
import type { Context, Model, StreamOptions } from "pi-host";
import { unsupportedFunction } from "./not-supported.js";
import type { ComponentFactory } from "./tui-surfaces.js";
import { plainUiMembers, TUI_ONLY_MEMBERS } from "./plain-ui.js";
import type { ExtensionRuntime } from "./runtime.js";
import type { UiPromptKind } from "./ui-prompts.js";
import { compactWithHooks, sessionControl } from "./session-control.js";

/** pi's `ctx.ui`. */
export function createExtensionUi(runtime: ExtensionRuntime) {
  const ui = () => runtime.ui();
  const waiting = <T>(kind: UiPromptKind, title: string, dialog: () => Promise<T>) =>
    runtime.uiPrompts.around(kind, title, dialog);
  const base = {
    select: (title: string, options: string[], opts?: UiDialogOptions) =>
      waiting("select", title, () => ui().select(title, options, opts)),
    confirm: (title: string, message: string, opts?: UiDialogOptions) =>
      waiting("confirm", title, () => ui().confirm(title, message, opts)),
    input: (title: string, placeholder?: string, opts?: UiDialogOptions) =>
      waiting("input", title, () => ui().input(title, placeholder, opts)),
    editor: (title: string, prefill?: string) => waiting("editor", title, () => ui().editor(title, prefill)),
    notify: (message: string, type?: "info" | "warning" | "error") => ui().notify(message, type),
    setStatus: (key: string, text: string | undefined) => {
      if (text === undefined) runtime.tui.statuses.delete(key);
      else runtime.tui.statuses.set(key, String(text));
      ui().setStatus(key, text);
    },
    setWidget(key: string, content: unknown, options?: { placement?: WidgetPlacement }) {
      const tui = runtime.mode() === "tui";
      if (typeof content === "function") {
        // pi draws a component only in its TUI; elsewhere it ignores the factory (rpc-mode.ts).
        if (!tui) return;
        ui().setWidget(key, undefined);
        runtime.tui.setWidget(key, content as ComponentFactory, options?.placement);
        return;
      }
      if (content !== undefined && !(Array.isArray(content) && content.every((line) => typeof line === "string"))) {
        throw new Error(
          `ctx.ui.setWidget("${key}") needs lines (string[]), a component factory, or undefined to clear`,
        );
      }
      if (tui) runtime.tui.setWidget(key, undefined);
      ui().setWidget(key, content as string[] | undefined, options);
    },
    setTitle: (title: string) => ui().setTitle(title),
    setEditorText: (text: string) => ui().setEditorText(text),
  };
  // The TUI-only members: pi's answers without a TUI in RPC, print and JSON mode (plain-ui.ts); in the
  // TUI, the view's (tui-ui.ts has every one of them). Read when used.
  for (const name of TUI_ONLY_MEMBERS) {
    Object.defineProperty(base, name, {
      enumerable: true,
      get() {
        const mode = runtime.mode();
        if (mode === "tui") {
          return runtime.tui.members()[name];
        }
        return plainUiMembers((text) => ui().setEditorText(text), mode)[name];
      },
    });
  }
  return base;
}

/** pi's `ctx.sessionManager` (ReadonlySessionManager) over the session store. */
export function createSessionManagerView(runtime: ExtensionRuntime) {
  const store = () => {
    if (!runtime.services.store.available)
      throw new Error("ctx.sessionManager needs a session store plugin (session-jsonl)");
    return runtime.services.store;
  };
  return {
    getCwd: () => runtime.cwd,
    // pi's in-memory session manager has the session folder "" (`--no-session`).
    getSessionDir: () => {
      const path = store().api.current()?.path;
      return path === undefined ? "" : dirname(path);
    },
    getSessionId: () => store().api.current()?.id,
    getSessionFile: () => store().api.current()?.path,
    getSessionName: () => store().api.current()?.name,
    getLeafId: () => store().api.leafId(),
    getLeafEntry: () => {
      const leaf = store().api.leafId();
      return leaf === null ? undefined : store().api.entry(leaf);
    },
    getEntry: (id: string) => store().api.entry(id),
    getLabel: (id: string) => store().api.label(id),
    getBranch: (fromId?: string) => store().api.path(fromId),
    getEntries: () => store().api.entries(),
    getTree: () => store().api.tree(),
    /** pi's `getHeader()`: the session line, or null when no session is open. */
    getHeader: () => store().api.header() ?? null,
  };
}

/**
 * pi's `ctx.modelRegistry` (pi 1.6's synchronous ModelRegistry facade), over the model catalog, the key
 * store (a snapshot for the synchronous members, keyed-providers.ts) and the LLM router.
 */
export function createModelRegistryView(runtime: ExtensionRuntime) {
  const models = () => {
    if (!runtime.services.models.available) throw new Error("ctx.modelRegistry needs a model catalog plugin (models)");
    return runtime.services.models;
  };
  const keyFor = async (provider: string): Promise<string | undefined> => {
    try {
      const stored = runtime.services.auth.available ? await runtime.services.auth.api.apiKey(provider) : undefined;
      return stored ?? models().api.registeredApiKey(provider);
    } catch {
      return undefined;
    }
  };
  const stream = (model: Model, context: Context, options?: StreamOptions) => runtime.stream(model, context, options);
  return {
    find: (provider: string, modelId: string) => models().api.find(provider, modelId),
    getAll: () => models().api.list(),
    getApiKeyForProvider: keyFor,
    getAvailable: () => runtime.keyedProviders.available(),
    hasConfiguredAuth: (model: { provider: string }) => runtime.keyedProviders.has(model),
    isUsingOAuth: (model: { provider: string }) => runtime.keyedProviders.isUsingOAuth(model.provider),
    getProviderAuthStatus: (provider: string) => runtime.keyedProviders.status(provider),
    getProviderDisplayName: (provider: string) => provider,
    /** The catalog's load error (a broken models.json), else undefined. */
    getError: (): string | undefined => {
      try {
        models().api.list();
        return undefined;
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },
    /** Re-reads the key snapshot (the catalog re-reads models.json by itself when it changes). */
    refresh: () => runtime.keyedProviders.refresh(true),
    async getApiKeyAndHeaders(model: Model) {
      // As pi: without a key the model's own headers still go (a local server needs none).
      const apiKey = await keyFor(model.provider);
      const headers = model.headers;
      return { ok: true as const, ...(apiKey !== undefined && { apiKey }), ...(headers && { headers }) };
    },
    stream,
    streamSimple: stream,
    complete: (model: Model, context: Context, options?: StreamOptions) => stream(model, context, options).result(),
    ...runtime.providers.members(undefined),
    ...Object.fromEntries(
      UNSUPPORTED_REGISTRY.map((name) => [
        name,
        unsupportedFunction(
          `ctx.modelRegistry.${name}`,
          "pi-host's catalog has chat models only, and its own provider plugins",
        ),
      ]),
    ),
  };
}

/** pi 1.6 registry members for non-chat models and pi-ai provider objects, which pi-host has no counterpart for. */
const UNSUPPORTED_REGISTRY = [
  "getProvider",
  "getProviderAuth",
  "findOfType",
  "getModelsOfType",
  "getAvailableOfType",
  "getModelOfType",
  "classify",
  "generateImages",
  "getRegisteredProviderConfig",
  "getRegisteredNativeProvider",
  "getRegisteredProviderIds",
] as const;

/** pi's ExtensionContext. */
export function createExtensionContext(runtime: ExtensionRuntime) {
  const { session } = runtime.services;
  const report = (where: string) => (error: unknown) => runtime.report(undefined, where, error);
  return {
    ui: createExtensionUi(runtime),
    get hasUI(): boolean {
      return runtime.ui().hasUI();
    },
    get cwd(): string {
      return runtime.cwd;
    },
    /** pi 1.6.0's `ctx.mode`: "tui", "rpc", or "print" where no user can answer. */
    get mode() {
      return runtime.mode();
    },
    /** Whether the project's own files (and `.pi/extensions`) apply in this process. */
    isProjectTrusted: () => runtime.projectTrusted,
    get thinkingLevel() {
      return runtime.state()?.thinkingLevel;
    },
    sessionManager: createSessionManagerView(runtime),
    modelRegistry: createModelRegistryView(runtime),
    get model() {
      return runtime.state()?.model ?? undefined;
    },
    get signal(): AbortSignal | undefined {
      return runtime.delivery.signal;
    },
    isIdle: () => runtime.isIdle(),
    abort: () => void session.api.abort().catch(report("ctx.abort")),
    hasPendingMessages: () => (runtime.state()?.pendingMessageCount ?? 0) > 0,
    /** pi's `ctx.shutdown()`: the host ends the interactive or RPC mode once the session is idle; print mode ignores it. */
    shutdown: () => runtime.services.ctx.emit(HOST_SHUTDOWN_REQUEST_EVENT, {}),
    getContextUsage: () => (session.available ? session.api.stats().contextUsage : undefined),
    compact(
      options: {
        customInstructions?: string;
        onComplete?: (result: unknown) => void;
        onError?: (error: Error) => void;
      } = {},
    ) {
      void compactWithHooks(runtime, options.customInstructions).then(
        (result) =>
          result === undefined
            ? options.onError?.(new Error("Nothing to compact (session too small)"))
            : options.onComplete?.(result),
        (error: unknown) =>
          options.onError
            ? options.onError(error instanceof Error ? error : new Error(String(error)))
            : report("ctx.compact")(error),
      );
    },
    /** pi's `ctx.getSystemPrompt()`: before the first request, the prompt that request will carry. */
    getSystemPrompt(): string {
      return runtime.systemPrompt() ?? "";
    },
  };
}

/**
 * pi's ExtensionCommandContext: the context plus `waitForIdle` and the session operations
 * (session-control.ts).
 */
export function createCommandContext(runtime: ExtensionRuntime) {
  const control = sessionControl(runtime);
  return Object.defineProperties(createExtensionContext(runtime), {
    waitForIdle: {
      // A command runs while no run goes on, so this resolves at once, unless the command's own
      // `sendUserMessage` started a run beside it: then it waits for that run to end.
      value: async (): Promise<void> => {
        if (runtime.delivery.commandScope?.sent === true) await runtime.services.session.api.idle();
      },
      enumerable: true,
    },
    newSession: { value: control.newSession, enumerable: true },
    fork: { value: control.fork, enumerable: true },
    navigateTree: { value: control.navigateTree, enumerable: true },
    switchSession: { value: control.switchSession, enumerable: true },
    reload: { value: control.reload, enumerable: true },
    getSystemPromptOptions: {
      value: () => ({ cwd: runtime.cwd, selectedTools: runtime.lastRequestTools.map((t) => t.name) }),
      enumerable: true,
    },
  });
}
