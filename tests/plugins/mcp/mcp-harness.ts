/**
 * Test helpers for the MCP plugin: the real MCP servers from node_modules as stdio entries, the plugin
 * as a harness entry with config, and a look inside the running source (server processes, status).
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { SessionEvent } from "../../../contracts/agent-session.js";
import { ToolSourceContract } from "../../../contracts/tool.js";
import type { Kernel, PluginEntry } from "../../../kernel/index.js";
import mcpPlugin from "../../../plugins/integrations/mcp/index.js";
import type { McpToolSource } from "../../../plugins/integrations/mcp/mcp-source.js";

const require = createRequire(import.meta.url);

/** The entry script of an installed MCP server package. */
function serverScript(pkg: string): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), "dist", "index.js");
}

/** `@modelcontextprotocol/server-everything` over stdio. */
export function everythingServer(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    command: process.execPath,
    args: [serverScript("@modelcontextprotocol/server-everything"), "stdio"],
    ...extra,
  };
}

/** `@modelcontextprotocol/server-filesystem` over stdio, allowed to touch `root` only. */
export function filesystemServer(root: string): Record<string, unknown> {
  return { command: process.execPath, args: [serverScript("@modelcontextprotocol/server-filesystem"), root] };
}

/** A server that starts but never answers `initialize`. */
export function silentServer(): Record<string, unknown> {
  return { command: process.execPath, args: ["-e", "setInterval(() => {}, 1 << 30)"] };
}

/**
 * The MCP plugin as a harness entry. Tools are declared (`defaultExposure: "direct"`) unless the config
 * says otherwise, so tests of calls and results can have the model call them by name.
 */
export function mcpEntry(config: Record<string, unknown>): PluginEntry {
  return {
    id: "mcp",
    source: { kind: "inline", label: "mcp", definition: mcpPlugin },
    config: { defaultExposure: "direct", ...config },
  };
}

/** The running plugin's source object, for looking at server processes. */
export function mcpSource(kernel: Kernel): McpToolSource {
  const handle = kernel
    .useAll(ToolSourceContract)
    .list()
    .find((h) => h.pluginId === "mcp");
  if (handle === undefined) throw new Error("the mcp plugin provides no tool source");
  return handle.peek() as McpToolSource;
}

/** The pid of a running server, or undefined. */
export async function serverPid(kernel: Kernel, name: string): Promise<number | undefined> {
  const status = (await mcpSource(kernel).servers()).find((s) => s.spec.name === name);
  return status?.connection?.pid;
}

/** Resolves when `pid` has exited (polling `kill 0`, since the process is not our child). */
export async function exited(pid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Whether a process with this pid is alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The notices among session events. */
export function notices(events: SessionEvent[]): Array<{ level: string; message: string }> {
  return events.flatMap((e) => (e.type === "notice" ? [{ level: e.level, message: e.message }] : []));
}
