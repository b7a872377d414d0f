/**
 * The `pi` object an extension's factory receives (pi's ExtensionAPI), one per extension. Registration
 * methods record into the extension; actions go to the contracts: the session store (appendEntry,
 * labels), `agent/session` (messages, session name, model, thinking level), owned child processes (exec).
 * As in pi, actions refuse to run while the factory itself runs. Members without a pi-host equivalent
 * throw "not supported yet: <name>".
 */
import type { ThinkingLevel, Model } from "pi-host";
import { isToolOffered, ownedSpawn } from "pi-host";
import type { SendMessageOptions } from "./delivery.js";
import { eventWarning } from "./events.js";
import { registerMembers } from "./api-register.js";
import { execCommand, type ExecOptions } from "./exec.js";
import type { ExtensionRuntime } from "./runtime.js";
import type {
  CustomMessageInput,
  ExtensionCommandDefinition,
  ExtensionFlagDefinition,
  ExtensionHandler,
  ExtensionToolDefinition,
  LoadedExtension,
} from "./types.js";

const THINKING_LEVELS: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh"];

/** Builds pi's ExtensionAPI for one extension. */
export function createExtensionApi(extension: LoadedExtension, runtime: ExtensionRuntime) {
  const { services } = runtime;
  /** pi's rule: actions need the runtime, which is bound only after every factory has run. */
  const acting = (member: string): void => {
    if (extension.loading)
      throw new Error(
        `Extension runtime not initialized. Action methods cannot be called during extension loading (pi.${member}).`,
      );
  };
  const store = (member: string) => {
    acting(member);
    if (!services.store.available) throw new Error(`pi.${member} needs a session store plugin (session-jsonl)`);
    return services.store;
  };
  const session = (member: string) => {
    acting(member);
    if (!services.session.available) throw new Error(`pi.${member} needs the agent-session plugin`);
    return services.session;
  };
  const report = (member: string) => (error: unknown) => runtime.report(extension, `pi.${member}`, error);

  return {
    on(event: string, handler: ExtensionHandler): void {
      if (typeof event !== "string" || event === "") throw new Error("pi.on needs an event name");
      if (typeof handler !== "function") throw new Error(`pi.on("${event}") needs a handler function`);
      const warning = eventWarning(event);
      if (warning !== undefined)
        runtime.notice("warning", `extension ${extension.path}: pi.on("${event}"): ${warning}`);
      extension.handlers.set(event, [...(extension.handlers.get(event) ?? []), handler]);
    },

    registerTool(tool: ExtensionToolDefinition): void {
      if (tool === null || typeof tool !== "object" || typeof tool.name !== "string" || tool.name === "")
        throw new Error("registerTool needs a tool with a name");
      if (typeof tool.execute !== "function") throw new Error(`registerTool("${tool.name}") needs an execute function`);
      if (tool.parameters === null || typeof tool.parameters !== "object")
        throw new Error(`registerTool("${tool.name}") needs TypeBox parameters (Type.Object({...}))`);
      // A tool named like a built-in one replaces it (pi's "Overriding Built-in Tools"), see tool-source.ts.
      extension.tools.set(tool.name, tool);
    },

    registerCommand(name: string, options: ExtensionCommandDefinition): void {
      if (typeof name !== "string" || !/^[\w.-][\w:.-]*$/.test(name))
        throw new Error(
          `registerCommand needs a name of letters, digits, "_", "-", "." or ":", not ${JSON.stringify(name)}`,
        );
      if (options === null || typeof options !== "object" || typeof options.handler !== "function")
        throw new Error(`registerCommand("${name}") needs a handler function`);
      extension.commands.set(name, options);
    },

    ...registerMembers(extension, runtime),

    registerFlag(name: string, options: ExtensionFlagDefinition): void {
      if (typeof name !== "string" || name === "") throw new Error("registerFlag needs a flag name");
      if (options?.type !== "boolean" && options?.type !== "string")
        throw new Error(`registerFlag("${name}") needs type "boolean" or "string"`);
      extension.flags.set(name, options);
    },

    getFlag(name: string): boolean | string | undefined {
      return extension.flags.has(name) ? runtime.flagValue(name) : undefined;
    },

    sendMessage(message: CustomMessageInput, options?: SendMessageOptions): void {
      acting("sendMessage");
      runtime.delivery.sendMessage(message, options);
    },

    sendUserMessage(
      content: Parameters<ExtensionRuntime["delivery"]["sendUserMessage"]>[0],
      options?: { deliverAs?: "steer" | "followUp" },
    ): void {
      session("sendUserMessage");
      runtime.delivery.sendUserMessage(content, options);
    },

    appendEntry(customType: string, data?: unknown): void {
      const target = store("appendEntry");
      const entry = target.api.entry(target.api.appendCustom(customType, data));
      // pi 1.6.0 tells JSON and RPC clients about it.
      if (entry !== undefined) runtime.publish({ type: "entry_appended", entry });
    },

    setSessionName(name: string): void {
      void session("setSessionName").api.setSessionName(name).catch(report("setSessionName"));
    },

    getSessionName(): string | undefined {
      return store("getSessionName").api.current()?.name;
    },

    setLabel(entryId: string, label: string | undefined): void {
      store("setLabel").api.appendLabel(entryId, label);
    },

    exec(command: string, args: string[], options?: ExecOptions) {
      acting("exec");
      return execCommand((c, a, o) => ownedSpawn(services.ctx, c, a, o), command, args, runtime.cwd, options);
    },

    getActiveTools(): string[] {
      acting("getActiveTools");
      const all = allTools(runtime).map((t) => t.name);
      return runtime.activeTools === undefined ? all : all.filter((name) => runtime.activeTools!.has(name));
    },

    getAllTools() {
      acting("getAllTools");
      return allTools(runtime);
    },

    setActiveTools(toolNames: string[]): void {
      acting("setActiveTools");
      if (!Array.isArray(toolNames) || !toolNames.every((n) => typeof n === "string"))
        throw new Error("setActiveTools needs an array of tool names");
      runtime.activeTools = new Set(toolNames);
    },

    getCommands() {
      acting("getCommands");
      return runtime.listCommands();
    },

    async setModel(model: Model): Promise<boolean> {
      const handle = session("setModel");
      if (
        model === null ||
        typeof model !== "object" ||
        typeof model.provider !== "string" ||
        typeof model.id !== "string"
      ) {
        throw new Error("setModel needs a model with provider and id (from ctx.modelRegistry.find)");
      }
      const available = await handle.api.availableModels();
      if (!available.some((m) => m.provider === model.provider && m.id === model.id)) return false;
      await handle.api.setModel(model.provider, model.id);
      return true;
    },

    getThinkingLevel(): ThinkingLevel {
      return session("getThinkingLevel").api.state().thinkingLevel;
    },

    setThinkingLevel(level: ThinkingLevel): void {
      const handle = session("setThinkingLevel");
      if (!THINKING_LEVELS.includes(level))
        throw new Error(
          `setThinkingLevel: unknown level ${JSON.stringify(level)}; use one of ${THINKING_LEVELS.join(", ")}`,
        );
      void handle.api.setThinkingLevel(level).catch(report("setThinkingLevel"));
    },

    events: runtime.events,
  };
}

/** pi's ToolInfo list: tool plugins ("builtin"), extension tools, and any other tool of the latest request. */
function allTools(
  runtime: ExtensionRuntime,
): Array<{ name: string; description: string; parameters: unknown; sourceInfo: unknown }> {
  const out: Array<{ name: string; description: string; parameters: unknown; sourceInfo: unknown }> = [];
  const add = (tool: { name: string; description: string; parameters: unknown }, sourceInfo: unknown): void => {
    if (!out.some((t) => t.name === tool.name))
      out.push({ name: tool.name, description: tool.description, parameters: tool.parameters, sourceInfo });
  };
  const extensionTools = runtime.tools();
  for (const handle of runtime.services.tools.list()) {
    const tool = handle.peek();
    if (!isToolOffered(tool)) continue;
    const override = extensionTools.get(tool.name);
    if (override !== undefined) add(override.definition, override.extension.sourceInfo);
    else add(tool, { path: `<builtin:${tool.name}>`, source: "builtin", scope: "temporary", origin: "top-level" });
  }
  for (const { extension, definition } of extensionTools.values()) add(definition, extension.sourceInfo);
  for (const tool of runtime.lastRequestTools)
    add(tool, { path: `<tool-source:${tool.name}>`, source: "tool-source", scope: "temporary", origin: "top-level" });
  return out;
}
