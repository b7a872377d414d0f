/**
 * The session operations of pi's ExtensionCommandContext — `newSession`, `switchSession`, `fork`,
 * `navigateTree`, `reload`, `shutdown` — and `ctx.compact`'s `session_before_compact`, with pi's
 * `session_before_*` gates first (a handler returning `{ cancel: true }` stops the operation).
 *
 * A command runs inside the prompt that named it, which holds the session. An operation that changes
 * the session therefore detaches the command from its prompt: the prompt ends (handled), the operation
 * runs once the session is free, and the handler's `await` resumes after it. `withSession` gets a fresh
 * context for the replaced session, as in pi.
 */
import type { CompactionResult, SessionChange, SessionChangeVerdict } from "pi-host";
import type { ExtensionRuntime } from "./runtime.js";

/** What the replacing operations accept (pi's `withSession`). */
interface ReplaceOptions {
  withSession?: (ctx: unknown) => Promise<void> | void;
}

/** pi's answer of a gated operation. */
type Outcome = { cancelled: boolean };

/** The first `{ cancel: true }` of the event's handlers cancels; other answers are returned for the caller. */
export async function gate(
  runtime: ExtensionRuntime,
  event: { type: string; [field: string]: unknown },
): Promise<{ cancel: boolean; results: Array<Record<string, unknown>> }> {
  const ctx = runtime.context();
  const results: Array<Record<string, unknown>> = [];
  for (const { extension, handler } of runtime.handlers(event.type)) {
    try {
      const result = (await handler(event, ctx)) as Record<string, unknown> | undefined;
      if (result?.cancel === true) return { cancel: true, results };
      if (result !== undefined && result !== null && typeof result === "object") results.push(result);
    } catch (error) {
      runtime.report(extension, event.type, error);
    }
  }
  return { cancel: false, results };
}

/** Runs `work` once the session is free; inside a command, the command's prompt ends first. */
async function whenFree<T>(runtime: ExtensionRuntime, work: () => Promise<T>): Promise<T> {
  runtime.delivery.detachCommand();
  const session = runtime.services.session;
  await session.api.idle();
  return work();
}

async function afterReplace(runtime: ExtensionRuntime, options: ReplaceOptions | undefined): Promise<void> {
  await runtime.drained();
  if (typeof options?.withSession === "function") await options.withSession(runtime.commandContext());
}

/** The command context's session members. */
export function sessionControl(runtime: ExtensionRuntime) {
  const session = () => {
    if (!runtime.services.session.available) throw new Error("session operations need the agent-session plugin");
    return runtime.services.session.api;
  };
  const store = () => (runtime.services.store.available ? runtime.services.store.api : undefined);
  return {
    async newSession(options: ReplaceOptions & { parentSession?: string } = {}): Promise<Outcome> {
      if ((await gate(runtime, { type: "session_before_switch", reason: "new" })).cancel) return { cancelled: true };
      await whenFree(runtime, () =>
        session().newSession(options.parentSession === undefined ? {} : { parentSession: options.parentSession }),
      );
      await afterReplace(runtime, options);
      return { cancelled: false };
    },

    async switchSession(sessionPath: string, options: ReplaceOptions = {}): Promise<Outcome> {
      if (typeof sessionPath !== "string" || sessionPath === "")
        throw new Error("ctx.switchSession needs a session file path");
      const event = { type: "session_before_switch", reason: "resume", targetSessionFile: sessionPath };
      if ((await gate(runtime, event)).cancel) return { cancelled: true };
      await whenFree(runtime, () => session().switchSession(sessionPath));
      await afterReplace(runtime, options);
      return { cancelled: false };
    },

    async fork(entryId: string, options: ReplaceOptions & { position?: "before" | "at" } = {}): Promise<Outcome> {
      const position = options.position ?? "before";
      if (position !== "before" && position !== "at")
        throw new Error(`ctx.fork: position must be "before" or "at", not ${JSON.stringify(position)}`);
      if ((await gate(runtime, { type: "session_before_fork", entryId, position })).cancel) return { cancelled: true };
      await whenFree(runtime, async () => {
        if (position === "before") return void (await session().fork(entryId));
        // "at" (pi's /clone from an entry): the path up to and including the entry, in a new session.
        if (store()?.leafId() !== entryId) await session().navigateTree(entryId);
        await session().clone();
      });
      await afterReplace(runtime, options);
      return { cancelled: false };
    },

    async navigateTree(
      targetId: string,
      options: { summarize?: boolean; customInstructions?: string; replaceInstructions?: boolean; label?: string } = {},
    ): Promise<Outcome> {
      const oldLeafId = store()?.leafId() ?? null;
      const preparation = {
        targetId,
        oldLeafId,
        commonAncestorId: null,
        entriesToSummarize: [],
        userWantsSummary: options.summarize === true,
        customInstructions: options.customInstructions,
        replaceInstructions: options.replaceInstructions,
        label: options.label,
      };
      const controller = new AbortController();
      const verdict = await gate(runtime, { type: "session_before_tree", preparation, signal: controller.signal });
      if (verdict.cancel) return { cancelled: true };
      const custom = verdict.results.find((r) => r.summary !== undefined)?.summary as
        | { summary?: unknown; details?: unknown }
        | undefined;
      const instructions = [...verdict.results].reverse().find((r) => typeof r.customInstructions === "string")
        ?.customInstructions as string | undefined;
      await whenFree(runtime, async () => {
        const summarize = options.summarize === true && custom === undefined;
        await session().navigateTree(targetId, {
          summarize,
          ...((instructions ?? options.customInstructions) !== undefined && {
            instructions: instructions ?? options.customInstructions,
          }),
        });
        if (options.summarize === true && custom !== undefined && typeof custom.summary === "string" && oldLeafId)
          store()?.appendBranchSummary(oldLeafId, custom.summary, custom.details, true);
        if (options.label !== undefined) store()?.appendLabel(targetId, options.label);
      });
      const entries = store()?.entries() ?? [];
      const summaryEntry = [...entries].reverse().find((e) => e.type === "branch_summary");
      runtime.queue({
        type: "session_tree",
        newLeafId: store()?.leafId() ?? null,
        oldLeafId,
        ...(summaryEntry !== undefined && options.summarize === true && { summaryEntry }),
        fromExtension: custom !== undefined,
      });
      return { cancelled: false };
    },

    /** pi's `/reload`: the host reloads its plugins (this one included), so extensions load afresh. */
    async reload(): Promise<void> {
      await whenFree(runtime, async () => {
        runtime.services.ctx.emit(HOST_RELOAD_REQUEST, {});
      });
    },
  };
}

/** The bus event a host listens to for `/reload` (contracts/tui.ts names it; plugins emit it by name). */
const HOST_RELOAD_REQUEST = "host:reload-request";

/**
 * `ctx.compact` with pi's `session_before_compact` first: a handler may cancel it or supply the summary,
 * which is saved as the compaction (fromExtension); otherwise the session's compaction runs.
 */
export async function compactWithHooks(
  runtime: ExtensionRuntime,
  customInstructions: string | undefined,
): Promise<CompactionResult | undefined> {
  const session = runtime.services.session.api;
  const verdict = await gateCompaction(runtime, customInstructions);
  if (verdict === "cancelled") throw new Error("Compaction cancelled by an extension");
  return verdict ?? session.compact(customInstructions);
}

/**
 * pi's `session_before_compact` for a manual compaction: "cancelled", the compaction a handler supplied
 * (saved, fromExtension), or undefined when the session's own compaction should run.
 */
async function gateCompaction(
  runtime: ExtensionRuntime,
  customInstructions: string | undefined,
  reason: "manual" | "threshold" | "overflow" = "manual",
  willRetry = false,
): Promise<CompactionResult | "cancelled" | undefined> {
  if (!runtime.hasHandlers("session_before_compact")) return undefined;
  const session = runtime.services.session.api;
  const branchEntries = runtime.services.store.available ? runtime.services.store.api.path() : [];
  const usage = runtime.services.session.available ? session.stats().contextUsage : undefined;
  const firstKept = branchEntries.at(-1)?.id;
  const controller = new AbortController();
  const event = {
    type: "session_before_compact",
    preparation: { firstKeptEntryId: firstKept, tokensBefore: usage?.tokens ?? 0, isSplitTurn: false },
    branchEntries,
    customInstructions,
    reason,
    willRetry,
    signal: controller.signal,
  };
  const verdict = await gate(runtime, event);
  if (verdict.cancel) return "cancelled";
  const custom = verdict.results.find((r) => r.compaction !== undefined)?.compaction as
    | { summary?: unknown; firstKeptEntryId?: unknown; tokensBefore?: unknown; details?: unknown }
    | undefined;
  if (custom === undefined) return undefined;
  if (typeof custom.summary !== "string" || typeof custom.firstKeptEntryId !== "string")
    throw new Error("session_before_compact: a compaction needs summary and firstKeptEntryId strings");
  const store = runtime.services.store.api;
  const tokensBefore = typeof custom.tokensBefore === "number" ? custom.tokensBefore : (usage?.tokens ?? 0);
  // A manual compaction waits for the run; an automatic one is asked by the run itself, between turns.
  if (reason === "manual") await session.idle();
  store.appendCompaction(custom.summary, custom.firstKeptEntryId, tokensBefore, custom.details, true);
  const compactionEntry = store.entries().at(-1);
  runtime.queue({ type: "session_compact", compactionEntry, fromExtension: true, reason, willRetry });
  const details = (custom.details ?? { readFiles: [], modifiedFiles: [] }) as CompactionResult["details"];
  return { summary: custom.summary, firstKeptEntryId: custom.firstKeptEntryId, tokensBefore, details };
}

/**
 * The hooks contract's `beforeSessionChange` (a `/new`, `/resume`, `/fork`, `/tree` or `/compact` a user
 * typed or a client sent) as pi's `session_before_switch`, `session_before_fork`, `session_before_tree`
 * and `session_before_compact`, with pi's payloads. A compaction a handler supplies is saved here and
 * the operation reported as handled.
 */
export async function beforeSessionChange(
  runtime: ExtensionRuntime,
  change: SessionChange,
): Promise<SessionChangeVerdict | undefined> {
  if (change.kind === "compact") {
    const verdict = await gateCompaction(runtime, change.customInstructions, change.reason, change.willRetry);
    return verdict === "cancelled" ? { cancel: true } : verdict === undefined ? undefined : { handled: true };
  }
  if (change.kind === "new" || change.kind === "resume") {
    const event =
      change.kind === "new"
        ? { type: "session_before_switch", reason: "new" }
        : { type: "session_before_switch", reason: "resume", targetSessionFile: change.targetSessionFile };
    return (await gate(runtime, event)).cancel ? { cancel: true } : undefined;
  }
  if (change.kind === "fork") {
    const event = { type: "session_before_fork", entryId: change.entryId, position: "before" };
    return (await gate(runtime, event)).cancel ? { cancel: true } : undefined;
  }
  const store = runtime.services.store.available ? runtime.services.store.api : undefined;
  const preparation = {
    targetId: change.targetId,
    oldLeafId: store?.leafId() ?? null,
    commonAncestorId: null,
    entriesToSummarize: [],
    userWantsSummary: change.summarize,
    customInstructions: change.customInstructions,
    replaceInstructions: undefined,
    label: undefined,
  };
  const verdict = await gate(runtime, {
    type: "session_before_tree",
    preparation,
    signal: new AbortController().signal,
  });
  if (verdict.cancel) return { cancel: true };
  const instructions = [...verdict.results].reverse().find((r) => typeof r.customInstructions === "string")
    ?.customInstructions as string | undefined;
  return instructions === undefined ? undefined : { customInstructions: instructions };
}
