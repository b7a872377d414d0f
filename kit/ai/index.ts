/**
 * The library half of the AI layer, moved out of contracts/ai: streaming an assistant message, handing
 * a history to another model, context-overflow and token estimates, retry policy, request guards and
 * error text. Providers, sessions and compaction share these through "pi-host".
 */
export {
  argumentsErrorOf,
  AssistantEventStream,
  emptyUsage,
  newAssistantMessage,
  parsePartialJson,
  parseToolArguments,
  priceUsage,
} from "./stream.js";
export { historyFor, idRule, isSameModel, prepareHistory, shortHash, type ToolCallIdRule } from "./handoff.js";
export { isContextOverflow } from "./overflow.js";
export {
  CHARS_PER_TOKEN,
  estimateContextTokens,
  estimateMessageTokens,
  usageTokens,
  type ContextEstimate,
} from "./estimate.js";
export {
  DEFAULT_PROVIDER_RETRY,
  DEFAULT_RETRY,
  errorHeader,
  exceedsRetryLimit,
  isTransientError,
  isTransientStatus,
  noteRetryAfter,
  parseRetryAfter,
  retryAfterMsOf,
  retryDelayMs,
  retryLimitNote,
  serverRetryAfterMs,
  setRetryAfterMs,
  sleep,
  withRetry,
} from "./retry.js";
export { cleanErrorText, ERROR_TEXT_LIMIT } from "./error-text.js";
export { linkAbort, onAbort, type LinkedAbort } from "./abort.js";
export { AMBIENT_CREDENTIALS, isAmbientCredentials } from "./ambient-credentials.js";
export {
  DEFAULT_IDLE_TIMEOUT_MS,
  MAX_STREAM_LINE_BYTES,
  RequestGuard,
  requestLimits,
  StreamGuardError,
  type RequestLimits,
} from "./request-guard.js";
export { LiteResponse, nodeFetch, type LiteRequestInit } from "./node-fetch.js";
export { JsonArrayStream, JsonBody, type JsonBodySize } from "./json-body.js";
export { LiteHeaders, type LiteHeadersInit } from "./lite-headers.js";
export { LazyFormData, LazyResponse } from "./lazy-web-globals.js";
export { interpolateValue, isCommandValue, type TemplateResult } from "./config-template.js";
export { CONFIG_COMMAND_TIMEOUT_MS, resolveConfigSpec, type ConfigSpawner } from "./config-value.js";
export {
  buildCatalog,
  catalogModel,
  formatCatalog,
  ModelsDevError,
  parseModelsDev,
  MODELS_STORE_FILE,
  REFRESHED_CATALOG_FILE,
  type CatalogData,
  type CatalogModel,
  type CatalogOverlay,
  type CatalogProvider,
  type ModelsDevData,
  type ModelsDevModel,
  type ModelsDevProvider,
  type OverlayProvider,
} from "./models-dev.js";
