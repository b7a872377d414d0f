/**
 * Acceptance 2, crash safety: a child process appending to one session file in a tight loop is SIGKILLed
 * at 50 random moments (delays from a seeded PRNG), and restarted on the same file each time. After every
 * kill the file opens through the store, the context builds, and nothing complete is lost:
 *  - every id the child reported (printed only after its append returned) is in the session and the context;
 *  - every whole line the file held before reopening is still an entry, in order, chained to the one before;
 *  - a torn last line (the kill landed inside a write) is set aside in a side file byte for byte and
 *    reported through OpenReport.setAside, and the file is cut back to its whole lines — never silently dropped.
 * The child loads the store module compiled once with esbuild (what tsup builds with), so each restart
 * costs node's start-up rather than a TypeScript transpile.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionEntry } from "../../../contracts/session.js";
import { assistant, bootStore, tempDir, user, type BootedStore } from "./harness.js";

const STORE_SOURCE = fileURLToPath(new URL("../../../plugins/session/session-jsonl/store.ts", import.meta.url));
const CHILD = fileURLToPath(new URL("./crash-child.mjs", import.meta.url));
const KILLS = 50;
const SEED = 0x5eed_2025;
/** Kill moments are drawn between 0 and this many ms after the child says "ready". */
const MAX_DELAY_MS = 25;

/** mulberry32, the same small seeded PRNG the child uses. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

let storeModule: string;
let reader: BootedStore;

beforeAll(async () => {
  const out = tempDir("pi-crash-build-");
  storeModule = join(out, "store.mjs");
  await build({
    entryPoints: [STORE_SOURCE],
    outfile: storeModule,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "silent",
  });
});

afterAll(async () => {
  await reader?.kernel.shutdown();
});

/** What one child run left: the ids it reported, and whether it died by our SIGKILL. */
interface ChildRun {
  reported: string[];
  signal: NodeJS.Signals | null;
  stderr: string;
}

/**
 * Starts a child on `file`, waits for "ready", lets it append for `delayMs`, SIGKILLs it and collects
 * every id it printed (the pipe keeps what was written before the kill; EOF comes after).
 */
function runAndKill(file: string, seed: number, delayMs: number): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, storeModule, file, String(seed)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let ready = false;
    let timer: NodeJS.Timeout | undefined;
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      if (!ready && stdout.startsWith("ready\n")) {
        ready = true;
        timer = setTimeout(() => child.kill("SIGKILL"), delayMs);
      }
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (!ready) return reject(new Error(`child exited (${signal ?? code}) before it was ready: ${stderr}`));
      // Only whole lines are reports: a line cut by the kill was never completely written.
      const lines = stdout.split("\n").slice(1, -1);
      resolve({ reported: lines, signal, stderr });
    });
  });
}

/**
 * The file as the kill left it: all its bytes, those up to the last newline, how many whole lines those
 * are, and the bytes after the last newline (a torn write). Whole lines are not parsed here: opening parses
 * them, and a whole line that is not an entry would be set aside and the file rewritten, which the test
 * catches. `tailIsEntry`: the kill cut only the final newline, so the tail is a whole entry without it —
 * the store keeps such a line (and starts its next write with the missing newline), it is not torn.
 */
function snapshot(file: string): {
  bytes: Buffer;
  whole: Buffer;
  wholeLines: number;
  tail: Buffer;
  tailIsEntry: boolean;
} {
  const bytes = readFileSync(file);
  const end = bytes.lastIndexOf(0x0a) + 1;
  let wholeLines = 0;
  for (let at = bytes.indexOf(0x0a); at !== -1 && at < end; at = bytes.indexOf(0x0a, at + 1)) wholeLines++;
  const tail = bytes.subarray(end);
  return {
    bytes,
    whole: bytes.subarray(0, end),
    wholeLines,
    tail,
    tailIsEntry: tail.length > 0 && isJsonObject(tail.toString("utf8")),
  };
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value);
  } catch {
    return false;
  }
}

describe("crash safety", () => {
  it(`a writer SIGKILLed at ${KILLS} random moments never loses a complete entry`, async () => {
    const agentDir = tempDir("pi-crash-");
    reader = await bootStore(agentDir);
    const { store } = reader;
    const info = await store.newSession({ cwd: "/project" });
    store.appendMessage(user("start"));
    store.appendMessage(assistant("ok"));
    const file = info.path!;

    const random = prng(SEED);
    const everReported = new Set<string>();
    let torn = 0;
    let tornBytes = 0;
    const started = performance.now();
    for (let kill = 0; kill < KILLS; kill++) {
      const delayMs = Math.floor(random() * MAX_DELAY_MS);
      const run = await runAndKill(file, SEED + kill, delayMs);
      expect(run.signal, `run ${kill} should die by SIGKILL: ${run.stderr}`).toBe("SIGKILL");
      for (const id of run.reported) everReported.add(id);

      const before = snapshot(file);
      const report = await store.open(file);
      const entries = store.entries();

      // A torn tail is set aside byte for byte and reported; the file keeps exactly its whole lines.
      if (before.tail.length > 0 && !before.tailIsEntry) {
        torn++;
        tornBytes += before.tail.length;
        expect(
          report.setAside,
          `run ${kill}: a torn tail of ${before.tail.length} bytes must be reported`,
        ).toMatchObject({ lines: 1 });
        expect(readFileSync(report.setAside!.file).equals(Buffer.concat([before.tail, Buffer.from("\n")]))).toBe(true);
        expect(readFileSync(file).equals(before.whole)).toBe(true);
      } else {
        expect(report.setAside, `run ${kill}: nothing was torn, nothing may be set aside`).toBeUndefined();
        expect(readFileSync(file).equals(before.bytes)).toBe(true);
      }

      // Every whole line after the header is an entry, each chained to the one before (one writer, one branch).
      expect(entries).toHaveLength(before.wholeLines - 1 + (before.tailIsEntry ? 1 : 0));
      const unchained = entries
        .filter((entry, i) => i > 0 && entry.parentId !== entries[i - 1].id)
        .map((entry) => entry.id);
      expect(unchained, `run ${kill}: entries not chained to the line before`).toEqual([]);

      // Every append whose write returned, in every run so far, is there.
      const ids = new Set(entries.map((e) => e.id));
      const missing = [...everReported].filter((id) => !ids.has(id));
      expect(missing, `run ${kill}: reported but missing`).toEqual([]);

      // The context builds, from leaf to root, with every message of the session in it.
      const context = store.buildContext();
      const messageIds = entries.filter((e: SessionEntry) => e.type === "message").map((e) => e.id);
      expect(context.entryIds).toEqual(messageIds);
      expect(context.entryIds.at(-1)).toBe(store.leafId());
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const mb = (readFileSync(file).length / 1_048_576).toFixed(1);
    console.log(
      `crash: ${KILLS} kills in ${seconds} s; ${everReported.size} reported appends all present; ` +
        `${torn} torn tail(s) (${tornBytes} bytes) set aside; final file ${mb} MB, ${store.entries().length} entries`,
    );
    expect(everReported.size).toBeGreaterThan(KILLS);
  }, 90_000);
});
