/**
 * The SDK: the agent inside another Node program. `createAgentSession()` composes a kernel from the same
 * distribution the `pi` command runs (the package's plugins.json, the user's, a trusted project's), with
 * the embedder's choices as the last layer — working folder, model, tools, session, agent folder, extra
 * plugins — and hands back the agent session's stable handle, the session events, and the kernel.
 *
 * ```js
 * import { createAgentSession } from "pi-host/sdk";
 * const { session, subscribe, dispose } = await createAgentSession({ model: "anthropic/claude-sonnet-4-5" });
 * subscribe((e) => e.type === "message_update" && e.assistantMessageEvent.type === "text_delta" && process.stdout.write(e.assistantMessageEvent.delta));
 * await session.api.prompt("What files are here?");
 * await dispose();
 * ```
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  AgentSessionContract,
  SESSION_EVENT,
  type AgentSession,
  type SessionEvent,
} from "../contracts/agent-session.js";
import type { ThinkingLevel } from "../contracts/ai/index.js";
import type { HostFlags } from "../contracts/host-environment.js";
import type { Handle, PluginDefinition, PluginEntry } from "../kernel/index.js";
import type { Kernel } from "./host-kernel.js";
import { formatLifecycleError } from "./kernel-report.js";
import { composeKernel, resolveDistribution, type ConfigOverride } from "./compose.js";
import { THINKING_LEVELS } from "./cli-flags.js";
import { parseRemoteTarget } from "../kit/remote/remote-target.js";
import { DistributionError, type DistributionEntry } from "./distribution.js";
import { agentDir as defaultAgentDir, expandHome } from "./paths.js";

/** A plugin the embedder brings: a definition in this process, or a distribution entry (built-in name, path). */
export type SdkPlugin = { definition: PluginDefinition<any, any>; id?: string; config?: unknown } | DistributionEntry;

/** What to run. Everything is optional; the defaults are what `pi` would do in `cwd`. */
export interface CreateAgentSessionOptions {
  /** Working folder for tools, sessions and project files. Default: process.cwd(). */
  cwd?: string;
  /** Agent folder (plugins.json, models.json, auth.json, settings.json, sessions/). Default: PI_CODING_AGENT_DIR, else ~/.pi/agent. */
  agentDir?: string;
  /** `provider/id[:thinking]` or a unique model id, as `--model` takes it. */
  model?: string;
  provider?: string;
  thinking?: ThinkingLevel;
  /** Allowed tool names; [] for none. Default: every tool of the distribution. */
  tools?: string[];
  /** The CLI's `--remote`: the built-in tools act on `user@host[:port]:/path` or `docker:<container>[:/path]`. */
  remote?: string;
  /** "new" (default), "continue" (the folder's latest), "none" (in memory, nothing written), or a session file. */
  session?: string;
  /** Where session files go. Default: the agent folder's sessions/--<cwd>--/. */
  sessionDir?: string;
  systemPrompt?: string;
  appendSystemPrompt?: string[];
  /** An API key that beats auth.json and the environment (for `provider` when given). */
  apiKey?: string;
  /** plugins.json files to overlay, in order (as `--distribution`). */
  distributions?: string[];
  /** Plugins to add, replace (same id) or disable (`{ id, enabled: false }`). */
  plugins?: SdkPlugin[];
  /** Config keys per plugin id, merged over the distribution's (e.g. `{ "my-provider": { baseUrl: "..." } }`). */
  config?: Record<string, Record<string, unknown>>;
  /**
   * Project trust for `cwd` (its `.pi` settings, extensions, skills, prompts, plugins, packages): true or
   * false decides for this session, like `--approve` / `--no-approve`. Default: the saved decision in
   * trust.json, else the global `defaultProjectTrust` ("ask" means untrusted here: nobody can be asked).
   */
  projectTrust?: boolean;
}

/** A running agent. */
export interface AgentSessionRuntime {
  /** The agent session's stable handle: `session.api.prompt(text)`, `"abort"`, `"messages"`, `"state"`, ... */
  session: Handle<AgentSession>;
  /** Listens to session events (pi's event names); returns the function that stops listening. */
  subscribe(listener: (event: SessionEvent) => void): () => void;
  /** The kernel, for reloads, `describe()` and other contracts. */
  kernel: Kernel;
  /** Notices and plugins that failed to start, one line each; the session runs without them. */
  diagnostics: string[];
  /** Aborts any run and shuts every plugin down. Safe to call twice. */
  dispose(): Promise<void>;
}

/** Composes and boots the agent. Throws one-line errors for bad input (a broken plugins.json, bad config). */
export async function createAgentSession(options: CreateAgentSessionOptions = {}): Promise<AgentSessionRuntime> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const agentDir = options.agentDir === undefined ? defaultAgentDir() : resolve(cwd, expandHome(options.agentDir));
  const builtinDir = fileURLToPath(new URL("./plugins/", import.meta.url));
  const inline = (options.plugins ?? []).filter(
    (p): p is Extract<SdkPlugin, { definition: unknown }> => "definition" in p,
  );
  const entries = (options.plugins ?? []).filter((p): p is DistributionEntry => !("definition" in p));

  let composed;
  const diagnostics: string[] = [];
  try {
    const distribution = await resolveDistribution({
      cwd,
      agentDir,
      defaultFile: fileURLToPath(new URL("../plugins.json", import.meta.url)),
      builtinDir,
      distributionFiles: options.distributions,
      flags: sessionFlags(options, cwd),
      configOverrides: configOverrides(options, entries),
      pluginFlags: entries.filter((e) => e.use !== undefined && e.enabled !== false).map((e) => `${e.id}=${e.use}`),
      noPluginFlags: entries.filter((e) => e.enabled === false).map((e) => e.id),
      approveProject: options.projectTrust === true,
      noApproveProject: options.projectTrust === false,
    });
    diagnostics.push(...distribution.notices);
    const extra: PluginEntry[] = inline.map((p) => ({
      id: p.id ?? p.definition.id,
      source: { kind: "inline", label: p.id ?? p.definition.id, definition: p.definition },
      config: p.config,
    }));
    composed = await composeKernel(distribution, builtinDir, {}, extra);
  } catch (error) {
    if (error instanceof DistributionError) throw new Error(error.message);
    throw error;
  }
  const { kernel, boot, configErrors } = composed;
  if (configErrors.length > 0) {
    await kernel.shutdown();
    throw new Error(configErrors.join("\n"));
  }
  diagnostics.push(...boot.errors.map(formatLifecycleError));
  const session = kernel.use(AgentSessionContract);
  if (!session.available) {
    await kernel.shutdown();
    throw new Error(
      `no plugin provides "${AgentSessionContract.id}"${boot.errors.length > 0 ? `: ${diagnostics.join("; ")}` : "; enable one in plugins.json"}`,
    );
  }
  let disposed: Promise<void> | undefined;
  return {
    session,
    subscribe: (listener) => kernel.on(SESSION_EVENT, listener),
    kernel,
    diagnostics,
    dispose() {
      disposed ??= (async () => {
        if (session.available) await Promise.resolve(session.api.abort()).catch(() => undefined);
        await kernel.shutdown();
      })();
      return disposed;
    },
  };
}

/** The embedder's per-run choices, handed to plugins through the host environment as the CLI's flags are. */
function sessionFlags(options: CreateAgentSessionOptions, cwd: string): HostFlags {
  if (options.thinking !== undefined && !(THINKING_LEVELS as readonly string[]).includes(options.thinking)) {
    throw new Error(
      `createAgentSession: thinking must be one of ${THINKING_LEVELS.join(", ")}, not "${String(options.thinking)}"`,
    );
  }
  if (options.remote !== undefined) {
    try {
      parseRemoteTarget(options.remote);
    } catch (error) {
      throw new Error(`createAgentSession: ${(error as Error).message}`);
    }
  }
  const session = options.session;
  const flags: HostFlags = {
    model: options.model,
    provider: options.provider,
    thinking: options.thinking,
    apiKey: options.apiKey,
    tools: options.tools,
    remote: options.remote?.trim(),
    session:
      session === undefined || session === "new" || session === "continue" || session === "none"
        ? session
        : resolve(cwd, expandHome(session)),
    sessionDir: options.sessionDir === undefined ? undefined : resolve(cwd, expandHome(options.sessionDir)),
    systemPrompt: options.systemPrompt,
    appendSystemPrompt: options.appendSystemPrompt,
  };
  return Object.fromEntries(Object.entries(flags).filter(([, value]) => value !== undefined)) as HostFlags;
}

/** Config the embedder sets on entries it names itself (its `plugins` entries and `config`), the last distribution layer. */
function configOverrides(options: CreateAgentSessionOptions, entries: DistributionEntry[]): ConfigOverride[] {
  const overrides: ConfigOverride[] = [];
  const add = (id: string, flag: string, config: Record<string, unknown>): void => {
    const defined = Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined));
    if (Object.keys(defined).length > 0) overrides.push({ id, flag, config: defined });
  };
  for (const entry of entries)
    if (entry.config !== undefined && entry.enabled !== false)
      add(entry.id, `the plugins entry "${entry.id}"`, entry.config);
  for (const [id, config] of Object.entries(options.config ?? {})) add(id, `config["${id}"]`, config);
  return overrides;
}

export type { AgentSession, SessionEvent } from "../contracts/agent-session.js";
export type { Handle, PluginDefinition } from "../kernel/index.js";
export type { Kernel } from "./host-kernel.js";
