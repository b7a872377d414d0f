/**
 * pi's events that can change what happens, as a hooks contract provider:
 *
 *   beforePrompt     → extension commands (`/name args` runs the command instead of a model request),
 *                      then `input` (transform or handle the text);
 *   transformContext → messages delivered into the run (delivery.ts), then `context`;
 *   prepareRequest   → `before_agent_start` on a run's first request after a prompt (inject a message,
 *                      change the system prompt for the run), `setActiveTools` (tools the model sees),
 *                      then `context_with_system`, `before_provider_headers`, `before_provider_request`
 *                      (provider-hooks.ts);
 *   beforeToolCall   → `tool_call` (block with a reason; `event.input` is the live arguments object);
 *   afterToolCall    → `tool_result` (patch content, details, isError; handlers chain);
 *   endMessage       → `message_end` handlers that replace a message before it is saved (message-end.ts).
 *
 * Every hook first loads the extensions (once), so the first prompt or turn of a run brings them up.
 */
import type { AfterToolCallResult, AgentMessage, BeforeToolCallResult, ToolCallInfo } from "pi-host";
import type { Context, ImageContent, Message, StreamOptions } from "pi-host";
import type { AgentHooks, PromptCommandInfo } from "pi-host";
import type { ToolResult } from "pi-host";
import { messageOf, type ExtensionRuntime, type ResolvedCommand } from "./runtime.js";
import { endMessage } from "./message-end.js";
import { providerHooks } from "./provider-hooks.js";
import { beforeSessionChange } from "./session-control.js";
import { customMessage, type CustomMessageInput } from "./types.js";

/** The hooks provider of one plugin generation. */
export function createExtensionHooks(
  runtime: ExtensionRuntime,
): Required<
  Pick<
    AgentHooks,
    | "commands"
    | "beforePrompt"
    | "transformContext"
    | "prepareRequest"
    | "beforeToolCall"
    | "afterToolCall"
    | "beforeSessionChange"
    | "endMessage"
  >
> {
  return {
    endMessage: (message) => endMessage(runtime, message),
    async beforeSessionChange(change) {
      await runtime.ensureLoaded();
      if (runtime.extensions.length === 0) return undefined;
      await runtime.drained();
      return beforeSessionChange(runtime, change);
    },
    async commands() {
      await runtime.ensureLoaded();
      return runtime.listCommands().filter((c) => c.source === "extension") as PromptCommandInfo[];
    },
    async beforePrompt({ text, images }) {
      runtime.sessionInUse = true;
      await runtime.ensureLoaded();
      if (runtime.extensions.length === 0) return undefined;
      await runtime.previewSystemPrompt();
      // Handlers hear what happened before this prompt (the last run's events) before its command runs.
      await runtime.drained();
      runtime.inPromptPhase = true;
      try {
        return await promptThroughExtensions(runtime, text, images);
      } finally {
        runtime.inPromptPhase = false;
      }
    },

    async transformContext(messages, signal) {
      await runtime.ensureLoaded();
      const delivered = runtime.delivery.transcript(messages, signal);
      if (!runtime.hasHandlers("context")) return delivered === messages ? undefined : delivered;
      let current: AgentMessage[] = structuredClone(delivered);
      const ctx = runtime.context();
      for (const { extension, handler } of runtime.handlers("context")) {
        try {
          const result = (await handler({ type: "context", messages: current }, ctx)) as
            | { messages?: AgentMessage[] }
            | undefined;
          if (Array.isArray(result?.messages)) current = result.messages;
        } catch (error) {
          runtime.report(extension, "context", error);
        }
      }
      return current;
    },

    async prepareRequest(request) {
      await runtime.ensureLoaded();
      runtime.baseSystemPrompt = request.context.systemPrompt;
      runtime.lastRequestTools = (request.context.tools ?? []).map((t) => ({
        name: t.name,
        description: t.description,
        parameters: t.parameters,
      }));
      const due = runtime.delivery.takeBeforeAgentStart();
      const injected =
        due === undefined ? [] : await beforeAgentStart(runtime, request.context.systemPrompt ?? "", due.prompt);
      const chosen = applyRunChoices(runtime, request, injected);
      return (await providerHooks(runtime, chosen ?? request)) ?? chosen;
    },

    async beforeToolCall(call, signal) {
      await runtime.ensureLoaded();
      if (signal !== undefined) runtime.delivery.signal = signal;
      const name = call.toolCall.name;
      if (runtime.activeTools !== undefined && !runtime.activeTools.has(name)) {
        return {
          block: true,
          reason: `Tool "${name}" is not active; the active tools are: ${[...runtime.activeTools].join(", ") || "none"}`,
        };
      }
      if (!runtime.hasHandlers("tool_call")) return undefined;
      // pi lets handlers see every event emitted before this call first.
      await runtime.drained();
      return toolCall(runtime, call);
    },

    async afterToolCall(call, signal) {
      await runtime.ensureLoaded();
      if (signal !== undefined) runtime.delivery.signal = signal;
      if (!runtime.hasHandlers("tool_result")) return undefined;
      return toolResult(runtime, call);
    },
  };
}

/** Commands first (pi checks them before `input`), then `input` handlers. */
async function promptThroughExtensions(
  runtime: ExtensionRuntime,
  text: string,
  images: ImageContent[] | undefined,
): Promise<{ text?: string; images?: ImageContent[]; handled?: boolean } | undefined> {
  await runtime.refreshResourceCommands();
  let current = text;
  let currentImages = images;
  let source: "interactive" | "extension" = runtime.delivery.takeOwnPrompt(text) ? "extension" : "interactive";
  const command = source === "interactive" ? findCommand(runtime, text) : undefined;
  if (command !== undefined) {
    const replacement = await runCommand(runtime, command.command, command.args);
    if (replacement === undefined) return { handled: true };
    current = replacement.text;
    currentImages = replacement.images;
    source = "extension";
  }
  if (runtime.hasHandlers("input")) {
    const result = await input(runtime, current, currentImages, source);
    if (result === "handled") return { handled: true };
    [current, currentImages] = [result.text, result.images];
  }
  if (current === text && currentImages === images) return undefined;
  return { text: current, ...(currentImages !== images && { images: currentImages ?? [] }) };
}

/** The extension command a prompt names (`/name args`, split at the first space as pi does). */
function findCommand(runtime: ExtensionRuntime, text: string): { command: ResolvedCommand; args: string } | undefined {
  if (!text.startsWith("/")) return undefined;
  const space = text.indexOf(" ");
  const name = space === -1 ? text.slice(1) : text.slice(1, space);
  const command = runtime.commands().find((c) => c.invocationName === name);
  return command === undefined ? undefined : { command, args: space === -1 ? "" : text.slice(space + 1) };
}

/**
 * Runs a command handler; returns the text its first `sendUserMessage` asked to send, if any. A failing
 * handler is reported and the prompt counts as handled, as in pi. A handler that changes the session
 * (session-control.ts) detaches: the prompt ends as handled and the handler goes on once it is free.
 * The first `sendUserMessage` lets the prompt go on with that text at once, the handler still running
 * beside the run it started, as in pi (a handler may wait for that run with `ctx.waitForIdle()`).
 */
async function runCommand(
  runtime: ExtensionRuntime,
  command: ResolvedCommand,
  args: string,
): Promise<{ text: string; images?: ImageContent[] } | undefined> {
  let detach!: () => void;
  const detached = new Promise<"detached">((resolve) => {
    detach = () => resolve("detached");
  });
  let markSent!: () => void;
  const sending = new Promise<"sent">((resolve) => {
    markSent = () => resolve("sent");
  });
  const scope = {
    replacement: undefined as { text: string; images?: ImageContent[] } | undefined,
    detach,
    sent: false,
    send() {
      scope.sent = true;
      markSent();
    },
  };
  runtime.delivery.commandScope = scope;
  const running = (async () => {
    try {
      await command.definition.handler(args, runtime.commandContext());
    } catch (error) {
      runtime.report(command.extension, `/${command.invocationName}`, error);
    } finally {
      if (runtime.delivery.commandScope === scope) runtime.delivery.commandScope = undefined;
    }
    return "done" as const;
  })();
  const how = await Promise.race([running, detached, sending]);
  return how === "detached" ? undefined : scope.replacement;
}

/** pi's `input` event: transforms chain (text and images), the first "handled" ends it. */
async function input(
  runtime: ExtensionRuntime,
  text: string,
  images: ImageContent[] | undefined,
  source: "interactive" | "extension",
): Promise<{ text: string; images?: ImageContent[] } | "handled"> {
  let current = text;
  let currentImages = images;
  const ctx = runtime.context();
  for (const { extension, handler } of runtime.handlers("input")) {
    try {
      const result = (await handler({ type: "input", text: current, images: currentImages, source }, ctx)) as
        | { action?: string; text?: string; images?: ImageContent[] }
        | undefined;
      if (result?.action === "handled") return "handled";
      if (result?.action === "transform") {
        if (typeof result.text !== "string") throw new Error('an "input" transform needs the new text');
        if (result.images !== undefined && !Array.isArray(result.images))
          throw new Error('an "input" transform\'s images must be an array of image blocks');
        current = result.text;
        if (result.images !== undefined) currentImages = result.images;
      }
    } catch (error) {
      runtime.report(extension, "input", error);
    }
  }
  return { text: current, ...(currentImages !== undefined && { images: currentImages }) };
}

/**
 * pi's `before_agent_start`, on the first request after a prompt: handlers see the prompt and the system
 * prompt as changed by earlier handlers; their messages follow the prompt (saved now; returned to be sent
 * with this request); the last system prompt holds for the whole run.
 */
async function beforeAgentStart(
  runtime: ExtensionRuntime,
  baseSystemPrompt: string,
  prompt: AgentMessage,
): Promise<Message[]> {
  runtime.delivery.systemPromptOverride = undefined;
  if (!runtime.hasHandlers("before_agent_start")) return [];
  const { text, images } = promptParts(prompt);
  const injected: Message[] = [];
  let systemPrompt = baseSystemPrompt;
  let changed = false;
  const ctx = runtime.context();
  ctx.getSystemPrompt = () => systemPrompt;
  for (const { extension, handler } of runtime.handlers("before_agent_start")) {
    try {
      const event = {
        type: "before_agent_start",
        prompt: text,
        images,
        systemPrompt,
        systemPromptOptions: { cwd: runtime.cwd },
      };
      const result = (await handler(event, ctx)) as { message?: CustomMessageInput; systemPrompt?: string } | undefined;
      if (result?.message !== undefined)
        injected.push(runtime.delivery.deliverAfter(prompt, customMessage(result.message)));
      if (result?.systemPrompt !== undefined) {
        if (typeof result.systemPrompt !== "string")
          throw new Error("before_agent_start: systemPrompt must be a string");
        systemPrompt = result.systemPrompt;
        changed = true;
      }
    } catch (error) {
      runtime.report(extension, "before_agent_start", error);
    }
  }
  if (changed) runtime.delivery.systemPromptOverride = systemPrompt;
  return injected;
}

/**
 * A request with the run's choices applied — messages `before_agent_start` added (after the prompt, which
 * ends the first request's messages), its system prompt, the active tools — or undefined when none apply.
 */
function applyRunChoices(
  runtime: ExtensionRuntime,
  request: { context: Context; options: StreamOptions },
  injected: Message[],
): { context: Context; options: StreamOptions } | undefined {
  const systemPrompt = runtime.delivery.systemPromptOverride;
  const active = runtime.activeTools;
  const tools =
    active === undefined || request.context.tools === undefined
      ? request.context.tools
      : request.context.tools.filter((t) => active.has(t.name));
  if (systemPrompt === undefined && tools === request.context.tools && injected.length === 0) return undefined;
  const messages = injected.length === 0 ? request.context.messages : [...request.context.messages, ...injected];
  return {
    ...request,
    context: { ...request.context, messages, ...(systemPrompt !== undefined && { systemPrompt }), tools },
  };
}

/** pi's `tool_call`: the first block wins; a throwing handler blocks the call (pi's fail-safe). */
async function toolCall(runtime: ExtensionRuntime, call: ToolCallInfo): Promise<BeforeToolCallResult | undefined> {
  const event = { type: "tool_call", toolCallId: call.toolCall.id, toolName: call.toolCall.name, input: call.args };
  const ctx = runtime.context();
  for (const { extension, handler } of runtime.handlers("tool_call")) {
    try {
      const result = (await handler(event, ctx)) as { block?: boolean; reason?: string } | undefined;
      if (result?.block)
        return {
          block: true,
          reason: result.reason ?? `The call to "${call.toolCall.name}" was blocked by an extension.`,
        };
    } catch (error) {
      runtime.report(extension, "tool_call", error);
      return { block: true, reason: `Extension failed, blocking execution: ${messageOf(error)}` };
    }
  }
  return undefined;
}

/** pi's `tool_result`: each handler sees the previous one's changes; returns the changes, if any. */
async function toolResult(
  runtime: ExtensionRuntime,
  call: ToolCallInfo & { result: ToolResult; isError: boolean },
): Promise<AfterToolCallResult | undefined> {
  const event = {
    type: "tool_result",
    toolCallId: call.toolCall.id,
    toolName: call.toolCall.name,
    input: call.args,
    content: call.result.content,
    details: call.result.details,
    isError: call.isError,
  };
  let modified = false;
  const ctx = runtime.context();
  for (const { extension, handler } of runtime.handlers("tool_result")) {
    try {
      const result = (await handler({ ...event }, ctx)) as
        | { content?: ToolResult["content"]; details?: unknown; isError?: boolean }
        | undefined;
      if (result === undefined || result === null) continue;
      if (result.content !== undefined) event.content = result.content;
      if (result.details !== undefined) event.details = result.details;
      if (result.isError !== undefined) event.isError = result.isError;
      modified ||= result.content !== undefined || result.details !== undefined || result.isError !== undefined;
    } catch (error) {
      runtime.report(extension, "tool_result", error);
    }
  }
  return modified ? { content: event.content, details: event.details, isError: event.isError } : undefined;
}

/** A prompt message's text and images, as `before_agent_start` reports them. */
function promptParts(message: AgentMessage): { text: string; images: ImageContent[] | undefined } {
  const content = (message as { content?: unknown }).content;
  if (typeof content === "string") return { text: content, images: undefined };
  if (!Array.isArray(content)) return { text: "", images: undefined };
  const text = content
    .filter((b: { type: string }) => b.type === "text")
    .map((b: { text: string }) => b.text)
    .join("\n");
  const images = content.filter((b: { type: string }): b is ImageContent => b.type === "image");
  return { text, images: images.length > 0 ? images : undefined };
}
