/**
 * The `register*` members of pi 1.6.0's ExtensionAPI beyond tools, commands and flags, and the members
 * that read what extensions registered (`getMcpServers`, `getSettings`). Renderers, transformers and
 * shortcuts are recorded on the extension; the runtime offers them to user interfaces
 * (`ExtensionRuntime.shortcut`, `renderers`). Providers and virtual models go to the model catalog
 * (providers.ts).
 */
import type { ExtensionRuntime } from "./runtime.js";
import type { ExtensionCallback, LoadedExtension } from "./types.js";

const MESSAGE_TYPES = ["user", "assistant", "assistant-thinking", "custom", "summary", "changelog"];

function callback(member: string, value: unknown): ExtensionCallback {
  if (typeof value !== "function") throw new Error(`${member} needs a function`);
  return value as ExtensionCallback;
}

function typeName(member: string, value: unknown): string {
  if (typeof value !== "string" || value === "") throw new Error(`${member} needs a customType string`);
  return value;
}

/** The register members, bound to one extension. */
export function registerMembers(extension: LoadedExtension, runtime: ExtensionRuntime) {
  return {
    registerMessageRenderer(customType: string, renderer: unknown): void {
      extension.messageRenderers.set(
        typeName("registerMessageRenderer", customType),
        callback("registerMessageRenderer", renderer),
      );
    },

    registerEntryRenderer(customType: string, renderer: unknown): void {
      extension.entryRenderers.set(
        typeName("registerEntryRenderer", customType),
        callback("registerEntryRenderer", renderer),
      );
    },

    registerToolRenderer(resolver: unknown): void {
      extension.toolRenderers.push(callback("registerToolRenderer", resolver));
    },

    /** One transformer per extension: registering again replaces it, as in pi. */
    registerMarkdownTransformer(transformer: unknown, options: { messageTypes?: string[] } = {}): void {
      const fn = callback("registerMarkdownTransformer", transformer);
      const types = options?.messageTypes;
      if (types !== undefined && (!Array.isArray(types) || !types.every((t) => MESSAGE_TYPES.includes(t))))
        throw new Error(`registerMarkdownTransformer: messageTypes are among ${MESSAGE_TYPES.join(", ")}`);
      extension.markdownTransformers.splice(0, extension.markdownTransformers.length, {
        transformer: fn,
        options: { messageTypes: types ?? ["user", "assistant", "assistant-thinking"] },
      });
    },

    registerShortcut(shortcut: string, options: { description?: string; handler?: unknown }): void {
      if (typeof shortcut !== "string" || shortcut === "") throw new Error("registerShortcut needs a key id");
      extension.shortcuts.set(shortcut.toLowerCase(), {
        description: options?.description,
        handler: callback(`registerShortcut("${shortcut}")`, options?.handler),
      });
    },

    registerMcpServer(name: string, config: Record<string, unknown>): void {
      if (typeof name !== "string" || name === "") throw new Error("registerMcpServer needs a server name");
      if (config === null || typeof config !== "object") throw new Error(`registerMcpServer("${name}") needs a config`);
      runtime.mcpServers.set(name, { ...config });
      if (!extension.loading) runtime.queue({ type: "mcp_servers_change", servers: runtime.mcpServerList() });
    },

    unregisterMcpServer(name: string): void {
      if (runtime.mcpServers.delete(name) && !extension.loading)
        runtime.queue({ type: "mcp_servers_change", servers: runtime.mcpServerList() });
    },

    getMcpServers() {
      return runtime.mcpServerList();
    },

    /** A copy of the effective settings (global and project merged), as read when extensions loaded. */
    getSettings(): Record<string, unknown> {
      return structuredClone(runtime.settingsSnapshot);
    },

    ...runtime.providers.members(extension),
  };
}
