/**
 * The prepare phase: a plugin's setup runs in declare mode against a fresh generation. It may declare
 * providers, handlers and effects, and may do no I/O and call no other service; whatever goes wrong, the
 * generation is dropped and nothing outside it has changed.
 */
import type { DependencyContainer } from "tsyringe";
import { createContext, type ContextHost, PluginTokens } from "./context.js";
import { ContractError, DeclareOnlyError } from "./errors.js";
import { Generation, type GenerationSource } from "./generation.js";
import { providesOf, requiresOf, type PluginDefinition } from "./plugin.js";

/** What declare mode needs from the kernel: the context's services, the root DI container, the I/O watch. */
export interface PrepareHost extends ContextHost {
  root: DependencyContainer;
  /** Runs setup and reports the kinds of I/O it started (the host's `watchSetup`); none seen without one. */
  watchSetup: <T>(body: () => T) => { result: T; io: string[] };
}

/** Runs setup in declare mode and returns the generation it declared. Throws on any problem; changes nothing. */
export function prepare(
  host: PrepareHost,
  pluginId: string,
  definition: PluginDefinition<any, any>,
  origin: GenerationSource,
  config: unknown,
  number: number,
): Generation {
  const gen = new Generation(pluginId, number, definition, config, origin);
  const container = host.root.createChildContainer();
  // Every required contract's handle exists before DI resolves a class provider's parameters.
  for (const { contract } of requiresOf(definition))
    void (contract.kind === "single" ? host.handles.use(contract) : host.handles.useAll(contract));
  const ctx = createContext(gen, host, container);
  container.register(PluginTokens.Context, { useValue: ctx });
  container.register(PluginTokens.Config, { useValue: config });
  gen.container = container;
  host.handles.runtime.declaring = gen;
  try {
    const { result, io } = host.watchSetup(() => definition.setup(ctx));
    if (result !== null && typeof result === "object" && typeof (result as Promise<unknown>).then === "function") {
      throw new DeclareOnlyError(pluginId, "setup returned a promise; setup must be synchronous");
    }
    if (io.length > 0) throw new DeclareOnlyError(pluginId, `it started I/O (${[...new Set(io)].join(", ")})`);
    // A `many` contract may legitimately get no provider this time (an extension host with no extensions).
    const missing = providesOf(definition).find(
      (p) => p.contract.kind === "single" && !gen.provided.some((q) => q.contract.id === p.contract.id),
    );
    if (missing !== undefined)
      throw new ContractError(
        `plugin "${pluginId}" declares it provides "${missing.contract.id}" but its setup never called ctx.provide() for it`,
      );
  } catch (error) {
    gen.discard();
    throw error;
  } finally {
    host.handles.runtime.declaring = undefined;
  }
  return gen;
}
