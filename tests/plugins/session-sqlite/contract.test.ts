/**
 * The session store's behaviour tests written for session-jsonl, run against session-sqlite: same
 * contract, same observable behaviour. Every entry type round-tripped through a restart, in-memory
 * sessions, the moved leaf and its markers, forks, listings and `continueRecent`, reloads of the plugin
 * (open, unwritten, in-memory and vanished sessions, another writer's entries), a 20,000-message
 * session, pi 1.6 `usage`/`context_edit` entries and hand-edited pi files (opened by import). The tests
 * about the JSONL file itself (torn lines, file modes, a full disk, v1/v2 rewrites in place, interleaved
 * lines of two writer processes, pi's own files byte for byte) stay with session-jsonl; SQLite's crash
 * safety has its own test beside this one.
 */
import sqlitePlugin from "../../../plugins/session/session-sqlite/index.js";
import { storeUnderTest } from "../session-jsonl/harness.js";

storeUnderTest.definition = sqlitePlugin;

await import("../session-jsonl/round-trip.test.js");
await import("../session-jsonl/in-memory.test.js");
await import("../session-jsonl/branch.test.js");
await import("../session-jsonl/fork.test.js");
await import("../session-jsonl/list.test.js");
await import("../session-jsonl/reload.test.js");
await import("../session-jsonl/performance.test.js");
await import("../session-jsonl/pi16-entries.test.js");
await import("../session-jsonl/hand-edited.test.js");
await import("../session-jsonl/other-sessions.test.js");
