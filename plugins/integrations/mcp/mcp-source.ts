/**
 * The MCP tool source: every configured, enabled MCP server's tools, offered to the agent each turn as
 * `mcp__<server>__<tool>`, plus `list_resources` / `read_resource` and `list_prompts` / `get_prompt`
 * helpers for servers that offer resources or prompts. Servers start on the first listing that needs
 * them (never at boot), in parallel, each bounded by a timeout: one that fails is reported once and left
 * out while the others work. A server whose process dies is reported and started again on next use.
 */
import type { ChildProcess, SpawnOptions } from "node:child_process";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { SettingsStore } from "pi-host";
import type { ToolContext, ToolResult, ToolSource, ToolSpecOf, ToolUpdate } from "pi-host";
import type { Handle } from "pi-host";
import { McpServerError, ServerConnection, type ConnectionHost } from "./connection.js";
import { checkableSchema } from "./json-schema.js";
import { parseServers, sameServer, type ServerProblem, type ServerSpec } from "./server-config.js";
import { mcpToolName } from "./tool-names.js";
import { helperTools, type Route } from "./helper-tools.js";
import { toolExposureOf, widestExposure, type Exposure } from "./exposure.js";
import { runToolSearch, TOOL_SEARCH, toolSearchSpec } from "./tool-search.js";
import type { RankedTool } from "pi-host";
import { promptResult, resourceResult, toolResultFromMcp } from "./tool-result.js";

/** What the source needs from its plugin: config, toggles, owned processes and the notice channel. */
export interface McpSourceHost {
  /** Servers from the plugin's config (a distribution's defaults). */
  configServers: Record<string, unknown> | undefined;
  /** Whether settings.json `mcpServers` count (on by default). */
  readSettings: boolean;
  /** Server names the plugin config turns off. */
  configDisabled: string[];
  /** Whether resource/prompt helper tools are offered. */
  exposeResources: boolean;
  startTimeoutMs: number;
  callTimeoutMs: number;
  clientVersion: string;
  settings: Handle<SettingsStore> | undefined;
  /** Whether MCP is off for this run (`--no-mcp`): then no server is configured, so none starts. */
  off(): boolean;
  /** Servers of `<agentDir>/mcp.json` and, in a trusted project, `.pi/mcp.json` (see mcp-files.ts). */
  mcpFiles(cwd: string): Promise<{ specs: ServerSpec[]; problems: ServerProblem[] }>;
  /** `/mcp enable|disable` choices, which override config and settings; kept in plugin state. */
  toggles(): Record<string, boolean>;
  spawn(command: string, args: readonly string[], options: SpawnOptions): ChildProcess;
  notice(level: "info" | "warning" | "error", message: string): void;
  /** The exposure of tools whose server sets none (pi 1.6: `codemode`). */
  defaultExposure: Exposure;
  /** The tools `tool_search` loaded on the session's current branch (declared from then on). */
  loadedTools(): Set<string>;
  /** The OAuth provider of an HTTP server that signs in (stored in `<agentDir>/mcp-auth.json`). */
  oauthProvider?: ConnectionHost["oauthProvider"];
}

/** A configured server and whether it runs. */
export interface ServerStatus {
  spec: ServerSpec;
  enabled: boolean;
  connection: ServerConnection | undefined;
}

/** The ToolSource every MCP server's tools reach the agent through; one per plugin generation. */
export class McpToolSource implements ToolSource {
  private readonly connections = new Map<string, ServerConnection>();
  private routes = new Map<string, Route>();
  /** The undeclared tools of the last listing, which `tool_search` ranks. */
  private searchable: RankedTool[] = [];
  private readonly reported = new Set<string>();
  private readonly schemas = new WeakMap<Tool, ReturnType<typeof checkableSchema> | Error>();
  private lastCwd: string | undefined;
  private disposed = false;

  constructor(private readonly host: McpSourceHost) {}

  async listTools(cwd: string): Promise<ToolSpecOf[]> {
    this.lastCwd = cwd;
    const statuses = await this.servers(cwd);
    const running = statuses.filter((s) => s.enabled && s.connection !== undefined);
    const listed = await Promise.all(running.map((s) => this.listServer(s.connection!)));
    const routes = new Map<string, Route>();
    const specs: ToolSpecOf[] = [];
    const searchable: RankedTool[] = [];
    // The tools tool_search loaded on this branch: read from the session path only when a tool is not
    // direct (a walk of the whole path, every turn, in a long session).
    let loaded: Set<string> | undefined;
    let deferred = false;
    for (const entries of listed) {
      for (const { spec, route, exposure } of entries) {
        if (routes.has(spec.name) || exposure === "hidden") continue;
        if (exposure === "deferred") deferred = true;
        routes.set(spec.name, route);
        if (exposure === "direct" || (loaded ??= this.host.loadedTools()).has(spec.name)) {
          specs.push(spec);
          continue;
        }
        specs.push({ ...spec, exposure });
        const { name, description, parameters } = spec;
        searchable.push({ name, description, parameters, namespaceText: route.server });
      }
    }
    // pi 1.6 offers tool_search while some tool is `deferred`, ahead of the MCP tools.
    if (deferred && !routes.has(TOOL_SEARCH)) {
      routes.set(TOOL_SEARCH, { kind: "tool_search", server: "" });
      specs.unshift(toolSearchSpec());
    }
    this.routes = routes;
    this.searchable = searchable;
    return specs;
  }

  /**
   * Every configured server (plugin config, then settings, then mcp.json — a later entry replaces an
   * earlier one of the same name whole), its enabled state and its connection. Reconciles connections on the way:
   * entries that changed or went away, and servers turned off, are closed.
   */
  async servers(cwd = this.lastCwd ?? process.cwd()): Promise<ServerStatus[]> {
    if (this.host.off()) return [];
    const fromConfig = parseServers(this.host.configServers, 'plugin config "servers"', cwd);
    let fromSettings: { specs: ServerSpec[]; problems: ServerProblem[] } = { specs: [], problems: [] };
    if (this.host.readSettings && this.host.settings?.available) {
      try {
        const settings = await this.host.settings.api.get(cwd);
        fromSettings = parseServers(settings.mcpServers, 'settings "mcpServers"', cwd);
      } catch (error) {
        // Unreadable settings must not take the configured servers down with them.
        this.noticeOnce(
          `settings:${(error as Error).message}`,
          "warning",
          `MCP: settings could not be read, so their "mcpServers" are left out: ${(error as Error).message}`,
        );
      }
    }
    const fromFiles = await this.host.mcpFiles(cwd);
    for (const problem of [...fromConfig.problems, ...fromSettings.problems, ...fromFiles.problems])
      this.noticeOnce(`config:${problem.message}`, "warning", `MCP: ${problem.message}`);
    const byName = new Map<string, ServerSpec>();
    for (const spec of [...fromConfig.specs, ...fromSettings.specs, ...fromFiles.specs]) byName.set(spec.name, spec);

    for (const [name, connection] of this.connections) {
      const spec = byName.get(name);
      if (spec === undefined || !sameServer(spec, connection.spec) || !this.isEnabled(spec)) {
        this.connections.delete(name);
        await connection.close();
      }
    }
    const statuses: ServerStatus[] = [];
    for (const spec of byName.values()) {
      const enabled = this.isEnabled(spec);
      let connection = this.connections.get(spec.name);
      if (enabled && connection === undefined && !this.disposed) {
        connection = new ServerConnection(spec, this.connectionHost());
        this.connections.set(spec.name, connection);
      }
      statuses.push({ spec, enabled, connection });
    }
    return statuses;
  }

  private isEnabled(spec: ServerSpec): boolean {
    const toggle = this.host.toggles()[spec.name];
    if (toggle !== undefined) return toggle;
    return !spec.disabled && !this.host.configDisabled.includes(spec.name);
  }

  private connectionHost(): ConnectionHost {
    const { spawn, notice, startTimeoutMs, callTimeoutMs, clientVersion, oauthProvider } = this.host;
    return { spawn, notice, startTimeoutMs, callTimeoutMs, clientVersion, oauthProvider };
  }

  /** One server's offered tools; a server that cannot start or list is reported once and offers none. */
  private async listServer(
    connection: ServerConnection,
  ): Promise<Array<{ spec: ToolSpecOf; route: Route; exposure: Exposure }>> {
    const server = connection.spec.name;
    const { defaultExposure } = this.host;
    try {
      await connection.ensureStarted();
      this.forgetNotices(server);
      const out: Array<{ spec: ToolSpecOf; route: Route; exposure: Exposure }> = [];
      const caps = connection.capabilities();
      if (caps.tools) {
        for (const tool of await connection.listTools()) {
          const parameters = this.schemaOf(server, tool);
          if (parameters === undefined) continue;
          out.push({
            spec: {
              name: mcpToolName(server, tool.name),
              label: `${server}: ${tool.title ?? tool.annotations?.title ?? tool.name}`,
              description: tool.description ?? `Tool "${tool.name}" of the MCP server "${server}".`,
              parameters,
            },
            route: { kind: "tool", server, tool: tool.name },
            exposure: toolExposureOf(connection.spec, tool.name, defaultExposure),
          });
        }
      }
      if (this.host.exposeResources) {
        // The helpers reach the whole server: the widest exposure among its tools (pi's resource tools).
        const exposures = out.map((o) => o.exposure);
        const exposure =
          exposures.length > 0 ? widestExposure(exposures) : (connection.spec.exposure ?? defaultExposure);
        out.push(...helperTools(server, caps).map((helper) => ({ ...helper, exposure })));
      }
      return out;
    } catch (error) {
      if (connection.status === "stopped" && error instanceof McpServerError) return [];
      const message =
        error instanceof McpServerError
          ? error.message
          : `MCP server "${server}" could not list its tools: ${(error as Error).message}`;
      this.noticeOnce(`failed:${server}:${message}`, "warning", message);
      return [];
    }
  }

  /** A tool's input schema, made checkable once per listed tool; an unusable schema leaves the tool out, with a notice. */
  private schemaOf(server: string, tool: Tool): ReturnType<typeof checkableSchema> | undefined {
    let schema = this.schemas.get(tool);
    if (schema === undefined) {
      try {
        schema = checkableSchema(tool.inputSchema);
      } catch (error) {
        schema = error as Error;
      }
      this.schemas.set(tool, schema);
    }
    if (!(schema instanceof Error)) return schema;
    this.noticeOnce(
      `schema:${server}:${tool.name}`,
      "warning",
      `MCP server "${server}": tool "${tool.name}" is left out: ${schema.message}`,
    );
    return undefined;
  }

  async executeTool(
    name: string,
    _toolCallId: string,
    params: unknown,
    signal: AbortSignal | undefined,
    onUpdate: ToolUpdate | undefined,
    _ctx: ToolContext,
  ): Promise<ToolResult> {
    const route = this.routes.get(name);
    if (route?.kind === "tool_search") {
      const loaded = this.host.loadedTools();
      return runToolSearch(
        params,
        this.searchable.filter((tool) => !loaded.has(tool.name)),
      );
    }
    if (route === undefined)
      throw new Error(
        `"${name}" is not a tool of any running MCP server; the server may have been disabled or reconfigured`,
      );
    const connection = this.connections.get(route.server);
    if (connection === undefined)
      throw new Error(`MCP server "${route.server}" is disabled; enable it with /mcp enable ${route.server}`);
    try {
      await connection.ensureStarted();
      const crash = connection.takeCrashReport();
      const result = await this.run(route, connection, (params ?? {}) as Record<string, unknown>, signal, onUpdate);
      if (crash === undefined) return result;
      const note = `[${crash}; it was restarted for this call, so anything it held in memory is gone]`;
      return { ...result, content: [{ type: "text", text: note }, ...result.content] };
    } catch (error) {
      if (error instanceof McpServerError) return errorResult(error.message);
      if (signal?.aborted) throw error;
      return errorResult(`MCP server "${route.server}": ${(error as Error).message}`);
    }
  }

  private async run(
    route: Route,
    connection: ServerConnection,
    params: Record<string, unknown>,
    signal: AbortSignal | undefined,
    onUpdate: ToolUpdate | undefined,
  ): Promise<ToolResult> {
    const server = route.server;
    switch (route.kind) {
      case "tool": {
        const progress =
          onUpdate === undefined
            ? undefined
            : (p: { progress: number; total?: number; message?: string }) => {
                const amount = p.total === undefined ? `${p.progress}` : `${p.progress}/${p.total}`;
                onUpdate({
                  content: [{ type: "text", text: `progress ${amount}${p.message ? `: ${p.message}` : ""}` }],
                });
              };
        return toolResultFromMcp(await connection.callTool(route.tool, params, signal, progress), server, route.tool);
      }
      case "list_resources": {
        const { resources, templates } = await connection.listResources();
        const lines = [
          ...resources.map(
            (r) =>
              `${r.uri} — ${r.name}${r.mimeType ? ` (${r.mimeType})` : ""}${r.description ? `: ${r.description}` : ""}`,
          ),
          ...templates.map(
            (t) => `${t.uriTemplate} (template) — ${t.name}${t.description ? `: ${t.description}` : ""}`,
          ),
        ];
        return {
          content: [
            { type: "text", text: lines.length > 0 ? lines.join("\n") : `MCP server "${server}" lists no resources.` },
          ],
          details: { server, tool: "list_resources" },
        };
      }
      case "read_resource":
        return resourceResult(await connection.readResource(String(params.uri), signal), server);
      case "list_prompts": {
        const prompts = await connection.listPrompts();
        const lines = prompts.map((p) => {
          const args = (p.arguments ?? []).map((a) => `${a.name}${a.required ? "" : "?"}`).join(", ");
          return `${p.name}(${args})${p.description ? ` — ${p.description}` : ""}`;
        });
        return {
          content: [
            { type: "text", text: lines.length > 0 ? lines.join("\n") : `MCP server "${server}" lists no prompts.` },
          ],
          details: { server, tool: "list_prompts" },
        };
      }
      case "tool_search":
        throw new Error("tool_search runs without a server");
      case "get_prompt":
        return promptResult(
          await connection.getPrompt(String(params.name), (params.arguments ?? {}) as Record<string, string>, signal),
          server,
        );
    }
  }

  /** Restarts a server now (clearing a failed start), for `/mcp restart`; resolves with its tool count or rejects with the reason. */
  async restart(name: string): Promise<number> {
    const connection = this.connections.get(name);
    if (connection === undefined) throw new Error(`MCP server "${name}" is not configured or is disabled`);
    await connection.close(true);
    await connection.ensureStarted();
    this.forgetNotices(name);
    return connection.capabilities().tools ? (await connection.listTools()).length : 0;
  }

  /** Lets a server that failed to start be reported again (after a toggle or restart). */
  forgetNotices(name: string): void {
    for (const key of this.reported) if (key.startsWith(`failed:${name}:`)) this.reported.delete(key);
  }

  /** Closes every client and ends every server; the source lists nothing afterwards. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const all = [...this.connections.values()];
    this.connections.clear();
    this.routes.clear();
    await Promise.all(all.map((c) => c.close()));
  }

  private noticeOnce(key: string, level: "info" | "warning" | "error", message: string): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.host.notice(level, message);
  }
}

function errorResult(text: string): ToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
