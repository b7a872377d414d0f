/**
 * One MCP server as the plugin sees it: started on first use (bounded by a timeout), its tool,
 * resource and prompt lists cached until the server says they changed, its calls timed out and
 * cancellable, and its crashes remembered so they can be reported once and the server started afresh
 * on the next use.
 */
import type { ChildProcess, SpawnOptions } from "node:child_process";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type {
  CallToolResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { HttpServerSpec, ServerSpec } from "./server-config.js";
import { usesOAuth } from "./oauth-provider.js";
import { loadMcpSdk, type McpSdk } from "./sdk.js";
import { resolveValues } from "./config-values.js";
import { describeExit, OwnedStdioTransport, type ExitInfo } from "./stdio-transport.js";

/** What a connection needs from the plugin: owned processes, notices and limits. */
export interface ConnectionHost {
  /** `ownedSpawn(ctx, …)`: the child belongs to the plugin's generation. */
  spawn(command: string, args: readonly string[], options: SpawnOptions): ChildProcess;
  /** Tells the user something happened to a server (a notice on the session bus). */
  notice(level: "info" | "warning" | "error", message: string): void;
  startTimeoutMs: number;
  callTimeoutMs: number;
  clientVersion: string;
  /** The OAuth provider of an HTTP server without an `Authorization` header (oauth-provider.ts). */
  oauthProvider?(spec: HttpServerSpec): OAuthClientProvider | undefined;
}

/** Where a server is in its life. `failed` stays until the user restarts it or its entry changes. */
export type ConnectionStatus = "stopped" | "starting" | "ready" | "failed";

/** Progress reported by a long tool call. */
export type ProgressReport = (progress: { progress: number; total?: number; message?: string }) => void;

/** A server whose start failed, or whose call could not complete; the message names the server. */
export class McpServerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "McpServerError";
  }
}

/** One configured server: its process or remote session, cached lists, and crash memory. */
export class ServerConnection {
  status: ConnectionStatus = "stopped";
  /** Why the last start failed (while `failed`). */
  failure: string | undefined;
  private client: Client | undefined;
  private transport: { close(): Promise<void> } | undefined;
  private starting: Promise<void> | undefined;
  private tools: Tool[] | undefined;
  private resources: { resources: Resource[]; templates: ResourceTemplate[] } | undefined;
  private prompts: Prompt[] | undefined;
  /** Counts starts, so a call knows whether the process it used is the one that died. */
  private epoch = 0;
  private readonly exits = new Map<number, string>();
  /** Whether the server ever started in this generation. */
  private everReady = false;
  /** A crash no tool result has mentioned yet. */
  private unreportedCrash: string | undefined;
  private closing = false;
  /** The server's process id while a stdio server runs. */
  pid: number | undefined;

  constructor(
    readonly spec: ServerSpec,
    private readonly host: ConnectionHost,
  ) {}

  /**
   * Starts the server unless it runs; rejects with a one-line reason naming the server. A server that
   * never started stays failed (no timeout paid again each turn) until the user restarts it; one that
   * has worked before — crashed, or a remote that went away — is tried again on every use.
   */
  ensureStarted(): Promise<void> {
    if (this.status === "ready") return Promise.resolve();
    if (this.status === "failed" && !this.everReady) return Promise.reject(new McpServerError(this.failure!));
    this.starting ??= this.start().finally(() => (this.starting = undefined));
    return this.starting;
  }

  /** What the server can do, once started. */
  capabilities(): { tools: boolean; resources: boolean; prompts: boolean } {
    const caps = this.client?.getServerCapabilities();
    return {
      tools: caps?.tools !== undefined,
      resources: caps?.resources !== undefined,
      prompts: caps?.prompts !== undefined,
    };
  }

  private async start(): Promise<void> {
    this.status = "starting";
    this.closing = false;
    const epoch = ++this.epoch;
    const timeoutMs = this.spec.startTimeoutMs ?? this.host.startTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    try {
      const sdk = await loadMcpSdk();
      const client = new sdk.Client({ name: "pi-host", version: this.host.clientVersion }, { capabilities: {} });
      const values = await this.resolvedValues();
      const transport = this.createTransport(sdk, epoch, values);
      this.transport = transport;
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`did not answer within ${timeoutMs} ms`)), timeoutMs);
      });
      await Promise.race([client.connect(transport, { timeout: timeoutMs }), timedOut]);
      client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, async () => void (this.tools = undefined));
      client.setNotificationHandler(
        sdk.ResourceListChangedNotificationSchema,
        async () => void (this.resources = undefined),
      );
      client.setNotificationHandler(
        sdk.PromptListChangedNotificationSchema,
        async () => void (this.prompts = undefined),
      );
      if (this.closing) {
        // Closed (disabled, reconfigured, retired) while starting: do not come back to life.
        await client.close().catch(() => undefined);
        throw new Error("it was stopped while starting");
      }
      this.client = client;
      this.status = "ready";
      this.everReady = true;
      this.failure = undefined;
    } catch (error) {
      if (this.closing) {
        // Stopped on purpose (disabled, reconfigured, retired): not a failure to report.
        this.status = "stopped";
        this.failure = undefined;
        await this.transport?.close().catch(() => undefined);
        this.transport = undefined;
        throw new McpServerError(`MCP server "${this.spec.name}" was stopped while starting`);
      }
      const exit = this.exits.get(epoch);
      const stderr =
        this.transport instanceof OwnedStdioTransport
          ? this.transport.stderrTail.split("\n").slice(-3).join(" | ")
          : "";
      const reason =
        exit !== undefined
          ? exit.replace(`MCP server "${this.spec.name}" `, "")
          : `${(error as Error).message}${stderr === "" ? "" : ` (stderr: ${stderr})`}`;
      this.failure = `MCP server "${this.spec.name}" failed to start: ${reason}`;
      this.status = "failed";
      this.closing = true;
      await this.transport?.close().catch(() => undefined);
      this.transport = undefined;
      throw new McpServerError(this.failure);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The entry's `env` or `headers`, expanded when it comes from an mcp.json; one line naming the file if that fails. */
  private async resolvedValues(): Promise<Record<string, string>> {
    const spec = this.spec;
    const field = spec.transport === "http" ? "headers" : "env";
    const values = spec.transport === "http" ? spec.headers : spec.env;
    if (spec.valuesFrom === undefined) return values;
    try {
      return await resolveValues(values, field, process.env, (command, args, options) =>
        this.host.spawn(command, args, options),
      );
    } catch (error) {
      throw new Error(`${spec.valuesFrom}: ${(error as Error).message}`);
    }
  }

  private createTransport(sdk: McpSdk, epoch: number, values: Record<string, string>) {
    const spec = this.spec;
    if (spec.transport === "http") {
      const authProvider = usesOAuth(values) ? this.host.oauthProvider?.(spec) : undefined;
      return new sdk.StreamableHTTPClientTransport(new URL(spec.url), {
        requestInit: { headers: values },
        ...(authProvider !== undefined && { authProvider }),
      });
    }
    const transport = new OwnedStdioTransport(
      () =>
        this.host.spawn(spec.command, spec.args, {
          cwd: spec.cwd,
          env: { ...sdk.getDefaultEnvironment(), ...values },
          stdio: ["pipe", "pipe", "pipe"],
          detached: true,
        }),
      sdk,
    );
    transport.onexit = (exit) => this.onExit(epoch, exit);
    const started = transport.start.bind(transport);
    transport.start = async () => {
      await started();
      this.pid = transport.pid;
    };
    return transport;
  }

  /** A process ended. Unless we closed it, that is a crash: remember it, say so, restart on next use. */
  private onExit(epoch: number, exit: ExitInfo): void {
    if (epoch !== this.epoch) return;
    this.pid = undefined;
    if (this.closing) return;
    const what = `MCP server "${this.spec.name}" ${describeExit(exit)}`;
    this.exits.set(epoch, what);
    if (this.status === "ready") {
      this.unreportedCrash = what;
      this.host.notice("warning", `${what}; it will be restarted when next used`);
    }
    this.dropClient();
  }

  private dropClient(): void {
    this.client = undefined;
    this.transport = undefined;
    this.tools = undefined;
    this.resources = undefined;
    this.prompts = undefined;
    if (this.status === "ready") this.status = "stopped";
  }

  /** The server's tools (every page), cached until it announces a change. */
  async listTools(): Promise<Tool[]> {
    const client = await this.ready();
    if (this.tools !== undefined) return this.tools;
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? undefined : { cursor }, {
        timeout: this.host.startTimeoutMs,
      });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    this.tools = tools;
    return tools;
  }

  /** Resources and resource templates (every page), cached until the server announces a change. */
  async listResources(): Promise<{ resources: Resource[]; templates: ResourceTemplate[] }> {
    const client = await this.ready();
    if (this.resources !== undefined) return this.resources;
    const resources: Resource[] = [];
    const templates: ResourceTemplate[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor === undefined ? undefined : { cursor });
      resources.push(...page.resources);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    do {
      const page: { resourceTemplates: ResourceTemplate[]; nextCursor?: string } = await client
        .listResourceTemplates(cursor === undefined ? undefined : { cursor })
        .catch(() => ({ resourceTemplates: [] }));
      templates.push(...page.resourceTemplates);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    this.resources = { resources, templates };
    return this.resources;
  }

  /** Prompts (every page), cached until the server announces a change. */
  async listPrompts(): Promise<Prompt[]> {
    const client = await this.ready();
    if (this.prompts !== undefined) return this.prompts;
    const prompts: Prompt[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listPrompts(cursor === undefined ? undefined : { cursor });
      prompts.push(...page.prompts);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    this.prompts = prompts;
    return prompts;
  }

  /** Calls a tool. A process that dies meanwhile rejects with a message naming the server and the exit. */
  callTool(
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
    onProgress?: ProgressReport,
  ): Promise<CallToolResult> {
    return this.request(
      `running "${name}"`,
      (client) =>
        client.callTool({ name, arguments: args }, undefined, {
          signal,
          timeout: this.spec.callTimeoutMs ?? this.host.callTimeoutMs,
          resetTimeoutOnProgress: true,
          ...(onProgress && { onprogress: onProgress }),
        }) as Promise<CallToolResult>,
    );
  }

  readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return this.request(`reading "${uri}"`, (client) =>
      client.readResource({ uri }, { signal, timeout: this.spec.callTimeoutMs ?? this.host.callTimeoutMs }),
    );
  }

  getPrompt(name: string, args: Record<string, string>, signal?: AbortSignal): Promise<GetPromptResult> {
    return this.request(`getting prompt "${name}"`, (client) =>
      client.getPrompt(
        { name, arguments: args },
        { signal, timeout: this.spec.callTimeoutMs ?? this.host.callTimeoutMs },
      ),
    );
  }

  /** The crash since the last report, if any; taking it marks it reported. */
  takeCrashReport(): string | undefined {
    const crash = this.unreportedCrash;
    this.unreportedCrash = undefined;
    return crash;
  }

  private async request<T>(what: string, send: (client: Client) => Promise<T>): Promise<T> {
    const client = await this.ready();
    const epoch = this.epoch;
    try {
      return await send(client);
    } catch (error) {
      const exit = this.exits.get(epoch);
      if (exit !== undefined) {
        this.unreportedCrash = undefined;
        throw new McpServerError(`${exit} while ${what}; it will be restarted on the next call`);
      }
      const sdk = await loadMcpSdk();
      if (error instanceof sdk.McpError && error.code === sdk.ErrorCode.RequestTimeout) {
        const ms = this.spec.callTimeoutMs ?? this.host.callTimeoutMs;
        throw new McpServerError(
          `MCP server "${this.spec.name}" timed out after ${ms / 1000} s ${what}; raise its "timeout" (seconds) in mcp.json`,
        );
      }
      if (
        this.spec.transport === "http" &&
        (error as Error).name !== "AbortError" &&
        !(error instanceof sdk.McpError)
      ) {
        // The remote end went away: connect afresh next time.
        await this.close();
      }
      throw error;
    }
  }

  private async ready(): Promise<Client> {
    await this.ensureStarted();
    if (this.client === undefined) throw new McpServerError(`MCP server "${this.spec.name}" is not running`);
    return this.client;
  }

  /** Closes the client and ends the server. A failed server stays failed unless `reset` is set. */
  async close(reset = false): Promise<void> {
    this.closing = true;
    const client = this.client;
    const transport = this.transport;
    this.dropClient();
    if (this.status !== "failed" || reset) {
      this.status = "stopped";
      this.failure = undefined;
    }
    if (client !== undefined) await client.close().catch(() => undefined);
    else await transport?.close().catch(() => undefined);
  }
}
