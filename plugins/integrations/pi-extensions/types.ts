/**
 * The parts of pi's extension types this plugin works with (pi's `ToolDefinition`, `RegisteredCommand`,
 * `SourceInfo`, ...), written structurally: extensions are plain JavaScript at run time, so these shapes
 * are what we can rely on, not pi's own declarations.
 */
import { dirname } from "node:path";
import type { TSchema } from "@sinclair/typebox";
import type { ImageContent, TextContent } from "pi-host";
import type { ToolResult, ToolUpdate } from "pi-host";

/** pi's SourceInfo: where an extension, and so everything it registers, came from. */
export interface SourceInfo {
  path: string;
  source: string;
  scope: "user" | "project" | "temporary";
  origin: "package" | "top-level";
  baseDir?: string;
}

/** A function an extension registers (renderer, transformer, shortcut handler); called with pi's arguments. */
export type ExtensionCallback = (...args: any[]) => unknown;

/** An event handler as an extension registers it; `ctx` is an ExtensionContext. */
export type ExtensionHandler = (event: any, ctx: any) => unknown;

/** pi's ToolDefinition: what `pi.registerTool()` receives. Rendering members are kept but never called. */
export interface ExtensionToolDefinition {
  name: string;
  label?: string;
  description: string;
  parameters: TSchema;
  promptSnippet?: string;
  promptGuidelines?: string[];
  prepareArguments?: (args: unknown) => unknown;
  executionMode?: "sequential" | "parallel";
  execute(
    toolCallId: string,
    params: any,
    signal: AbortSignal | undefined,
    onUpdate: ToolUpdate | undefined,
    ctx: any,
  ): Promise<ToolResult>;
}

/** pi's RegisteredCommand minus name and source: what `pi.registerCommand()` receives. */
export interface ExtensionCommandDefinition {
  description?: string;
  handler(args: string, ctx: any): Promise<void> | void;
  getArgumentCompletions?: unknown;
}

/** pi's flag declaration (`pi.registerFlag`). */
export interface ExtensionFlagDefinition {
  description?: string;
  type: "boolean" | "string";
  default?: boolean | string;
}

/** One loaded extension and everything it registered, in registration order. */
export interface LoadedExtension {
  /** The resolved entry file. */
  path: string;
  sourceInfo: SourceInfo;
  handlers: Map<string, ExtensionHandler[]>;
  tools: Map<string, ExtensionToolDefinition>;
  commands: Map<string, ExtensionCommandDefinition>;
  flags: Map<string, ExtensionFlagDefinition>;
  /** `registerMessageRenderer` / `registerEntryRenderer`, by customType. */
  messageRenderers: Map<string, ExtensionCallback>;
  entryRenderers: Map<string, ExtensionCallback>;
  /** `registerToolRenderer` resolvers, in registration order. */
  toolRenderers: ExtensionCallback[];
  /** `registerMarkdownTransformer`, in registration order. */
  markdownTransformers: Array<{ transformer: ExtensionCallback; options: unknown }>;
  /** `registerShortcut`, by key id. */
  shortcuts: Map<string, { description?: string; handler: ExtensionCallback }>;
  /** True while its factory runs: pi refuses action methods (sendMessage, appendEntry...) then. */
  loading: boolean;
  /** Provider registrations made while the factory ran, applied once it loaded (pi's queue). */
  pending: Array<() => void>;
}

/** The fields of a custom message an extension sends (pi's `Pick<CustomMessage, ...>`). */
export interface CustomMessageInput<T = unknown> {
  customType: string;
  content: string | Array<TextContent | ImageContent>;
  display: boolean;
  details?: T;
}

/** A custom message as it lives in the transcript (role "custom"), as pi builds it. */
export interface CustomMessage<T = unknown> extends CustomMessageInput<T> {
  role: "custom";
  timestamp: number;
  [field: string]: unknown;
}

/** Builds the transcript message for an extension's custom message. */
export function customMessage(input: CustomMessageInput): CustomMessage {
  if (input === null || typeof input !== "object")
    throw new Error("sendMessage needs a message object with customType, content and display");
  if (typeof input.customType !== "string" || input.customType === "")
    throw new Error("sendMessage needs a non-empty customType");
  if (typeof input.content !== "string" && !Array.isArray(input.content))
    throw new Error("sendMessage needs content as a string or an array of text/image blocks");
  return {
    role: "custom",
    customType: input.customType,
    content: input.content,
    display: input.display === true,
    ...(input.details !== undefined && { details: input.details }),
    timestamp: Date.now(),
  };
}

/** A fresh record for an extension found at `location`, before its factory runs. */
export function newExtension(location: { path: string; scope: SourceInfo["scope"] }): LoadedExtension {
  return {
    path: location.path,
    // pi 1.6 calls an extension given with -e "cli", with no baseDir.
    sourceInfo:
      location.scope === "temporary"
        ? { path: location.path, source: "cli", scope: "temporary", origin: "top-level" }
        : {
            path: location.path,
            source: "local",
            scope: location.scope,
            origin: "top-level",
            baseDir: dirname(location.path),
          },
    handlers: new Map(),
    tools: new Map(),
    commands: new Map(),
    flags: new Map(),
    messageRenderers: new Map(),
    entryRenderers: new Map(),
    toolRenderers: [],
    markdownTransformers: [],
    shortcuts: new Map(),
    loading: true,
    pending: [],
  };
}
