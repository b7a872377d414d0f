/**
 * The session's model and thinking level: which model a session starts with, and every change after
 * (set, cycle, thinking level). A change is kept in the plugin state (it survives a reload), recorded
 * in the session file when it is new there, and announced as `model_change`.
 */
import type { Handle, Model, ModelCatalog, SessionEvent, SessionStore, Settings, ThinkingLevel } from "pi-host";
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
}

/** The current model and thinking level, and the operations that change them. */
export class ModelChoice {
  model: Model | undefined;
  thinkingLevel: ThinkingLevel = "off";

  constructor(private readonly deps: ModelChoiceDeps) {}

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

  /** The next (or previous) model of `available`, wrapping around; undefined when there is none. */
  cycle(
    available: Model[],
    direction: "forward" | "backward",
  ): { model: Model; thinkingLevel: ThinkingLevel } | undefined {
    if (available.length === 0) return undefined;
    const current = this.model;
    const index = current ? available.findIndex((m) => m.provider === current.provider && m.id === current.id) : -1;
    const step = direction === "forward" ? 1 : available.length - 1;
    const next = available[(index + step + available.length) % available.length]!;
    this.apply(next, this.levelForNewModel(), true);
    return { model: next, thinkingLevel: this.thinkingLevel };
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
