/**
 * The modules an extension imports from pi's packages, provided by the host (jiti `virtualModules`), so
 * an extension written for pi runs unchanged without pi installed. Each is an explicit object: what
 * pi-host implements works; every other export pi has is still there, as a function that throws "not
 * supported yet: <name>" when called (or a getter that throws when read), so an import never fails
 * quietly and a missing feature is named where it is used. Types are erased when jiti transpiles.
 *
 * TypeBox: pi 0.73 extensions import `typebox` (1.x); pi-host's tools are validated by
 * `@sinclair/typebox` 0.34 (`Value.Check` in the loop). Both names resolve to the host's 0.34 instance,
 * whose `Type` builders have the same names and JSON output for what tool parameters use.
 */
import * as TypeBox from "@sinclair/typebox";
import type { TSchema } from "@sinclair/typebox";
import * as TypeBoxValue from "@sinclair/typebox/value";
import {
  AssistantEventStream,
  isContextOverflow,
  parsePartialJson,
  priceUsage,
  type AssistantStream,
  type Context,
  type Model,
  type StreamOptions,
  type Usage,
  parseFrontmatter,
} from "pi-host";
import { createEventBus } from "./event-bus.js";
import { addUnsupported } from "./not-supported.js";
import { AGENT_CORE_16, AI_16, CODING_AGENT_16, TUI_16 } from "./pi16-exports.js";
import { piTuiExports } from "./pi-tui.js";
import { CustomEditor, DynamicBorder } from "./pi-tui-editor.js";
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  formatSize,
  truncateHead,
  truncateLine,
  truncateTail,
} from "./truncate.js";

/** The pi version whose extension API this plugin follows. */
export const PI_API_VERSION = "1.6.0";

/** What the modules need from the running host. */
export interface HostModuleDeps {
  agentDir(): string;
  /** The model catalog. */
  models(): Model[];
  findModel(provider: string, id: string): Model | undefined;
  /** Streams through the provider plugin for the model's API, with the stored key unless one is given. */
  stream(model: Model, context: Context, options?: StreamOptions): AssistantStream;
  /** pi's per-file mutation queue, shared with the built-in edit and write tools. */
  withFileMutationQueue<T>(path: string, work: () => Promise<T>): Promise<T>;
  /** Hears what a `createEventBus` listener threw. */
  reportBusError(channel: string, error: unknown): void;
}

/**
 * pi-ai's `StringEnum`: a string schema with `enum` (what Google's API accepts), built as pi builds it
 * (`Type.Unsafe`). The tool source makes such schemas checkable for the loop (tool-source.ts).
 */
export function StringEnum<T extends readonly string[]>(
  values: T,
  options: { description?: string; default?: T[number] } = {},
): TSchema {
  if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === "string")) {
    throw new Error("StringEnum needs a non-empty array of strings");
  }
  return TypeBox.Type.Unsafe({
    type: "string",
    enum: [...values],
    ...(options.description && { description: options.description }),
    ...(options.default && { default: options.default }),
  });
}

/**
 * pi-ai's `getCurrentSystemMessage`: the system message in force at the end of a transcript slice (the
 * last one; `context_with_system` transcripts here carry the prompt as their leading system message).
 */
export function getCurrentSystemMessage<M extends { role: string }>(messages: readonly M[]): M | undefined {
  return [...messages].reverse().find((m) => m.role === "system");
}

function systemText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  return content
    .filter((b: { type?: string }) => b?.type === "text")
    .map((b: { text: string }) => b.text)
    .join("\n");
}

/** Every module an extension may import from pi's packages, by specifier. */
export function hostModules(deps: HostModuleDeps): Record<string, unknown> {
  const codingAgent = codingAgentModule(deps);
  const ai = aiModule(deps);
  const tui = tuiModule();
  const agentCore = agentCoreModule();
  const typebox = { ...TypeBox };
  const modules: Record<string, unknown> = {
    "@sinclair/typebox": typebox,
    "@sinclair/typebox/value": TypeBoxValue,
    typebox: { ...typebox, default: TypeBox.Type },
    "typebox/value": TypeBoxValue,
  };
  for (const scope of ["@mariozechner", "@earendil-works"]) {
    modules[`${scope}/pi-coding-agent`] = codingAgent;
    modules[`${scope}/pi-ai`] = ai;
    modules[`${scope}/pi-tui`] = tui;
    modules[`${scope}/pi-agent-core`] = agentCore;
  }
  return modules;
}

/** `@mariozechner/pi-coding-agent`: type guards, tool helpers, output limits. */
function codingAgentModule(deps: HostModuleDeps): Record<string, unknown> {
  const hasToolName = (name: string) => (event: { toolName?: unknown }) => event?.toolName === name;
  const module: Record<string, unknown> = {
    VERSION: PI_API_VERSION,
    CURRENT_SESSION_VERSION: 3,
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_LINES,
    defineTool: <T>(tool: T): T => tool,
    CustomEditor,
    DynamicBorder,
    isToolCallEventType: (toolName: string, event: { toolName?: unknown }) => event?.toolName === toolName,
    isBashToolResult: hasToolName("bash"),
    isReadToolResult: hasToolName("read"),
    isEditToolResult: hasToolName("edit"),
    isWriteToolResult: hasToolName("write"),
    isGrepToolResult: hasToolName("grep"),
    isFindToolResult: hasToolName("find"),
    isLsToolResult: hasToolName("ls"),
    getAgentDir: () => deps.agentDir(),
    truncateHead,
    truncateTail,
    truncateLine,
    formatSize,
    withFileMutationQueue: <T>(path: string, work: () => Promise<T>) => deps.withFileMutationQueue(path, work),
    createEventBus: () => createEventBus((channel, error) => deps.reportBusError(channel, error)),
    // The reader pi-host's own skills and templates use (kit/text/frontmatter.ts), pi's shape: { frontmatter, body }.
    parseFrontmatter: (content: string) => parseFrontmatter(content),
    stripFrontmatter: (content: string) => parseFrontmatter(content).body,
  };
  addUnsupported(module, {
    functions: [
      "AgentSession",
      "AgentSessionRuntime",
      "ArminComponent",
      "AssistantMessageComponent",
      "AuthStorage",
      "BashExecutionComponent",
      "BorderedLoader",
      "BranchSummaryMessageComponent",
      "CompactionSummaryMessageComponent",
      "CustomEditor",
      "CustomMessageComponent",
      "DefaultPackageManager",
      "DefaultResourceLoader",
      "DynamicBorder",
      "ExtensionEditorComponent",
      "ExtensionInputComponent",
      "ExtensionRunner",
      "ExtensionSelectorComponent",
      "FileAuthStorageBackend",
      "FooterComponent",
      "InMemoryAuthStorageBackend",
      "InteractiveMode",
      "LoginDialogComponent",
      "ModelRegistry",
      "ModelSelectorComponent",
      "OAuthSelectorComponent",
      "RpcClient",
      "SessionManager",
      "SessionSelectorComponent",
      "SettingsManager",
      "SettingsSelectorComponent",
      "ShowImagesSelectorComponent",
      "SkillInvocationMessageComponent",
      "Theme",
      "ThemeSelectorComponent",
      "ThinkingSelectorComponent",
      "ToolExecutionComponent",
      "TreeSelectorComponent",
      "UserMessageComponent",
      "UserMessageSelectorComponent",
      "buildSessionContext",
      "calculateContextTokens",
      "collectEntriesForBranchSummary",
      "compact",
      "convertToLlm",
      "copyToClipboard",
      "createAgentSession",
      "createAgentSessionFromServices",
      "createAgentSessionRuntime",
      "createAgentSessionServices",
      "createBashTool",
      "createBashToolDefinition",
      "createCodingTools",
      "createEditTool",
      "createEditToolDefinition",
      "createExtensionRuntime",
      "createFindTool",
      "createFindToolDefinition",
      "createGrepTool",
      "createGrepToolDefinition",
      "createLocalBashOperations",
      "createLsTool",
      "createLsToolDefinition",
      "createReadOnlyTools",
      "createReadTool",
      "createReadToolDefinition",
      "createSyntheticSourceInfo",
      "createWriteTool",
      "createWriteToolDefinition",
      "discoverAndLoadExtensions",
      "estimateTokens",
      "findCutPoint",
      "findTurnStartIndex",
      "formatSkillsForPrompt",
      "generateBranchSummary",
      "generateSummary",
      "getLanguageFromPath",
      "getLastAssistantUsage",
      "getLatestCompactionEntry",
      "getMarkdownTheme",
      "getSelectListTheme",
      "getSettingsListTheme",
      "getShellConfig",
      "highlightCode",
      "initTheme",
      "keyHint",
      "keyText",
      "loadProjectContextFiles",
      "loadSkills",
      "loadSkillsFromDir",
      "main",
      "migrateSessionEntries",
      "parseFrontmatter",
      "parseSessionEntries",
      "parseSkillBlock",
      "prepareBranchEntries",
      "rawKeyHint",
      "renderDiff",
      "runPrintMode",
      "runRpcMode",
      "serializeConversation",
      "shouldCompact",
      "stripFrontmatter",
      "truncateToVisualLines",
      "wrapRegisteredTool",
      "wrapRegisteredTools",
    ],
    values: ["DEFAULT_COMPACTION_SETTINGS"],
    statics: {
      SessionManager: ["create", "open", "continueRecent", "inMemory", "forkFrom", "list", "listAll"],
      SettingsManager: ["create", "fromStorage", "inMemory"],
      ModelRegistry: ["create", "inMemory"],
      AuthStorage: ["create", "fromStorage", "inMemory"],
    },
  });
  addUnsupported(module, CODING_AGENT_16);
  return module;
}

/** `@mariozechner/pi-ai`: TypeBox, StringEnum, the model catalog and one-off LLM calls through the host's providers. */
function aiModule(deps: HostModuleDeps): Record<string, unknown> {
  const stream = (model: Model, context: Context, options?: StreamOptions): AssistantStream =>
    deps.stream(model, context, options);
  const complete = (model: Model, context: Context, options?: StreamOptions) =>
    deps.stream(model, context, options).result();
  const module: Record<string, unknown> = {
    Type: TypeBox.Type,
    StringEnum,
    stream,
    streamSimple: stream,
    complete,
    completeSimple: complete,
    getModel: (provider: string, id: string) => deps.findModel(provider, id),
    getModels: (provider: string) => deps.models().filter((m) => m.provider === provider),
    getProviders: () => [...new Set(deps.models().map((m) => m.provider))],
    calculateCost: (model: Model, usage: Usage) => priceUsage(usage, model).cost,
    modelsAreEqual: (a: Model | null | undefined, b: Model | null | undefined) =>
      a != null && b != null && a.provider === b.provider && a.id === b.id,
    parseStreamingJson: (text: string | undefined) => (text ? parsePartialJson(text) : {}),
    isContextOverflow,
    AssistantMessageEventStream: AssistantEventStream,
    createAssistantMessageEventStream: () => new AssistantEventStream(),
    getCurrentSystemMessage,
    getCurrentSystemPrompt: (messages: Array<{ role: string; content: unknown }>) =>
      systemText(getCurrentSystemMessage(messages)?.content),
  };
  addUnsupported(module, {
    functions: [
      "EventStream",
      "appendAssistantMessageDiagnostic",
      "clampThinkingLevel",
      "cleanupSessionResources",
      "clearApiProviders",
      "createAssistantMessageDiagnostic",
      "extractDiagnosticError",
      "fauxAssistantMessage",
      "fauxText",
      "fauxThinking",
      "fauxToolCall",
      "findEnvKeys",
      "formatThrownValue",
      "getApiProvider",
      "getApiProviders",
      "getEnvApiKey",
      "getOverflowPatterns",
      "getSupportedThinkingLevels",
      "parseJsonWithRepair",
      "registerApiProvider",
      "registerBuiltInApiProviders",
      "registerFauxProvider",
      "registerSessionResourceCleanup",
      "repairJson",
      "resetApiProviders",
      "setBedrockProviderModule",
      "streamAnthropic",
      "streamAzureOpenAIResponses",
      "streamGoogle",
      "streamGoogleVertex",
      "streamMistral",
      "streamOpenAICodexResponses",
      "streamOpenAICompletions",
      "streamOpenAIResponses",
      "streamSimpleAnthropic",
      "streamSimpleAzureOpenAIResponses",
      "streamSimpleGoogle",
      "streamSimpleGoogleVertex",
      "streamSimpleMistral",
      "streamSimpleOpenAICodexResponses",
      "streamSimpleOpenAICompletions",
      "streamSimpleOpenAIResponses",
      "unregisterApiProviders",
      "validateToolArguments",
      "validateToolCall",
    ],
  });
  addUnsupported(module, AI_16);
  return module;
}

/** `@earendil-works/pi-tui`: key ids, text measures and basic components (pi-tui.ts); the rest is pi's own TUI. */
function tuiModule(): Record<string, unknown> {
  const module: Record<string, unknown> = piTuiExports();
  addUnsupported(module, {
    functions: [
      "Box",
      "CancellableLoader",
      "CombinedAutocompleteProvider",
      "Container",
      "Editor",
      "Image",
      "Input",
      "KeybindingsManager",
      "Loader",
      "Markdown",
      "ProcessTerminal",
      "SelectList",
      "SettingsList",
      "Spacer",
      "StdinBuffer",
      "TUI",
      "Text",
      "TruncatedText",
      "allocateImageId",
      "calculateImageRows",
      "decodeKittyPrintable",
      "deleteAllKittyImages",
      "deleteKittyImage",
      "detectCapabilities",
      "encodeITerm2",
      "encodeKitty",
      "fuzzyFilter",
      "fuzzyMatch",
      "getCapabilities",
      "getCellDimensions",
      "getGifDimensions",
      "getImageDimensions",
      "getJpegDimensions",
      "getKeybindings",
      "getPngDimensions",
      "getWebpDimensions",
      "hyperlink",
      "imageFallback",
      "isFocusable",
      "isKeyRelease",
      "isKeyRepeat",
      "isKittyProtocolActive",
      "matchesKey",
      "parseKey",
      "renderImage",
      "resetCapabilitiesCache",
      "setCapabilities",
      "setCellDimensions",
      "setKeybindings",
      "setKittyProtocolActive",
      "truncateToWidth",
      "visibleWidth",
      "wrapTextWithAnsi",
    ],
    values: ["CURSOR_MARKER", "Key", "TUI_KEYBINDINGS"],
  });
  addUnsupported(module, TUI_16);
  return module;
}

/** `@mariozechner/pi-agent-core`: pi's agent loop; pi-host's loop is a plugin, so none of it is offered. */
function agentCoreModule(): Record<string, unknown> {
  const module: Record<string, unknown> = {};
  addUnsupported(module, {
    functions: ["Agent", "agentLoop", "agentLoopContinue", "runAgentLoop", "runAgentLoopContinue", "streamProxy"],
  });
  addUnsupported(module, AGENT_CORE_16);
  return module;
}
