/**
 * The session's model and thinking level: which model a session starts with, and every change after
 * (set, cycle, thinking level). A change is kept in the plugin state (it survives a reload), recorded
 * in the session file when it is new there, and announced as `model_change`.
 */
import type { Handle, Model, ModelCatalog, ScopedModel, SessionEvent, SessionStore, Settings } from "pi-host";
import type { ThinkingLevel } from "pi-host";
import type { SessionConfig, SessionPluginState } from "./types.js";

/** pi's thinking levels, in cycling order. */
export const THINKING_LEVELS: ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh"];

/** What a model change touches. */
export interface ModelChoiceDeps {
  models: Handle<ModelCatalog>;
  store: Handle<SessionStore>;
  saved: () => SessionPluginState;
  patchState: (patch: Partial<SessionPluginState>) => void;
  emit: (event: SessionEvent) => void;
  /** The models that can be used now (a key, or a local server): what a `--models` scope selects among. */
  available: () => Promise<Model[]>;
}

/** The current model and thinking level, and the operations that change them. */
export class ModelChoice {
  model: Model | undefined;
  thinkingLevel: ThinkingLevel = "off";
  /** The `--models` / `enabledModels` scope: the first model of a new session and what cycling visits; empty = all. */
  scoped: ScopedModel[] = [];

  constructor(private readonly deps: ModelChoiceDeps) {}

  /** Resolves the scope patterns (`--models`, else the `enabledModels` setting); each unmatched one is a warning. */
  async loadScope(config: SessionConfig, settings: Settings): Promise<void> {
    const enabled = Array.isArray(settings.enabledModels) ? settings.enabledModels.map(String) : undefined;
    const patterns = config.models ?? enabled ?? [];
    if (patterns.length === 0) {
      this.scoped = [];
      return;
    }
    const scope = this.deps.models.api.scope(patterns, await this.deps.available());
    this.scoped = scope.models;
    for (const message of scope.warnings) this.deps.emit({ type: "notice", level: "warning", message });
  }

  /** Model: this plugin's state > the session's last model > --model > settings > nothing yet. */
  pick(config: SessionConfig, settings: Settings): void {
    const { models, store } = this.deps;
    const saved = this.deps.saved();
    const context = store.api.buildContext();
    let model = saved.provider && saved.modelId ? models.api.find(saved.provider, saved.modelId) : undefined;
    let thinking = saved.thinkingLevel;
    if (model === undefined && config.model !== undefined) {
      const resolved = models.api.resolve(config.model, config.provider);
      model = resolved.model;
      thinking ??= resolved.thinking;
    }
    if (model === undefined && context.model) model = models.api.find(context.model.provider, context.model.modelId);
    if (model === undefined && this.scoped.length > 0) {
      // pi: a new session with a scope starts on the default model when it is in scope, else the first one.
      const start = this.scoped.find((s) => sameModel(s.model, settings)) ?? this.scoped[0]!;
      model = start.model;
      thinking ??= config.thinking ?? start.thinking;
    }
    if (model === undefined && typeof settings.defaultModel === "string") {
      model = models.api.resolve(
        settings.defaultModel,
        (settings.defaultProvider as string | undefined) ?? config.provider,
      ).model;
    }
    // Nothing chose one: pi 1.6 starts with the default model of the first provider that has a key.
    model ??= models.api.initialModel();
    thinking ??=
      config.thinking ??
      context.thinkingLevel ??
      (settings.defaultThinkingLevel as ThinkingLevel | undefined) ??
      "medium";
    if (model !== undefined)
      this.apply(model, thinking, context.model?.provider !== model.provider || context.model?.modelId !== model.id);
  }

  /** The model a prompt runs on; none chosen yet is an error that says how to choose one. */
  required(): Model {
    if (this.model !== undefined) return this.model;
    throw new Error(
      'no model selected; pass --model provider/id, or set "defaultProvider" and "defaultModel" in settings.json',
    );
  }

  /** The model that writes branch summaries: the session's current one. */
  forSummary(): Model {
    if (this.model === undefined) throw new Error("no model selected to write the summary");
    return this.model;
  }

  /** Makes `model` current; `record` writes the model to the session file (a level change is written anyway). */
  apply(model: Model, thinking: ThinkingLevel, record: boolean): void {
    const level = model.reasoning ? thinking : "off";
    const changedLevel = level !== this.thinkingLevel;
    const hadModel = this.model !== undefined;
    this.model = model;
    this.thinkingLevel = level;
    this.deps.patchState({ provider: model.provider, modelId: model.id, thinkingLevel: level });
    if (record) this.deps.store.api.appendModelChange(model.provider, model.id);
    if (record || changedLevel) this.deps.store.api.appendThinkingLevelChange(level);
    this.deps.emit({ type: "model_change", model, thinkingLevel: level });
    if (changedLevel && hadModel) this.deps.emit({ type: "thinking_level_changed", level });
  }

  /** `/model provider/id`; an unknown model throws the catalog's own error. */
  set(provider: string, modelId: string): Model {
    const model = this.deps.models.api.find(provider, modelId);
    if (model === undefined) return this.deps.models.api.resolve(`${provider}/${modelId}`).model;
    this.apply(model, this.levelForNewModel(), true);
    return model;
  }

  /**
   * The next (or previous) model of the scope, or of `available` without one, wrapping around; a scoped
   * model with a pinned `:thinking` switches to that level. Undefined when there is nothing to cycle.
   */
  cycle(
    available: Model[],
    direction: "forward" | "backward",
  ): { model: Model; thinkingLevel: ThinkingLevel; isScoped: boolean } | undefined {
    const ring: ScopedModel[] = this.scoped.length > 0 ? this.scoped : available.map((model) => ({ model }));
    if (ring.length === 0) return undefined;
    const current = this.model;
    const index = current
      ? ring.findIndex((s) => s.model.provider === current.provider && s.model.id === current.id)
      : -1;
    const step = direction === "forward" ? 1 : ring.length - 1;
    const next = ring[(index + step + ring.length) % ring.length]!;
    this.apply(next.model, next.thinking ?? this.levelForNewModel(), true);
    return { model: next.model, thinkingLevel: this.thinkingLevel, isScoped: this.scoped.length > 0 };
  }

  /** Sets the thinking level; an unknown level or no model is a clear error. */
  setThinking(level: ThinkingLevel): void {
    if (!THINKING_LEVELS.includes(level))
      throw new Error(`unknown thinking level "${level}"; use one of ${THINKING_LEVELS.join(", ")}`);
    if (this.model === undefined) throw new Error("no model selected");
    this.apply(this.model, level, false);
  }

  /** The next thinking level; undefined when the model does not reason. */
  cycleThinking(): ThinkingLevel | undefined {
    if (this.model === undefined || !this.model.reasoning) return undefined;
    const next = THINKING_LEVELS[(THINKING_LEVELS.indexOf(this.thinkingLevel) + 1) % THINKING_LEVELS.length]!;
    this.apply(this.model, next, false);
    return next;
  }

  /** A model switched to keeps the level, except that "off" (a non-reasoning model's) becomes "medium". */
  private levelForNewModel(): ThinkingLevel {
    return this.thinkingLevel === "off" ? "medium" : this.thinkingLevel;
  }
}

/** Whether `model` is the settings' `defaultProvider`/`defaultModel`. */
function sameModel(model: Model, settings: Settings): boolean {
  return model.provider === settings.defaultProvider && model.id === settings.defaultModel;
}
