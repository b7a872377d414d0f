/**
 * What every session store that keeps pi's entry tree shares, whatever it writes to (a JSONL file,
 * SQLite): validating and building each kind of entry in pi's exact key order, reading the tree and
 * moving the leaf. A store supplies where entries go (`commit`), how its open session is restored after
 * a reload (`ensureRestored`) and recorded in plugin state (`saveState`).
 */
import type { AgentMessage } from "../../contracts/agent.js";
import type { ThinkingLevel } from "../../contracts/ai/index.js";
import { THINKING_LEVELS } from "../../contracts/ai/index.js";
import type { CustomMessageEntry, EntryBase, SessionEntry, TreeNode } from "../../contracts/session.js";
import { isLeafMarker, LEAF_MARKER_TYPE } from "./leaf-marker.js";
import { newEntryId } from "./session-ids.js";
import type { SessionTree } from "./session-tree.js";

/** The open session as the shared part needs it. */
export interface OpenTree {
  header: { id: string };
  path: string | undefined;
  tree: SessionTree;
}

/** The entry-tree half of a session store; the subclass is the storage half. */
export abstract class TreeSessionStore<S extends OpenTree> {
  protected session: S | undefined = undefined;

  /** Adds an entry to the tree and to storage; returns its id. */
  protected abstract commit(s: S, entry: SessionEntry): string;
  /** Records the open session in plugin state. */
  protected abstract saveState(): void;
  /** On a generation's first call, re-opens the session the previous one left in state. */
  protected abstract ensureRestored(): void;

  // ── appending ─────────────────────────────────────────────────────────────────────────────────

  appendMessage(message: AgentMessage): string {
    if (message === null || typeof message !== "object" || typeof message.role !== "string")
      throw new Error("appendMessage needs a message with a string `role`");
    const s = this.requireSession();
    return this.commit(s, { type: "message", ...this.base(s), message });
  }

  appendModelChange(provider: string, modelId: string): string {
    if (!nonEmpty(provider) || !nonEmpty(modelId)) throw new Error("appendModelChange needs a provider and a model id");
    const s = this.requireSession();
    return this.commit(s, { type: "model_change", ...this.base(s), provider, modelId });
  }

  appendThinkingLevelChange(level: ThinkingLevel): string {
    if (!THINKING_LEVELS.includes(level))
      throw new Error(`unknown thinking level ${JSON.stringify(level)}; use one of ${THINKING_LEVELS.join(", ")}`);
    const s = this.requireSession();
    return this.commit(s, { type: "thinking_level_change", ...this.base(s), thinkingLevel: level });
  }

  appendCompaction(
    summary: string,
    firstKeptEntryId: string,
    tokensBefore: number,
    details?: unknown,
    fromHook?: boolean,
  ): string {
    if (typeof summary !== "string") throw new Error("appendCompaction needs a summary string");
    if (typeof tokensBefore !== "number" || !Number.isFinite(tokensBefore))
      throw new Error("appendCompaction needs tokensBefore as a number");
    const s = this.requireSession();
    this.requireEntry(s, firstKeptEntryId, "appendCompaction: firstKeptEntryId");
    return this.commit(s, {
      type: "compaction",
      ...this.base(s),
      summary,
      firstKeptEntryId,
      tokensBefore,
      ...(details !== undefined ? { details } : {}),
      ...(fromHook !== undefined ? { fromHook } : {}),
    });
  }

  appendBranchSummary(fromId: string, summary: string, details?: unknown, fromHook?: boolean): string {
    if (!nonEmpty(fromId) || typeof summary !== "string")
      throw new Error("appendBranchSummary needs the id the branch was left from and a summary string");
    const s = this.requireSession();
    return this.commit(s, {
      type: "branch_summary",
      ...this.base(s),
      fromId,
      summary,
      ...(details !== undefined ? { details } : {}),
      ...(fromHook !== undefined ? { fromHook } : {}),
    });
  }

  appendCustom(customType: string, data?: unknown): string {
    if (!nonEmpty(customType)) throw new Error("appendCustom needs a customType");
    const s = this.requireSession();
    return this.commit(s, { type: "custom", customType, ...(data !== undefined ? { data } : {}), ...this.base(s) });
  }

  appendCustomMessage(
    customType: string,
    content: CustomMessageEntry["content"],
    display: boolean,
    details?: unknown,
  ): string {
    if (!nonEmpty(customType)) throw new Error("appendCustomMessage needs a customType");
    if (typeof content !== "string" && !Array.isArray(content))
      throw new Error("appendCustomMessage needs content as a string or an array of text/image blocks");
    if (typeof display !== "boolean") throw new Error("appendCustomMessage needs display as a boolean");
    const s = this.requireSession();
    return this.commit(s, {
      type: "custom_message",
      customType,
      content,
      display,
      ...(details !== undefined ? { details } : {}),
      ...this.base(s),
    });
  }

  appendLabel(targetId: string, label: string | undefined): string {
    if (label !== undefined && typeof label !== "string")
      throw new Error("appendLabel needs a label string, or undefined to clear it");
    const s = this.requireSession();
    this.requireEntry(s, targetId, "appendLabel: target");
    return this.commit(s, { type: "label", ...this.base(s), targetId, ...(label !== undefined ? { label } : {}) });
  }

  appendSessionInfo(name: string): string {
    if (typeof name !== "string") throw new Error("appendSessionInfo needs a name string");
    const s = this.requireSession();
    return this.commit(s, { type: "session_info", ...this.base(s), name: name.trim() });
  }

  // ── reading and moving ────────────────────────────────────────────────────────────────────────

  entries(): SessionEntry[] {
    this.ensureRestored();
    return this.session === undefined ? [] : [...this.session.tree.entries];
  }

  entry(id: string): SessionEntry | undefined {
    this.ensureRestored();
    return this.session?.tree.entry(id);
  }

  leafId(): string | null {
    this.ensureRestored();
    return this.session === undefined ? null : this.session.tree.leafId;
  }

  branch(entryId: string | null): void {
    const s = this.requireSession();
    let target = entryId;
    if (target !== null) {
      const entry = this.requireEntry(s, target, "branch");
      if (isLeafMarker(entry)) target = entry.parentId;
    }
    if (target === s.tree.leafId) return;
    if (s.path === undefined) {
      s.tree.moveLeaf(target);
      this.saveState();
      return;
    }
    this.commit(s, {
      type: "custom",
      customType: LEAF_MARKER_TYPE,
      data: {},
      id: newEntryId(s.tree.ids),
      parentId: target,
      timestamp: new Date().toISOString(),
    });
  }

  path(entryId?: string): SessionEntry[] {
    const s = this.requireSession();
    if (entryId !== undefined) this.requireEntry(s, entryId, "path");
    return s.tree.rawPath(entryId ?? s.tree.leafId).filter((entry) => !isLeafMarker(entry));
  }

  tree(): TreeNode[] {
    this.ensureRestored();
    return this.session === undefined ? [] : this.session.tree.tree();
  }

  label(entryId: string): string | undefined {
    this.ensureRestored();
    return this.session?.tree.label(entryId);
  }

  protected base(s: S): EntryBase {
    return { id: newEntryId(s.tree.ids), parentId: s.tree.leafId, timestamp: new Date().toISOString() };
  }

  protected requireSession(): S {
    this.ensureRestored();
    if (this.session === undefined)
      throw new Error("no session is open: call newSession, open or continueRecent first");
    return this.session;
  }

  protected requireEntry(s: S, id: string, what: string): SessionEntry {
    const entry = typeof id === "string" ? s.tree.entry(id) : undefined;
    if (entry === undefined) throw new Error(`${what}: no entry ${JSON.stringify(id)} in session ${s.header.id}`);
    return entry;
  }
}

/** A string with something in it (entry fields, ids, a session's cwd). */
export function nonEmpty(value: unknown): value is string {
  return typeof value === "string" && value !== "";
}
