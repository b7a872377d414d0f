/**
 * The tools a codemode script may call, and how one such nested call runs: the same steps the agent
 * loop takes for a top-level call — `prepareArguments`, TypeBox validation against the tool's schema,
 * every `beforeToolCall` hook in order (the first block wins), the tool itself, then every
 * `afterToolCall` hook in order — but none of it becomes a session entry: the script gets the text.
 */
import { Value } from "@sinclair/typebox/value";
import type { BeforeToolCallResult, ToolCallInfo } from "pi-host";
import { isToolOffered, newAssistantMessage, type ToolCall } from "pi-host";
import type { AgentHooks } from "pi-host";
import type { AgentTool, ToolContext, ToolResult, ToolSource, ToolSpecOf } from "pi-host";
import type { Handle, ManyHandle } from "pi-host";

/** A tool as a script sees it: its spec and a way to run it. */
export interface NestedTool {
  spec: ToolSpecOf;
  execute(toolCallId: string, args: unknown, signal: AbortSignal | undefined, ctx: ToolContext): Promise<ToolResult>;
}

/** Where tools come from, minus the codemode plugin itself. */
export interface ToolProviders {
  tools: ManyHandle<AgentTool<any, any>>;
  sources: ManyHandle<ToolSource>;
  /** This plugin's id: its own tool is never offered to its scripts. */
  selfPluginId: string;
}

/**
 * Every tool the session would offer, in the session's order (ToolContract tools, then each tool
 * source's; the first of a name wins), filtered by `allow` (undefined = all) and `deny`, and by
 * `active` — the session's active tool names (undefined = unknown, no filter) — so a script never
 * reaches a tool the session itself does not offer (`--tools codemode,read` means no bash).
 */
export async function listNestedTools(
  providers: ToolProviders,
  cwd: string,
  allow: string[] | undefined,
  deny: string[],
  active: readonly string[] | undefined,
): Promise<NestedTool[]> {
  const out: NestedTool[] = [];
  const add = (spec: ToolSpecOf, execute: NestedTool["execute"]): void => {
    if (
      deny.includes(spec.name) ||
      (allow !== undefined && !allow.includes(spec.name)) ||
      (active !== undefined && !active.includes(spec.name))
    )
      return;
    if (out.some((t) => t.spec.name === spec.name)) return;
    out.push({ spec, execute });
  };
  for (const handle of providers.tools.list()) {
    const tool = handle.peek();
    if (!isToolOffered(tool) || handle.pluginId === providers.selfPluginId) continue;
    add(tool, (id, args, signal, ctx) => handle.api.execute(id, args as never, signal, undefined, ctx));
  }
  const listings = await Promise.all(
    providers.sources
      .list()
      .filter((source) => source.pluginId !== providers.selfPluginId)
      .map(async (source) => ({ source, specs: await source.api.listTools(cwd).catch((): ToolSpecOf[] => []) })),
  );
  for (const { source, specs } of listings) {
    for (const spec of specs)
      add(spec, (id, args, signal, ctx) => source.api.executeTool(spec.name, id, args, signal, undefined, ctx));
  }
  return out;
}

/** What one nested call knows about where it runs. */
export interface NestedCallScope {
  signal: AbortSignal | undefined;
  ctx: ToolContext;
  hooks: ManyHandle<AgentHooks>;
}

/** A nested call's outcome: the text the script receives, and whether it is an error. */
export interface NestedOutcome {
  text: string;
  isError: boolean;
}

/**
 * Runs one nested call through validation and the hooks. Never throws: a refusal, a block or a
 * failure comes back as `isError` with the reason, which the sandbox turns into a thrown Error.
 */
export async function runNestedCall(
  tool: NestedTool,
  rawArgs: unknown,
  callId: string,
  scope: NestedCallScope,
): Promise<NestedOutcome> {
  const { spec } = tool;
  let args: unknown = rawArgs ?? {};
  try {
    if (spec.prepareArguments) args = spec.prepareArguments(args);
  } catch (error) {
    return { text: `Invalid arguments for "${spec.name}": ${(error as Error).message}`, isError: true };
  }
  if (!Value.Check(spec.parameters, args)) {
    const problems = [...Value.Errors(spec.parameters, args)].slice(0, 5).map((e) => `${e.path || "/"}: ${e.message}`);
    return { text: `Invalid arguments for "${spec.name}": ${problems.join("; ")}`, isError: true };
  }
  const info = callInfo(spec.name, args, callId);
  const verdict = await beforeToolCall(scope.hooks, info, scope.signal);
  if (verdict?.block) return { text: verdict.reason ?? `The call to "${spec.name}" was blocked.`, isError: true };

  let result: ToolResult;
  let isError: boolean;
  try {
    result = await tool.execute(callId, args, scope.signal, scope.ctx);
    isError = result.isError === true;
  } catch (error) {
    result = { content: [{ type: "text", text: error instanceof Error ? error.message : String(error) }] };
    isError = true;
  }
  for (const h of providersOf(scope.hooks, "afterToolCall")) {
    const change = await h.api.afterToolCall({ ...info, result, isError }, scope.signal);
    if (change === undefined) continue;
    result = {
      ...result,
      ...(change.content !== undefined && { content: change.content }),
      ...(change.details !== undefined && { details: change.details }),
    };
    isError = change.isError ?? isError;
  }
  return { text: resultText(result), isError };
}

async function beforeToolCall(
  hooks: ManyHandle<AgentHooks>,
  info: ToolCallInfo,
  signal: AbortSignal | undefined,
): Promise<BeforeToolCallResult | undefined> {
  for (const h of providersOf(hooks, "beforeToolCall")) {
    const verdict = await h.api.beforeToolCall(info, signal);
    if (verdict?.block) return verdict;
  }
  return undefined;
}

/** The hook providers that implement `name`, in distribution order (as the session composes them). */
function providersOf(hooks: ManyHandle<AgentHooks>, name: keyof AgentHooks): Array<Handle<AgentHooks>> {
  return hooks.list().filter((h) => typeof h.peek()?.[name] === "function");
}

/**
 * What hooks see of a nested call. The contract's ToolCallInfo wants the assistant message and the
 * transcript, which a tool does not receive; a nested call shows an assistant message holding just
 * itself (api/provider "codemode") and an empty transcript.
 */
function callInfo(name: string, args: unknown, id: string): ToolCallInfo {
  const toolCall: ToolCall = { type: "toolCall", id, name, arguments: args as Record<string, unknown> };
  const assistantMessage = {
    ...newAssistantMessage({ api: "codemode", provider: "codemode", id: "codemode" }),
    content: [toolCall],
    stopReason: "toolUse" as const,
  };
  return { assistantMessage, toolCall, args, messages: [] };
}

/** A tool result as the text a script receives: its text blocks, images as a placeholder. */
function resultText(result: ToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : `[image ${block.mimeType}]`)).join("\n");
}
