/**
 * The kernel's public API: what contracts, plugins and hosts may import. Everything else in kernel/ is
 * internal. `reflect-metadata` loads first because tsyringe's decorators need it.
 */
import "./reflect.js";

export { inject } from "tsyringe";
export {
  defineContract,
  type Contract,
  type ContractKind,
  type ContractShape,
  type ContractSpec,
  type GatePolicy,
  type MethodKeys,
  type MethodList,
  type MethodMode,
} from "./contract.js";
export {
  definePlugin,
  definitionProblem,
  requiresOf,
  type PluginDefinition,
  type ProvideDecl,
  type RequireDecl,
  type StateSpec,
} from "./plugin.js";
export { PluginTokens, type PluginContext, type ProvideOptions } from "./context.js";
export { Handle, ManyHandle, NoProviderError, type ContractApi, type Lease } from "./handles.js";
export {
  ContractError,
  DeclareOnlyError,
  HandleHeldError,
  StaleGenerationError,
  type LifecycleError,
  type Phase,
} from "./errors.js";
export { defineEvent, type EventToken } from "./events.js";
export {
  Kernel,
  type BootResult,
  type GenerationView,
  type KernelOptions,
  type KernelSnapshot,
  type OperationResult,
  type PhaseInfo,
  type PluginEntry,
  type PluginSnapshot,
} from "./kernel.js";
export type { InlineSource, LoadedPlugin, PluginSource, PluginSources } from "./loader.js";
