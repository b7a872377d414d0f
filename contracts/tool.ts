/**
 * The tool contract: what the model can call. Shapes follow pi's AgentTool so pi extensions' tools fit
 * unchanged; the fifth `execute` argument adds what a plugin cannot know on its own — the session's
 * working folder and the lock that serializes writes to one file across every tool plugin.
 */
import type { Static, TSchema } from "@sinclair/typebox";
import { defineContract } from "../kernel/index.js";
import type { ImageContent, TextContent, ToolSpec } from "./ai/index.js";

/** What a tool returns: content for the model, details for logs and UIs. */
export interface ToolResult<TDetails = unknown> {
  content: Array<TextContent | ImageContent>;
  details?: TDetails;
  /** Marks the result as an error without throwing (a thrown error also becomes an error result). */
  isError?: boolean;
  /** Votes to end the run after this batch; the run ends only when every result in the batch votes so. */
  terminate?: boolean;
}

/** Streams partial output while a tool runs (bash output, progress). */
export type ToolUpdate<TDetails = unknown> = (partial: ToolResult<TDetails>) => void;

/** What the running session lends a tool. */
export interface ToolContext {
  /** The session's working folder; relative paths resolve against it. */
  cwd: string;
  /** Runs `work` while holding the write lock of `path` (absolute), so writes to one file never interleave. */
  withFileLock<T>(path: string, work: () => Promise<T>): Promise<T>;
  /**
   * The names of the tools the session offers this turn (its allow-list applied), undeclared ones (a
   * source's tools with an `exposure`) included. A tool that runs
   * other tools (codemode) offers only these, so `--tools` bounds nested calls too. Undefined when the
   * caller does not know the set (a test host); such a tool then uses its own configuration.
   */
  activeToolNames?: readonly string[];
}

/** A tool. `execute` throws (or returns `isError`) on failure; the loop turns either into an error result. */
export interface AgentTool<TParameters extends TSchema = TSchema, TDetails = unknown> extends ToolSpec<TParameters> {
  /** Human-readable name for UIs. */
  label?: string;
  /** Guidance for the system prompt's tool section (one line each). */
  guidelines?: string[];
  /** `sequential` makes any batch containing this tool run one call at a time. */
  executionMode?: "parallel" | "sequential";
  /** Repairs raw arguments (e.g. legacy names) before schema validation. */
  prepareArguments?: (args: unknown) => unknown;
  /**
   * Whether the tool is offered this run (since 1.1.0); absent means always. Lets two plugins provide a
   * tool of one name for different setups — the local `read` and a remote `read` — and the run's
   * choices (the host flags) pick one, without the host naming either plugin. Synchronous and cheap:
   * it is asked each time the turn's tools are assembled.
   */
  enabled?: () => boolean;
  execute(
    toolCallId: string,
    params: Static<TParameters>,
    signal: AbortSignal | undefined,
    onUpdate: ToolUpdate<TDetails> | undefined,
    ctx: ToolContext,
  ): Promise<ToolResult<TDetails>>;
}

/** Every tool plugin provides one slot per tool, keyed by the tool's name. */
export const ToolContract = defineContract<AgentTool<any, any>>({
  id: "tool",
  // 1.1: `enabled`, a tool stepping aside for another of its name.
  version: "1.1.0",
  kind: "many",
  gate: "overlap",
  shape: { name: "string", description: "string", parameters: "object", execute: "function" },
  methods: { prepareArguments: "sync", execute: "async", enabled: "sync" },
});

/** Whether a tool plugin's tool (as peeked from its handle) is offered this run: present and not stepping aside. */
export function isToolOffered<T extends AgentTool<any, any>>(tool: T | undefined): tool is T {
  return tool !== undefined && tool.enabled?.() !== false;
}

/** pi's output limits, shared by every built-in tool. */
export const TOOL_LIMITS = { maxLines: 2_000, maxBytes: 50 * 1024 } as const;

/** A per-path mutex: each path's work runs after the previous work on that path settles. */
export function createFileLocks(): ToolContext["withFileLock"] {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(path: string, work: () => Promise<T>): Promise<T> => {
    const previous = tails.get(path) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.catch(() => undefined);
    tails.set(path, tail);
    void tail.then(() => {
      if (tails.get(path) === tail) tails.delete(path);
    });
    return run;
  };
}

/**
 * A tool as a source lists it: everything but `execute`, which goes through the source. `replacesBuiltin`
 * (pi's "overriding built-in tools": an extension tool named like a built-in one) takes the name over
 * from a tool plugin's tool of that name; without it a name already taken is skipped.
 */
export type ToolSpecOf<T extends AgentTool<any, any> = AgentTool<any, any>> = Omit<T, "execute"> & {
  replacesBuiltin?: boolean;
  /**
   * pi's MCP exposure for a tool the model is not told about (since 1.1.0): `codemode` tools are callable
   * from codemode scripts only, `deferred` ones too and are declared once `tool_search` loads them (the
   * source then lists them without `exposure`). Absent: declared to the model like any tool.
   */
  exposure?: ToolExposure;
  /**
   * Listed but off (since 1.1.0) unless the run's selection names it (`--tools +name`, or `name` in a
   * `--tools` list): pi's tools that are registered inactive, such as `codemode` with no MCP server needing it.
   */
  inactive?: boolean;
};

/** How an undeclared tool is reached: from codemode scripts (`codemode`), or after `tool_search` loads it (`deferred`). */
export type ToolExposure = "codemode" | "deferred";

/**
 * Tools known only at run time: MCP servers' tools, tools an extension registers while running. A source
 * lists its tools before each turn and runs them by name, so each call is admitted by the source's
 * current generation like any other contract call.
 */
export interface ToolSource {
  /**
   * `allowedToolNames` is the session's tool allow-list when it has one (`--tools`), so a tool that
   * describes other tools (codemode) describes only the ones it may call; undefined means no list.
   */
  listTools(cwd: string, allowedToolNames?: readonly string[]): Promise<ToolSpecOf[]>;
  executeTool(
    name: string,
    toolCallId: string,
    params: unknown,
    signal: AbortSignal | undefined,
    onUpdate: ToolUpdate | undefined,
    ctx: ToolContext,
  ): Promise<ToolResult>;
}

export const ToolSourceContract = defineContract<ToolSource>({
  id: "tool/source",
  version: "1.1.0",
  kind: "many",
  gate: "overlap",
  shape: { listTools: "function", executeTool: "function" },
  methods: { listTools: "async", executeTool: "async" },
});
