/**
 * pi's `registerProvider` / `unregisterProvider` / `registerVirtualModel` / `unregisterVirtualModel`,
 * onto the model catalog's run-time registrations (ModelsContract 1.3), so `--list-models`, `/model`,
 * `--model` and RPC `get_available_models` see them. Calls made while an extension's factory runs are
 * queued and applied once it loaded, as pi does; later calls apply at once. What this runtime registered
 * is removed when it stops, so a reloaded plugin does not leave stale providers behind.
 */
import {
  AssistantEventStream,
  newAssistantMessage,
  type AssistantMessageEvent,
  type AssistantStream,
  type Context,
  type CustomStreamFunction,
  type Model,
  type StreamOptions,
} from "pi-host";
import type { ExtensionRuntime } from "./runtime.js";
import type { LoadedExtension } from "./types.js";

/** Provider fields pi-host does not act on: its sign-ins and catalog refresh are its own. */
const UNUSED_FIELDS = ["oauth", "auth", "refreshModels", "getModels", "filterModels"] as const;

type PiStream = (model: Model, context: unknown, options?: unknown) => unknown;

/** A virtual model as pi's `registerVirtualModel` takes it. */
interface VirtualModelDefinition {
  provider: string;
  id: string;
  name?: string;
  thinkingLevels?: string[];
  contextWindow?: number;
  maxTokens?: number;
  input?: Array<"text" | "image">;
  route: (request: Record<string, unknown>, ctx: unknown) => unknown;
}

/** The providers and virtual models one runtime registered, for pi's API and for clean-up. */
export class ProviderRegistrations {
  private readonly providers = new Set<string>();
  private readonly virtual = new Set<string>();

  constructor(private readonly runtime: ExtensionRuntime) {}

  private catalog() {
    if (!this.runtime.services.models.available)
      throw new Error("registering providers needs a model catalog plugin (models)");
    return this.runtime.services.models.api;
  }

  /** Runs `work` now, or after the extension's factory finished when it is still loading (pi's queue). */
  private when(extension: LoadedExtension | undefined, work: () => void): void {
    if (extension?.loading === true) extension.pending.push(work);
    else work();
  }

  /** The API members, bound to one extension (none: `ctx.modelRegistry`'s, which apply at once). */
  members(extension: LoadedExtension | undefined) {
    return {
      registerProvider: (nameOrProvider: unknown, config?: Record<string, unknown>): void => {
        const { name, entry, stream } = providerArguments(nameOrProvider, config);
        const unused = UNUSED_FIELDS.filter((field) => entry[field] !== undefined);
        if (unused.length > 0)
          this.runtime.notice(
            "warning",
            `${extension === undefined ? "pi-extensions" : `extension ${extension.path}`}: registerProvider("${name}"): ${unused.join(", ")} not used here (sign in with "pi auth login"; list models in the registration)`,
          );
        this.when(extension, () => {
          this.catalog().registerProvider(name, {
            config: entry,
            ...(stream && { stream: customStream(stream) }),
          });
          this.providers.add(name);
        });
      },
      unregisterProvider: (name: string): void => {
        this.when(extension, () => {
          if (!this.providers.delete(name)) return;
          this.catalog().unregisterProvider(name);
        });
      },
      registerVirtualModel: (definition: VirtualModelDefinition): void => {
        const model = virtualModel(definition);
        this.when(extension, () => {
          this.catalog().registerModel(model, this.router(extension, definition));
          this.virtual.add(`${model.provider}/${model.id}`);
        });
      },
      unregisterVirtualModel: (provider: string, id: string): void => {
        this.when(extension, () => {
          if (!this.virtual.delete(`${provider}/${id}`)) return;
          this.catalog().unregisterModel(provider, id);
        });
      },
    };
  }

  /** Removes everything this runtime registered (the plugin stops or reloads). */
  clear(): void {
    if (!this.runtime.services.models.available) return;
    const catalog = this.runtime.services.models.api;
    for (const name of this.providers) catalog.unregisterProvider(name);
    for (const key of this.virtual) {
      const cut = key.indexOf("/");
      catalog.unregisterModel(key.slice(0, cut), key.slice(cut + 1));
    }
    this.providers.clear();
    this.virtual.clear();
  }

  /**
   * The stream of a virtual model: `route(request, ctx)` picks the physical model and thinking level of
   * each request, which the LLM router then answers; the assistant message names the physical model.
   */
  private router(extension: LoadedExtension | undefined, definition: VirtualModelDefinition): CustomStreamFunction {
    return (model, context, options = {}) => {
      const out = new AssistantEventStream();
      void (async () => {
        try {
          const messages = context.messages;
          const previous = [...messages].reverse().find((m) => m.role === "assistant" && m.stopReason !== "error");
          const request = {
            model,
            thinkingLevel: options.reasoning ?? "off",
            reason: messages.at(-1)?.role === "user" ? "user" : "continuation",
            ...(previous?.role === "assistant" && {
              previous: { model: this.catalog().find(previous.provider, previous.model) },
            }),
            messages: context.systemPrompt
              ? [{ role: "system", content: context.systemPrompt }, ...messages]
              : [...messages],
            signal: options.signal,
          };
          const choice = (await definition.route(request, this.runtime.context())) as
            | { model?: Model; thinkingLevel?: string }
            | undefined;
          const physical = choice?.model;
          if (physical === undefined || typeof physical.provider !== "string")
            throw new Error(`virtual model ${model.provider}/${model.id}: route() returned no model`);
          if (this.virtual.has(`${physical.provider}/${physical.id}`))
            throw new Error(`virtual model ${model.provider}/${model.id}: a virtual model cannot route to another`);
          const { apiKey: _virtualKey, ...rest } = options;
          const sent: StreamOptions = { ...rest };
          if (choice?.thinkingLevel !== undefined && choice.thinkingLevel !== "off")
            sent.reasoning = choice.thinkingLevel as StreamOptions["reasoning"];
          else delete sent.reasoning;
          for await (const event of this.runtime.stream(physical, context, sent)) out.push(event);
        } catch (error) {
          this.runtime.report(extension, `virtual model ${model.provider}/${model.id}`, error);
          out.push(failure(model, options, error));
        }
      })();
      return out;
    };
  }
}

/** pi's two call forms: `(name, config)` and `(provider)` with an `id`. */
function providerArguments(
  nameOrProvider: unknown,
  config: Record<string, unknown> | undefined,
): { name: string; entry: Record<string, unknown>; stream?: PiStream } {
  const object = typeof nameOrProvider === "object" && nameOrProvider !== null;
  const name = object ? (nameOrProvider as { id?: unknown }).id : nameOrProvider;
  const entry = (object ? nameOrProvider : config) as Record<string, unknown> | undefined;
  if (typeof name !== "string" || name === "")
    throw new Error("registerProvider needs a provider name, or a provider object with an id");
  if (entry === undefined || entry === null || typeof entry !== "object")
    throw new Error(`registerProvider("${name}") needs a config object`);
  if (entry.api !== undefined && typeof entry.api !== "string")
    throw new Error(
      `registerProvider("${name}"): api must be a wire protocol name ("openai-completions"...); give "streamSimple" for your own`,
    );
  const stream = (entry.streamSimple ?? entry.stream) as PiStream | undefined;
  if (stream !== undefined && typeof stream !== "function")
    throw new Error(`registerProvider("${name}"): streamSimple must be a function`);
  const { id: _id, ...rest } = entry;
  return { name, entry: rest, ...(stream && { stream }) };
}

/**
 * An extension's `streamSimple` as the router calls it: the system prompt also goes as the transcript's
 * leading system message (pi 1.6 streams read it with `getCurrentSystemPrompt(context.messages)`), and
 * whatever async iterable of events it returns becomes the host's stream.
 */
function customStream(stream: PiStream): CustomStreamFunction {
  return (model: Model, context: Context, options?: StreamOptions): AssistantStream => {
    const out = new AssistantEventStream();
    const transcript = {
      ...context,
      messages: context.systemPrompt
        ? [{ role: "system", content: context.systemPrompt }, ...context.messages]
        : [...context.messages],
    };
    void (async () => {
      try {
        const events = (await stream(model, transcript, options)) as AsyncIterable<AssistantMessageEvent>;
        for await (const event of events) out.push(event);
        // Dropped when the stream already ended; else it would never settle.
        out.push(failure(model, options ?? {}, new Error("the provider's stream ended without a done or error event")));
      } catch (error) {
        out.push(failure(model, options ?? {}, error));
      }
    })();
    return out;
  };
}

/** pi's virtual model as a catalog entry. */
function virtualModel(definition: VirtualModelDefinition): Model {
  if (definition === null || typeof definition !== "object")
    throw new Error("registerVirtualModel needs a model definition");
  const { provider, id } = definition;
  if (typeof provider !== "string" || provider === "" || typeof id !== "string" || id === "")
    throw new Error("registerVirtualModel needs a provider and an id");
  if (typeof definition.route !== "function")
    throw new Error(`registerVirtualModel(${provider}/${id}) needs a route function`);
  const levels = definition.thinkingLevels ?? ["off"];
  return {
    id,
    name: definition.name ?? id,
    api: "virtual",
    provider,
    baseUrl: "",
    reasoning: levels.some((level) => level !== "off"),
    input: definition.input ?? ["text", "image"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: definition.contextWindow ?? 0,
    maxTokens: definition.maxTokens ?? 0,
  };
}

/** The one `error` event a failed stream ends with. */
function failure(model: Model, options: StreamOptions, error: unknown): AssistantMessageEvent {
  const message = newAssistantMessage(model);
  message.stopReason = options.signal?.aborted ? "aborted" : "error";
  message.errorMessage = error instanceof Error ? error.message : String(error);
  return { type: "error", reason: message.stopReason, error: message };
}
