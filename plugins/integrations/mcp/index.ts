/**
 * The MCP plugin: tools of Model Context Protocol servers for the agent (ToolSourceContract), from
 * `<agentDir>/mcp.json` and a trusted project's `.pi/mcp.json` (as pi 1.6 reads them), settings.json
 * `mcpServers` (global and project) and this plugin's `servers` config. Setup only
 * declares: no server starts and the MCP SDK is not even imported until the first turn lists tools
 * with a server configured. Server processes belong to this plugin's generation, so a reload or
 * shutdown closes every client and ends every server. `/mcp` toggles servers (see mcp-command.ts).
 * The host's `--no-mcp` turns all of it off for the run: no server, no tool, no `/mcp`.
 */
import { Type } from "@sinclair/typebox";
import { agentDir, HostEnvironmentContract, projectFilesApply, readHostEnvironment, SESSION_EVENT } from "pi-host";
import { HooksContract } from "pi-host";
import { SessionStoreContract, SettingsContract } from "pi-host";
import { CliCommandContract, ToolSourceContract } from "pi-host";
import { definePlugin, ownedSpawn, type PluginContext } from "pi-host";
import type { PromptCommandInfo } from "pi-host";
import { handleMcpCommand } from "./mcp-command.js";
import { loadMcpFiles, mcpFilePaths } from "./mcp-files.js";
import { McpToolSource } from "./mcp-source.js";
import { ServerEntrySchema } from "./server-config.js";
import { loadedOnBranch } from "./tool-search.js";
import { createOAuthProvider } from "./oauth-provider.js";
import { McpOAuthStore, mcpAuthPath } from "./oauth-store.js";

const VERSION = "1.0.0";

const ConfigSchema = Type.Object({
  /** Servers a distribution ships, same shape as settings.json `mcpServers`; settings entries of the same name win. */
  servers: Type.Optional(Type.Record(Type.String(), ServerEntrySchema)),
  /** Server names that start switched off (`/mcp enable <name>` turns one on). */
  disabled: Type.Array(Type.String(), { default: [] }),
  /** Read settings.json `mcpServers` (global + project). */
  readSettings: Type.Boolean({ default: true }),
  /** Read `<agentDir>/mcp.json` and, in a trusted project, `.pi/mcp.json`. */
  readMcpFiles: Type.Boolean({ default: true }),
  /** Folder holding the user's mcp.json; default the host's agent folder, else PI_CODING_AGENT_DIR, else ~/.pi/agent. */
  agentDir: Type.Optional(Type.String({ minLength: 1 })),
  /** Offer `mcp__<server>__list_resources`/`read_resource`/`list_prompts`/`get_prompt` where a server has them. */
  exposeResources: Type.Boolean({ default: true }),
  /** How long a server may take to start and answer `initialize` (a server entry's `startTimeoutMs` overrides it). */
  startTimeoutMs: Type.Integer({ minimum: 1, default: 30_000 }),
  /**
   * How long one request (a tool call, a resource read) may go without an answer or a progress report:
   * pi 1.6's 60 s; a server entry's `timeout`, in seconds, overrides it.
   */
  callTimeoutMs: Type.Integer({ minimum: 1, default: 60_000 }),
  /**
   * How a server's tools reach the model when its entry sets no `exposure`: pi 1.6's `codemode` (from
   * codemode scripts only), `deferred` (after `tool_search` loads them), `direct` (declared) or `hidden`.
   */
  defaultExposure: Type.Union(
    [Type.Literal("codemode"), Type.Literal("deferred"), Type.Literal("direct"), Type.Literal("hidden")],
    { default: "codemode" },
  ),
});

/** `/mcp` as pi 1.6 lists it: a command of its built-in `builtin:mcp` extension. */
const MCP_COMMAND: PromptCommandInfo = {
  name: "mcp",
  description: "Manage MCP servers: sign in, reconnect, enable or disable, and change exposure",
  source: "extension",
  sourceInfo: { path: "builtin:mcp", source: "builtin", scope: "temporary", origin: "top-level" },
};

/** `/mcp enable|disable` choices by server name. */
interface McpState {
  toggles: Record<string, boolean>;
}

export default definePlugin({
  id: "mcp",
  version: VERSION,
  description:
    "MCP servers' tools, resources and prompts as agent tools (stdio and streamable HTTP); /mcp toggles servers",
  provides: [ToolSourceContract, HooksContract, CliCommandContract],
  // The host's project-trust decision: without it (a kernel booted without a host) `.pi/mcp.json` stays out.
  requires: [
    { contract: SettingsContract, optional: true },
    { contract: HostEnvironmentContract, optional: true },
    // The current branch, where `tool_search` results record the tools they loaded.
    { contract: SessionStoreContract, optional: true },
  ],
  config: ConfigSchema,
  state: {
    version: 1,
    schema: Type.Object({ toggles: Type.Record(Type.String(), Type.Boolean()) }),
    initial: (): McpState => ({ toggles: {} }),
  },
  setup(ctx) {
    const notice = noticeSender(ctx);
    const { config } = ctx;
    const host = ctx.use(HostEnvironmentContract);
    // `--no-mcp`, read when asked (the host's handle answers only once the boot has committed).
    const off = (): boolean => readHostEnvironment(host)?.flags?.noMcp === true;
    // Read when asked: the host's handle answers only once the boot has committed.
    const folder = (): string => agentDir(config.agentDir ?? readHostEnvironment(host)?.agentDir);
    const mcpFiles = async (cwd: string): Promise<ReturnType<typeof loadMcpFiles>> => {
      if (!config.readMcpFiles) return { specs: [], problems: [] };
      const trusted = await projectFilesApply(host, cwd).catch(() => false);
      return loadMcpFiles(folder(), cwd, trusted);
    };
    const source = new McpToolSource({
      configServers: config.servers,
      readSettings: config.readSettings,
      configDisabled: config.disabled,
      exposeResources: config.exposeResources,
      startTimeoutMs: config.startTimeoutMs,
      callTimeoutMs: config.callTimeoutMs,
      clientVersion: VERSION,
      settings: ctx.use(SettingsContract),
      off,
      mcpFiles,
      toggles: () => ctx.getState().toggles,
      spawn: (command, args, options) => ownedSpawn(ctx, command, args, options),
      notice,
      defaultExposure: config.defaultExposure,
      oauthProvider: (spec) =>
        createOAuthProvider({
          server: spec.name,
          store: new McpOAuthStore(mcpAuthPath(folder()), spec.name, spec.url),
          settings: spec.oauth ?? {},
        }),
      loadedTools: () => {
        const store = ctx.use(SessionStoreContract);
        if (store === undefined || !store.available || store.peek()?.current() === undefined) return new Set();
        return loadedOnBranch(store.api.path());
      },
    });
    ctx.provide(ToolSourceContract, source);
    ctx.provide(HooksContract, {
      commands: async () => (off() ? [] : [MCP_COMMAND]),
      beforePrompt: async ({ text }) => {
        if (off()) return undefined;
        const handled = await handleMcpCommand(text, {
          source,
          toggles: () => ctx.getState().toggles,
          setToggle: (name, enabled) => ctx.setState({ toggles: { ...ctx.getState().toggles, [name]: enabled } }),
          notice,
        });
        return handled ? { handled: true } : undefined;
      },
    });
    ctx.provide(
      CliCommandContract,
      {
        name: "mcp",
        description: "Add, remove, check and sign in to MCP servers (pi mcp add|remove|list|login|logout)",
        // Loaded when the command runs: its callback server's node:http would bring Node's fetch
        // (undici) into every run on Node 22.
        run: async (args, io) =>
          (await import("./mcp-cli.js")).runMcpCli(args, io, {
            servers: async (cwd) => (await source.servers(cwd)).map((s) => s.spec),
            statuses: (cwd) => source.servers(cwd),
            problems: async (cwd) => (await mcpFiles(cwd)).problems.map((p) => p.message),
            paths: (cwd) => mcpFilePaths(folder(), cwd),
            projectTrusted: (cwd) => projectFilesApply(host, cwd).catch(() => false),
            agentDir: folder,
          }),
      },
      { key: "mcp" },
    );
    ctx.onDispose(() => source.dispose(), "close MCP clients");
  },
});

/** Notices go out on the session bus, where every mode shows them; a retired generation stays quiet. */
function noticeSender(
  ctx: PluginContext<unknown, McpState>,
): (level: "info" | "warning" | "error", message: string) => void {
  return (level, message) => {
    if (ctx.signal.aborted) return;
    try {
      ctx.emit(SESSION_EVENT, { type: "notice", level, message });
    } catch {
      // The generation retired between the check and the emit; nobody is listening to it any more.
    }
  };
}
