/**
 * Every RPC command except `prompt` (whose response waits for the run to start, see connection.ts):
 * what it does through the `agent/session` contract and the data its response carries, in pi's shapes
 * (docs/rpc.md). A handler returns the response's data (undefined: no data) or throws; the connection
 * turns a throw into `success: false` with the error's first line.
 */
import type { AgentSession, CompactionResult, SessionEvent } from "pi-host";
import type { ThinkingLevel } from "pi-host";
import type { ResourceSource } from "pi-host";
import type { SessionStore } from "pi-host";
import type { Handle, ManyHandle } from "pi-host";
import type { AgentHooks } from "pi-host";
import type { SlashCommand } from "pi-host";
import { listCommands } from "./command-list.js";
import { askBeforeSessionChange } from "pi-host";
import { convertToLlm, estimateMessageTokens, exportOpenSession } from "pi-host";
import {
  optionalImages,
  optionalString,
  requireBoolean,
  requireChoice,
  requireString,
  type RpcCommand,
} from "./protocol.js";
import { bashExecutionMessage, type BashResult } from "./user-bash.js";

/** What the handlers work with; the connection provides it. */
export interface CommandContext {
  session: Handle<AgentSession>;
  /** For what `agent/session` does not offer yet: recording a user shell run, clone, the leaf id. */
  store: Handle<SessionStore>;
  resources: ManyHandle<ResourceSource>;
  /** Hooks whose `commands()` list the slash commands they handle (extension commands, `/mcp`). */
  hooks: ManyHandle<AgentHooks>;
  /** The plugins' slash commands (the command contract), listed by get_commands too. */
  commands: ManyHandle<SlashCommand>;
  /** Publishes a session event on the bus (clone's `session_change`). */
  publish(event: SessionEvent): void;
  /** The session's working folder. */
  cwd(): string;
  /** Runs one user shell command at a time; `abort` cancels it. */
  bash: { run(command: string): Promise<BashResult>; abort(): void };
  /** Keeps work that outlives its response (a deferred record) from being cut off at shutdown. */
  track(work: Promise<unknown>): void;
}

/** A command's handler: returns the response data, or throws. */
export type CommandHandler = (command: RpcCommand, context: CommandContext) => unknown;

const THINKING_LEVELS: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh"];
const QUEUE_MODES = ["all", "one-at-a-time"] as const;

/** The handlers by command type. */
export const COMMANDS: Record<string, CommandHandler> = {
  // ── prompting ─────────────────────────────────────────────────────────────────────────────────
  async steer(command, { session }) {
    await session.api.steer(requireString(command, "message"), optionalImages(command));
    return { disposition: "queued" };
  },
  async follow_up(command, { session }) {
    await session.api.followUp(requireString(command, "message"), optionalImages(command));
    return { disposition: "queued" };
  },
  async abort(_command, { session }) {
    await session.api.abort();
  },
  clear_queue: (_command, { session }) => session.api.clearQueue(),
  async new_session(command, { session, hooks }) {
    const parentSession = optionalString(command, "parentSession");
    if ((await askBeforeSessionChange(hooks, { kind: "new" })).outcome !== "go") return { cancelled: true };
    await session.api.newSession(parentSession === undefined ? {} : { parentSession });
    return { cancelled: false };
  },

  // ── state ─────────────────────────────────────────────────────────────────────────────────────
  get_state: (_command, { session }) => session.api.state(),
  get_messages: (_command, { session }) => ({ messages: session.api.messages() }),

  // ── model and thinking ────────────────────────────────────────────────────────────────────────
  async set_model(command, { session }) {
    const provider = requireString(command, "provider");
    const modelId = requireString(command, "modelId");
    const available = await session.api.availableModels();
    if (!available.some((m) => m.provider === provider && m.id === modelId))
      throw new Error(`Model not found: ${provider}/${modelId}`);
    return session.api.setModel(provider, modelId);
  },
  async cycle_model(_command, { session }) {
    const next = await session.api.cycleModel();
    return next === undefined
      ? null
      : { model: next.model, thinkingLevel: next.thinkingLevel, isScoped: next.isScoped === true };
  },
  get_available_models: async (_command, { session }) => ({ models: await session.api.availableModels() }),
  async set_thinking_level(command, { session }) {
    await session.api.setThinkingLevel(requireChoice(command, "level", THINKING_LEVELS));
  },
  async cycle_thinking_level(_command, { session }) {
    const level = await session.api.cycleThinkingLevel();
    return level === undefined ? null : { level };
  },
  // The levels set_thinking_level and cycle_thinking_level accept for the current model.
  get_available_thinking_levels: (_command, { session }) => ({
    levels: session.api.state().model?.reasoning === true ? [...THINKING_LEVELS] : ["off"],
  }),
  async set_steering_mode(command, { session }) {
    await session.api.setSteeringMode(requireChoice(command, "mode", QUEUE_MODES));
  },
  async set_follow_up_mode(command, { session }) {
    await session.api.setFollowUpMode(requireChoice(command, "mode", QUEUE_MODES));
  },

  // ── compaction and retry ──────────────────────────────────────────────────────────────────────
  async compact(command, { session, hooks }) {
    const instructions = optionalString(command, "customInstructions");
    // pi's session_before_compact: a hook may cancel (pi's error) or save a compaction of its own.
    const decision = await askBeforeSessionChange(hooks, { kind: "compact", customInstructions: instructions });
    if (decision.outcome === "cancelled") throw new Error("Compaction cancelled");
    const result =
      decision.outcome === "handled"
        ? compactionOf(session.api.entries())
        : await session.api.compact(decision.customInstructions ?? instructions);
    if (result === undefined) throw new Error("Nothing to compact (session too small)");
    // pi's heuristic: chars/4 over the context as rebuilt after the summary.
    const after = convertToLlm(session.api.messages());
    return { ...result, estimatedTokensAfter: after.reduce((sum, m) => sum + estimateMessageTokens(m), 0) };
  },
  async set_auto_compaction(command, { session }) {
    await session.api.setAutoCompaction(requireBoolean(command, "enabled"));
  },
  async set_auto_retry(command, { session }) {
    await session.api.setAutoRetry(requireBoolean(command, "enabled"));
  },
  async abort_retry(_command, { session }) {
    await session.api.abortRetry();
  },

  // ── bash ──────────────────────────────────────────────────────────────────────────────────────
  async bash(command, context) {
    const text = requireString(command, "command");
    const result = await context.bash.run(text);
    const recorded = recordWhenIdle(context, bashExecutionMessage(text, result));
    context.track(recorded);
    // Recorded at once when idle; during a run it waits for the run's end, as pi defers it.
    if (!context.session.api.state().isStreaming) await recorded;
    return result;
  },
  abort_bash(_command, { bash }) {
    bash.abort();
  },

  // ── sessions ──────────────────────────────────────────────────────────────────────────────────
  get_session_stats: (_command, { session }) => session.api.stats(),
  export_html(command, { session, store, cwd }) {
    const state = session.api.state();
    const leafId = store.available ? store.api.leafId() : undefined;
    return { path: exportOpenSession(state.sessionFile, leafId, optionalString(command, "outputPath"), cwd()) };
  },
  async switch_session(command, { session, hooks }) {
    const targetSessionFile = requireString(command, "sessionPath");
    if ((await askBeforeSessionChange(hooks, { kind: "resume", targetSessionFile })).outcome !== "go")
      return { cancelled: true };
    await session.api.switchSession(targetSessionFile);
    return { cancelled: false };
  },
  async fork(command, { session, hooks }) {
    const entryId = requireString(command, "entryId");
    if ((await askBeforeSessionChange(hooks, { kind: "fork", entryId })).outcome !== "go")
      return { text: "", cancelled: true };
    const { text } = await session.api.fork(entryId);
    return { text, cancelled: false };
  },
  async clone(_command, { session, store, publish }) {
    if (session.api.state().isStreaming)
      throw new Error("the agent is working; clone when it is done, or abort it first");
    const leafId = store.api.leafId();
    if (leafId === null) throw new Error("Cannot clone session: no current entry selected");
    const info = await store.api.fork(leafId);
    publish({ type: "session_change", session: info, reason: "fork" });
    return { cancelled: false };
  },
  get_fork_messages: (_command, { session }) => ({ messages: session.api.forkPoints() }),
  get_last_assistant_text: (_command, { session }) => ({ text: session.api.lastAssistantText() ?? null }),
  async set_session_name(command, { session }) {
    const name = requireString(command, "name").trim();
    if (name === "") throw new Error("Session name cannot be empty");
    await session.api.setSessionName(name);
  },

  // ── the session's entries and tree (pi 1.6.0's; `since` is a cursor: only entries after that id) ─
  get_entries(command, { session, store }) {
    const entries = session.api.entries();
    const since = optionalString(command, "since");
    const start = since === undefined ? 0 : entries.findIndex((e) => e.id === since) + 1;
    if (start === 0 && since !== undefined)
      throw new Error(`No entry ${since} in this session; pass an id from get_entries`);
    return { entries: entries.slice(start), leafId: store.available ? store.api.leafId() : null };
  },
  get_tree: (_command, { session, store }) => ({
    tree: session.api.tree(),
    leafId: store.available ? store.api.leafId() : null,
  }),

  // ── slash commands ────────────────────────────────────────────────────────────────────────────
  async get_commands(_command, { hooks, commands, resources, cwd }) {
    return { commands: await listCommands(cwd(), hooks, commands, resources) };
  },
};

/** The compaction a hook saved (the branch's last compaction entry), in `compact`'s answer shape. */
function compactionOf(entries: ReturnType<AgentSession["entries"]>): CompactionResult | undefined {
  const entry = [...entries].reverse().find((e) => e.type === "compaction");
  if (entry?.type !== "compaction") return undefined;
  return {
    summary: entry.summary,
    firstKeptEntryId: entry.firstKeptEntryId,
    tokensBefore: entry.tokensBefore,
    details: (entry.details ?? { readFiles: [], modifiedFiles: [] }) as CompactionResult["details"],
  };
}

/**
 * Appends a user shell run to the session once no run is going on, so it never lands between a tool
 * call and its result; the model sees it on the next prompt.
 */
async function recordWhenIdle(
  { session, store }: CommandContext,
  message: ReturnType<typeof bashExecutionMessage>,
): Promise<void> {
  while (session.api.state().isStreaming) await session.api.idle();
  store.api.appendMessage(message);
}
