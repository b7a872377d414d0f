/**
 * The kernel's public API: what contracts, plugins and hosts may import. Everything else in kernel/ is
 * internal. `reflect-metadata` loads first because tsyringe's decorators need it.
 */
import "./reflect.js";

export { inject } from "tsyringe";
export { defineContract } from "./contract.js";
export type * from "./contract.js";
export { definePlugin, definitionProblem, requiresOf } from "./plugin.js";
export type * from "./plugin.js";
export { PluginTokens, type PluginContext, type ProvideOptions } from "./context.js";
export { Handle, ManyHandle, NoProviderError, type ContractApi, type Lease } from "./handles.js";
export { ContractError, DeclareOnlyError, HandleHeldError, StaleGenerationError } from "./errors.js";
export type * from "./errors.js";
export { defineEvent, type EventToken } from "./events.js";
export { Kernel } from "./kernel.js";
export type * from "./types.js";
export type * from "./loader.js";
export { MovedCall } from "./safe-point.js";
