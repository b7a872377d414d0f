/**
 * The model catalog: built-in models, then the plugin's inline `providers` config, then
 * `<agentDir>/models.json`. The file is read on first use, never at setup, and read again whenever it
 * changes on disk, so a user can edit it while a session runs. Lookups that fail say what the user
 * probably meant.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Model, ModelCatalog, ResolvedModel, ThinkingLevel } from "pi-host";
import { applyProviders, draftFrom, finish } from "./merge.js";
import {
  checkProviders,
  KNOWN_APIS,
  ModelsFileError,
  parseModelsFile,
  type ParseRules,
  type ProvidersConfig,
} from "./models-file.js";
import { closestMatches } from "./suggest.js";

/** Everything the catalog is built from. */
export interface CatalogOptions {
  /** The folder holding models.json. */
  agentDir: string;
  builtins: readonly Model[];
  /** Providers from the plugin's config, applied before models.json. */
  inlineProviders?: ProvidersConfig;
  /** API names besides the four known ones that models may use (other provider plugins' keys). */
  extraApis?: readonly string[];
  env?: NodeJS.ProcessEnv;
}

/** A lookup that found nothing; the message is one line with the closest names. */
export class UnknownModelError extends Error {
  constructor(
    message: string,
    readonly suggestions: string[],
  ) {
    super(message);
    this.name = "UnknownModelError";
  }
}

/** Where the inline providers come from, as error messages name it. */
export const INLINE_SOURCE = "plugins.json (models plugin config)";

const THINKING_LEVELS: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh"];

/** The models plugin's implementation of ModelsContract. */
export class ModelCatalogStore implements ModelCatalog {
  private cached: { stamp: string; models?: Model[]; error?: Error } | undefined;

  constructor(private readonly options: CatalogOptions) {}

  /** The models.json this catalog reads. */
  get file(): string {
    return join(this.options.agentDir, "models.json");
  }

  list(): Model[] {
    return [...this.current()];
  }

  find(provider: string, id: string): Model | undefined {
    return this.current().find((m) => m.provider === provider && m.id === id);
  }

  search(query: string): Model[] {
    const words = query
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => w !== "");
    return this.current().filter((m) => {
      const haystack = `${m.provider}/${m.id} ${m.name}`.toLowerCase();
      return words.every((w) => haystack.includes(w));
    });
  }

  resolve(reference: string, provider?: string): ResolvedModel {
    const ref = reference.trim();
    const models = this.current();
    if (provider !== undefined && !models.some((m) => m.provider === provider)) throw unknownProvider(provider, models);
    if (ref === "") throw new Error(`empty model reference; give provider/id[:thinking] or a model id`);
    const whole = lookup(ref, provider, models);
    if (whole !== undefined) return { model: whole };
    const colon = ref.lastIndexOf(":");
    if (colon > 0) {
      const model = lookup(ref.slice(0, colon), provider, models);
      const level = ref.slice(colon + 1);
      if (model !== undefined) {
        if (!(THINKING_LEVELS as readonly string[]).includes(level)) {
          throw new Error(`unknown thinking level "${level}" in "${ref}"; use one of ${THINKING_LEVELS.join(", ")}`);
        }
        return { model, thinking: level as ThinkingLevel };
      }
    }
    const slash = ref.indexOf("/");
    if (provider === undefined && slash > 0) {
      const named = ref.slice(0, slash);
      const isProvider = models.some((m) => m.provider === named);
      const isIdPrefix = models.some((m) => m.id.startsWith(`${named}/`));
      if (!isProvider && !isIdPrefix) throw unknownProvider(named, models);
    }
    throw unknownModel(ref, provider, models);
  }

  /** The current model list, rebuilt when models.json changed since the last build. */
  private current(): Model[] {
    const stamp = fileStamp(this.file);
    if (this.cached === undefined || this.cached.stamp !== stamp) {
      try {
        this.cached = { stamp, models: this.build(stamp !== "missing") };
      } catch (error) {
        this.cached = { stamp, error: error as Error };
      }
    }
    if (this.cached.error !== undefined) throw this.cached.error;
    return this.cached.models!;
  }

  private build(fileExists: boolean): Model[] {
    const env = this.options.env ?? process.env;
    const rules: ParseRules = {
      builtinProviders: new Set(this.options.builtins.map((m) => m.provider)),
      apis: [...KNOWN_APIS, ...(this.options.extraApis ?? [])],
    };
    const draft = draftFrom(this.options.builtins);
    if (this.options.inlineProviders !== undefined) {
      const inline = checkProviders(INLINE_SOURCE, this.options.inlineProviders, rules, "config.providers");
      applyProviders(draft, inline, INLINE_SOURCE, "config.providers");
    }
    if (fileExists) {
      let text: string;
      try {
        text = readFileSync(this.file, "utf8");
      } catch (error) {
        throw new ModelsFileError(this.file, undefined, `cannot be read (${(error as Error).message})`);
      }
      applyProviders(draft, parseModelsFile(this.file, text, rules), this.file, "providers");
    }
    return finish(draft, env);
  }
}

/** A cheap identity of the file's current version; "missing" when there is none. */
function fileStamp(file: string): string {
  try {
    const s = statSync(file);
    return `${s.mtimeMs}:${s.size}:${s.ino}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw new ModelsFileError(file, undefined, `cannot be read (${(error as Error).message})`);
  }
}

/** Exact lookup: `provider/id`, a bare id (unique across providers), or a model name. */
function lookup(ref: string, provider: string | undefined, models: readonly Model[]): Model | undefined {
  const scope = provider === undefined ? models : models.filter((m) => m.provider === provider);
  if (provider !== undefined && ref.startsWith(`${provider}/`)) {
    const exact = scope.find((m) => m.id === ref.slice(provider.length + 1));
    if (exact !== undefined) return exact;
  }
  const slash = ref.indexOf("/");
  if (provider === undefined && slash > 0) {
    const exact = models.find((m) => m.provider === ref.slice(0, slash) && m.id === ref.slice(slash + 1));
    if (exact !== undefined) return exact;
  }
  const byId = scope.filter((m) => m.id === ref);
  const byName = byId.length > 0 ? byId : scope.filter((m) => m.name.toLowerCase() === ref.toLowerCase());
  if (byName.length > 1) {
    const refs = byName.map(reference);
    throw new UnknownModelError(
      `model "${ref}" is offered by several providers (${refs.join(", ")}); say which with provider/id`,
      refs,
    );
  }
  return byName[0];
}

function unknownProvider(name: string, models: readonly Model[]): UnknownModelError {
  const providers = [...new Set(models.map((m) => m.provider))];
  const close = closestMatches(name, providers, (p) => [p]);
  const hint = close.length > 0 ? `did you mean ${close.join(", ")}?` : `known providers: ${providers.join(", ")}`;
  return new UnknownModelError(`unknown provider "${name}": ${hint}`, close);
}

function unknownModel(ref: string, provider: string | undefined, models: readonly Model[]): UnknownModelError {
  const scope = provider === undefined ? models : models.filter((m) => m.provider === provider);
  const close = closestMatches(ref, scope, (m) => [m.id, reference(m), m.name]).map(reference);
  const what = provider === undefined ? `unknown model "${ref}"` : `unknown model "${ref}" for provider "${provider}"`;
  const hint = close.length > 0 ? `: did you mean ${close.join(", ")}?` : `; run "pi --list-models" to see the models`;
  return new UnknownModelError(what + hint, close);
}

/** `provider/id`, the way users write a model. */
export function reference(model: Pick<Model, "provider" | "id">): string {
  return `${model.provider}/${model.id}`;
}
