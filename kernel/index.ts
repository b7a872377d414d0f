/**
 * The kernel's public API: what contracts, plugins and hosts may import. Everything else in kernel/ is
 * internal. `reflect-metadata` loads first because tsyringe's decorators need it.
 */
import "./reflect.js";

export { inject } from "tsyringe";
/** The DI library itself, handed to source-loaded plugins as the "tsyringe" module (one shared copy). */
export * as tsyringe from "tsyringe";
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
export { definePlugin, type PluginDefinition, type ProvideDecl, type RequireDecl, type StateSpec } from "./plugin.js";
export { PluginTokens, type PluginContext, type ProvideOptions } from "./context.js";
export { Handle, ManyHandle, NoProviderError, type ContractApi, type Lease } from "./handles.js";
export {
  ContractError,
  DeclareOnlyError,
  HandleHeldError,
  StaleGenerationError,
  formatLifecycleError,
  type LifecycleError,
  type Phase,
} from "./errors.js";
export { defineEvent, type EventToken } from "./events.js";
export {
  Kernel,
  type BootResult,
  type KernelDescription,
  type KernelOptions,
  type OperationResult,
  type PhaseInfo,
  type PluginDescription,
  type PluginEntry,
} from "./kernel.js";
export type { PluginSource } from "./loader.js";
export { MovedCall } from "./safe-point.js";
