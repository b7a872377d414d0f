/**
 * Checks the entries of a loaded file before they are indexed, so a hand-edited session opens with a
 * clear line per damaged entry instead of a TypeError deep in the agent. Only the in-memory copy is
 * changed; the file stays as the user left it.
 *  - a message entry whose `message` is not an object with a string `role`, or whose content is of the
 *    wrong kind, is skipped, and its children hang from its parent instead;
 *  - an entry repeating an earlier id is skipped (the first one wins);
 *  - a parent chain that loops back is cut: the entry closing the loop becomes a root;
 *  - an assistant message without `usage` gets zero usage (pi counts it as nothing spent);
 *  - a `usage` entry whose usage is not a set of token counts and a cost, or a `context_edit` entry
 *    without a target id or with a replacement that is neither null nor `{content}` of text or blocks,
 *    is skipped like a broken message.
 * Entries of a type this version does not know load as they are and stay out of the model's context.
 */
/** What the checks read of an entry (a session entry has these fields and more). */
interface EntryFields {
  type: string;
  id: string;
  parentId: string | null;
  message?: unknown;
  usage?: unknown;
  targetId?: unknown;
  replacement?: unknown;
}

/** The entries fit to index, and one line per problem found. */
export interface CheckedSessionEntries<Entry> {
  entries: Entry[];
  problems: string[];
}

const ZERO_USAGE = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

/** Checks `entries` (file order) and returns usable copies where something had to change. */
export function checkSessionEntries<Entry extends EntryFields>(
  entries: readonly Entry[],
  path: string,
): CheckedSessionEntries<Entry> {
  const problems: string[] = [];
  const kept: Entry[] = [];
  const byId = new Map<string, EntryFields>();
  /** Ids that were referenced as a parent before their entry appeared: only these can close a loop. */
  const referencedEarly = new Set<string>();
  /** A skipped entry's id → the parent its children hang from instead. */
  const skippedParent = new Map<string, string | null>();
  const say = (entry: EntryFields, what: string): void => {
    problems.push(`${path}: entry ${entry.id} ${what}`);
  };

  for (const original of entries) {
    let entry = original;
    const parentId = resolveParent(entry.parentId, skippedParent);
    if (parentId !== entry.parentId) entry = { ...entry, parentId };

    if (byId.has(entry.id)) {
      say(entry, "repeats an earlier id; skipped");
      continue;
    }
    const fault =
      entry.type === "usage" ? usageFault(entry) : entry.type === "context_edit" ? editFault(entry) : undefined;
    if (fault !== undefined) {
      say(entry, `${fault}; skipped`);
      skippedParent.set(entry.id, entry.parentId);
      continue;
    }
    if (entry.type === "message") {
      const fault = messageFault(entry.message);
      if (fault !== undefined) {
        say(entry, `${fault}; skipped`);
        skippedParent.set(entry.id, entry.parentId);
        continue;
      }
      const message = entry.message as unknown as Record<string, unknown>;
      if (message.role === "assistant" && (message.usage === null || typeof message.usage !== "object")) {
        entry = { ...entry, message: { ...message, usage: structuredClone(ZERO_USAGE) } };
      }
    }
    if (
      entry.parentId !== null &&
      (entry.parentId === entry.id || (referencedEarly.has(entry.id) && closesLoop(entry, byId)))
    ) {
      say(entry, "has a parent chain that loops back to it; the loop is cut there (the entry becomes a root)");
      entry = { ...entry, parentId: null };
    }
    if (entry.parentId !== null && !byId.has(entry.parentId)) referencedEarly.add(entry.parentId);
    byId.set(entry.id, entry);
    kept.push(entry);
  }
  return { entries: kept, problems };
}

/** The parent to use: a skipped entry's place is taken by its own (resolved) parent. */
function resolveParent(parentId: string | null, skippedParent: ReadonlyMap<string, string | null>): string | null {
  if (skippedParent.size === 0) return parentId;
  let current = parentId;
  const seen = new Set<string>();
  while (current !== null && skippedParent.has(current) && !seen.has(current)) {
    seen.add(current);
    current = skippedParent.get(current)!;
  }
  return current;
}

/** Whether walking up from `entry`'s parent (through entries already kept) comes back to `entry`. */
function closesLoop(entry: EntryFields, byId: ReadonlyMap<string, EntryFields>): boolean {
  const seen = new Set<string>();
  let current = entry.parentId;
  while (current !== null && !seen.has(current)) {
    if (current === entry.id) return true;
    seen.add(current);
    current = byId.get(current)?.parentId ?? null;
  }
  return current === entry.id;
}

/** What is wrong with a message entry's `message`, or undefined when it can be used. */
function messageFault(message: unknown): string | undefined {
  if (message === null || typeof message !== "object" || Array.isArray(message)) return "has no message object";
  const { role, content } = message as { role?: unknown; content?: unknown };
  if (typeof role !== "string") return "has a message without a role";
  if (role === "user" || role === "custom") {
    if (typeof content !== "string" && !blockArray(content))
      return `has a ${role} message whose content is neither text nor a list of blocks`;
  } else if (role === "assistant" || role === "toolResult") {
    if (!blockArray(content))
      return `has an ${role === "assistant" ? "assistant" : "tool result"} message whose content is not a list of blocks`;
  }
  return undefined;
}

/** An array of objects, each with a string `type`. */
function blockArray(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every(
      (block) => block !== null && typeof block === "object" && typeof (block as { type?: unknown }).type === "string",
    )
  );
}

/** What is wrong with a `usage` entry, or undefined when its usage can be counted. */
function usageFault(entry: EntryFields): string | undefined {
  const usage = entry.usage as Record<string, unknown> | null | undefined;
  if (usage === null || typeof usage !== "object") return "is a usage entry without usage";
  const counts = ["input", "output", "cacheRead", "cacheWrite"].every((k) => typeof usage[k] === "number");
  const cost = usage.cost as { total?: unknown } | null | undefined;
  if (!counts || cost === null || typeof cost !== "object" || typeof cost.total !== "number")
    return "is a usage entry whose usage lacks token counts or a cost total";
  return undefined;
}

/** What is wrong with a `context_edit` entry, or undefined when it can be applied. */
function editFault(entry: EntryFields): string | undefined {
  if (typeof entry.targetId !== "string") return "is a context edit without a target id";
  const replacement = entry.replacement as { content?: unknown } | null | undefined;
  if (replacement === null) return undefined;
  if (
    replacement === undefined ||
    typeof replacement !== "object" ||
    (typeof replacement.content !== "string" && !blockArray(replacement.content))
  )
    return "is a context edit whose replacement is neither null nor text or a list of blocks";
  return undefined;
}
