/**
 * Commit-before-show under SIGKILL: 50 times, a child appends entries to a session-sqlite session and
 * prints each id after its append returns; it is killed at a seeded moment. After each kill the
 * database opens and holds every id the child reported, in order.
 */
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, expect, it } from "vitest";
import sqlitePlugin from "../../../plugins/session/session-sqlite/index.js";
import { bootStore, tempDir, type BootedStore } from "../session-jsonl/harness.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const CHILD = fileURLToPath(new URL("./crash-child.mjs", import.meta.url));
const KILLS = 50;
const SEED = 0x5eed_5a1e;

let storeModule: string;
let reader: BootedStore | undefined;

beforeAll(async () => {
  // Inside the package, so the bundle's lazy require finds better-sqlite3 in node_modules.
  const out = join(ROOT, "node_modules", ".cache", `pi-sqlite-crash-${process.pid}`);
  mkdirSync(out, { recursive: true });
  storeModule = join(out, "store.mjs");
  await build({
    entryPoints: [join(ROOT, "plugins/session/session-sqlite/store.ts")],
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

function runAndKill(agentDir: string, sessionDir: string, seed: number, afterIds: number) {
  return new Promise<{ path: string; reported: string[]; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, [CHILD, storeModule, agentDir, sessionDir, String(seed)], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      let killed = false;
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        // Killed once it reported `afterIds` ids: a count, not a time, so the test does not depend on speed.
        if (!killed && stdout.split("\n").length - 2 >= afterIds) {
          killed = true;
          child.kill("SIGKILL");
        }
      });
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.on("error", reject);
      child.on("close", (_code, signal) => {
        const lines = stdout.split("\n");
        const complete = stdout.endsWith("\n") ? lines.slice(0, -1) : lines.slice(0, -1);
        const path = (complete.shift() ?? "").replace(/^path /, "");
        resolve({ path, reported: complete, signal, stderr });
      });
    },
  );
}

it("keeps every entry whose append returned, across 50 SIGKILLs", async () => {
  const agentDir = tempDir("pi-sqlite-crash-");
  const sessionDir = join(agentDir, "sessions", "--p--");
  reader = await bootStore(agentDir, sqlitePlugin);
  let a = SEED;
  for (let run = 0; run < KILLS; run++) {
    a = (Math.imul(a, 1_103_515_245) + 12_345) >>> 0;
    const result = await runAndKill(agentDir, sessionDir, a, 1 + (a % 40));
    expect(result.signal, result.stderr).toBe("SIGKILL");
    expect(result.path).toMatch(/sessions\.sqlite#/);
    await reader.store.open(result.path);
    const ids = reader.store.entries().map((entry) => entry.id);
    expect(ids.length).toBeGreaterThanOrEqual(result.reported.length + 2);
    for (const id of result.reported) expect(ids).toContain(id);
  }
  const listed = await reader.store.list({ cwd: "/p", sessionDir });
  expect(listed).toHaveLength(KILLS);
}, 300_000);
