/**
 * The session store's behaviour tests written for session-jsonl (every entry type round-tripped
 * through a restart, in-memory sessions), run against session-sqlite: same contract, same observable
 * behaviour. The tests about the JSONL file itself stay with session-jsonl.
 */
import sqlitePlugin from "../../../plugins/session/session-sqlite/index.js";
import { storeUnderTest } from "../session-jsonl/harness.js";

storeUnderTest.definition = sqlitePlugin;

await import("../session-jsonl/round-trip.test.js");
await import("../session-jsonl/in-memory.test.js");
