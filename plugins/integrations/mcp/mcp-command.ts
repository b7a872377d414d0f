/**
 * `/mcp`: the user's switchboard for MCP servers. There is no command contract yet, so the plugin
 * catches the text through the `beforePrompt` hook (HooksContract), answers with a notice on the
 * session bus, and consumes the prompt so it never reaches the model:
 *
 *   /mcp                    list the configured servers and their state
 *   /mcp enable <name>      turn a server on (it starts on the next turn)
 *   /mcp disable <name>     turn a server off (its process ends now)
 *   /mcp restart <name>     start a server again now, e.g. after it failed to start
 *
 * Toggles live in the plugin's state: they survive reloads of the plugin for this run, and override
 * `disabled` in settings or in the plugin config.
 */
import type { McpToolSource, ServerStatus } from "./mcp-source.js";

/** What the command changes and reports through. */
export interface McpCommandHost {
  source: McpToolSource;
  toggles(): Record<string, boolean>;
  setToggle(name: string, enabled: boolean): void;
  notice(level: "info" | "warning" | "error", message: string): void;
}

const USAGE = "usage: /mcp [list | enable <server> | disable <server> | restart <server>]";

/** Runs `/mcp ...` and returns true; returns false for any other text (left for the model). */
export async function handleMcpCommand(text: string, host: McpCommandHost): Promise<boolean> {
  const match = /^\/mcp(?:\s+(\S+)(?:\s+(\S+))?)?\s*$/.exec(text.trim());
  if (match === null) return false;
  const [, verb = "list", name] = match;
  try {
    const statuses = await host.source.servers();
    if (verb === "list" || verb === "status") {
      host.notice(
        "info",
        statuses.length === 0
          ? 'No MCP servers are configured (mcp.json or settings.json "mcpServers").'
          : statuses.map(describeStatus).join("\n"),
      );
      return true;
    }
    if (name === undefined || !["enable", "disable", "restart"].includes(verb)) {
      host.notice("warning", USAGE);
      return true;
    }
    if (!statuses.some((s) => s.spec.name === name)) {
      const known = statuses.map((s) => s.spec.name).join(", ") || "none";
      host.notice("warning", `/mcp ${verb}: no MCP server is named "${name}" (configured: ${known})`);
      return true;
    }
    if (verb === "enable" || verb === "disable") {
      host.setToggle(name, verb === "enable");
      host.source.forgetNotices(name);
      await host.source.servers();
      host.notice(
        "info",
        verb === "enable"
          ? `MCP server "${name}" enabled; it starts on the next turn`
          : `MCP server "${name}" disabled`,
      );
      return true;
    }
    const count = await host.source.restart(name);
    host.notice("info", `MCP server "${name}" restarted: ${count} tool(s)`);
  } catch (error) {
    host.notice("warning", `/mcp ${verb}: ${(error as Error).message}`);
  }
  return true;
}

/** One line per server: name, transport, state. */
function describeStatus(status: ServerStatus): string {
  const { spec, enabled, connection } = status;
  const where = spec.transport === "http" ? spec.url : [spec.command, ...spec.args].join(" ");
  let state: string;
  if (!enabled) state = "disabled";
  else if (connection === undefined || connection.status === "stopped")
    state = "not running (starts when tools are next listed)";
  else if (connection.status === "starting") state = "starting";
  else if (connection.status === "failed") state = `failed: ${connection.failure}`;
  else state = `running${connection.pid === undefined ? "" : ` (pid ${connection.pid})`}`;
  return `${spec.name} [${spec.transport}] ${where}: ${state}`;
}
