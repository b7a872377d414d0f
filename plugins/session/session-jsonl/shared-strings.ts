/**
 * Why a read session shares its repeated strings. `JSON.parse` makes a new string for every value longer
 * than a few characters, so each of 10,000 assistant messages carried its own copy of the same `api` and
 * `model` names, each tool result its own "toolResult", and each entry's `parentId` a second copy of the
 * id of the entry before it: ~1.3 MB of a 20,000-message session's heap (bench/RESULTS.md, 2026-12-06).
 * The reader passes each entry through here, which points those fields at one copy.
 */

/** Message fields whose values come from a small set (names, roles, reasons). */
const NAME_FIELDS = ["role", "api", "provider", "model", "stopReason", "toolName"] as const;
/** Longer values are not names; they are left as they are. */
const MAX_NAME_LENGTH = 100;

/** One copy of each repeated value, for one file read. */
export class SharedStrings {
  private readonly names = new Map<string, string>();
  private previousId: string | undefined;

  /** Points `entry`'s repeated strings at shared copies (in place); call in file order. */
  share(entry: Record<string, unknown>): void {
    if (entry.parentId === this.previousId) entry.parentId = this.previousId;
    if (typeof entry.id === "string") this.previousId = entry.id;
    const message = entry.message;
    if (message === null || typeof message !== "object") return;
    const fields = message as Record<string, unknown>;
    for (const field of NAME_FIELDS) {
      const value = fields[field];
      if (typeof value !== "string" || value.length > MAX_NAME_LENGTH) continue;
      const shared = this.names.get(value);
      if (shared === undefined) this.names.set(value, value);
      else fields[field] = shared;
    }
  }
}
