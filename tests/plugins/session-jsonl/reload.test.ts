/**
 * A reload of the store (a new generation of the plugin through the kernel's prepare → gate → migrate →
 * commit → retire) keeps the open session and its leaf: state carries the file path and leaf, or the
 * entries themselves when they are not on disk. Setup is declare-only: booting and reloading touch no file.
 */
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { SessionStoreContract } from "../../../contracts/session.js";
import type { PluginSource } from "../../../kernel/index.js";
import { Kernel } from "../../schema-kernel.js";
import {
  assistant,
  brief,
  bootStore,
  storeUnderTest,
  filePerSession,
  appendForeign,
  removeStorage,
  readJsonLines,
  tempDir,
  throughHandle,
  user,
  type BootedStore,
} from "./harness.js";

const PLUGIN_FILE = fileURLToPath(new URL("../../../plugins/session/session-jsonl/index.ts", import.meta.url));

const booted: BootedStore[] = [];
afterEach(async () => {
  for (const b of booted.splice(0)) await b.kernel.shutdown();
});

async function boot(agentDir: string): Promise<BootedStore> {
  const b = await bootStore(agentDir);
  booted.push(b);
  return b;
}

/** A new generation of the same plugin (a fresh inline definition, as an edit would give). */
async function reload(b: BootedStore): Promise<void> {
  const definition = storeUnderTest.definition;
  const before = b.kernel.activeGeneration(definition.id)!;
  const result = await b.kernel.reload(definition.id, {
    source: { kind: "inline", label: "edited", definition: { ...definition } },
  });
  expect(result).toMatchObject({ status: "committed", generation: before + 1 });
}

/** Descriptors of this process that point at `path` (Linux /proc), to see that retire closed the file. */
function openDescriptors(path: string): number {
  if (!existsSync("/proc/self/fd")) return 0;
  return readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false;
    }
  }).length;
}

describe("reloading the store", () => {
  it("keeps the open file session and its moved leaf, and closes the old generation's descriptor", async () => {
    const b = await boot(tempDir());
    const info = await b.store.newSession({ cwd: "/p" });
    const q1 = b.store.appendMessage(user("q1"));
    const a1 = b.store.appendMessage(assistant("a1"));
    b.store.appendMessage(user("q2"));
    b.store.branch(a1);
    const context = b.store.buildContext();
    if (filePerSession()) expect(openDescriptors(info.path!)).toBe(1);

    await reload(b);
    if (filePerSession()) expect(openDescriptors(info.path!)).toBe(0);
    expect(b.store.current()).toEqual(info);
    expect(b.store.leafId()).toBe(a1);
    expect(b.store.buildContext()).toEqual(context);
    const q3 = b.store.appendMessage(user("q3"));
    expect(b.store.path().map((e) => e.id)).toEqual([q1, a1, q3]);
  });

  it("keeps this process's leaf even when another writer appended meanwhile", async () => {
    const b = await boot(tempDir());
    const info = await b.store.newSession({ cwd: "/p" });
    const q1 = b.store.appendMessage(user("q1"));
    const a1 = b.store.appendMessage(assistant("a1"));
    const foreign = {
      type: "message",
      id: "0f0f0f0f",
      parentId: q1,
      timestamp: new Date().toISOString(),
      message: assistant("another process"),
    };
    appendForeign(info.path!, foreign);

    await reload(b);
    expect(b.store.leafId()).toBe(a1);
    expect(b.store.entry("0f0f0f0f")).toEqual(foreign);
  });

  it("keeps a session that is not on disk yet (no assistant message) and writes it whole later", async () => {
    const agentDir = tempDir();
    const b = await boot(agentDir);
    const info = await b.store.newSession({ cwd: "/p" });
    const q1 = b.store.appendMessage(user("q1"));
    expect(existsSync(info.path!)).toBe(false);

    await reload(b);
    expect(b.store.current()).toEqual(info);
    expect(b.store.leafId()).toBe(q1);
    b.store.appendMessage(assistant("a1"));
    expect(readJsonLines(info.path!).map((l) => (l.type === "session" ? "session" : l.id))).toEqual([
      "session",
      q1,
      b.store.leafId(),
    ]);
  });

  it("keeps an in-memory session's entries and leaf", async () => {
    const agentDir = tempDir();
    const b = await boot(agentDir);
    const info = await b.store.newSession({ cwd: "/p", inMemory: true });
    const q1 = b.store.appendMessage(user("q1"));
    b.store.appendMessage(assistant("a1"));
    b.store.branch(q1);

    await reload(b);
    expect(b.store.current()).toEqual(info);
    expect(b.store.leafId()).toBe(q1);
    expect(b.store.entries()).toHaveLength(2);
    expect(brief(b.store.buildContext().messages)).toEqual(["user: q1"]);
    expect(readdirSync(agentDir)).toEqual([]);
  });

  it("says once, clearly, when the open session's file vanished before the reload, then starts from nothing", async () => {
    const b = await boot(tempDir());
    const info = await b.store.newSession({ cwd: "/p" });
    b.store.appendMessage(user("q1"));
    b.store.appendMessage(assistant("a1"));
    removeStorage(info.path!);

    await reload(b);
    expect(() => b.store.leafId()).toThrow(
      `the session open before the reload could not be resumed: no session file at ${info.path}`,
    );
    expect(b.store.current()).toBeUndefined();
  });

  it("works from the plugin's source file (loaded through jiti), touching no file at boot or reload", async () => {
    const agentDir = join(tempDir(), "agent-not-created-yet");
    const kernel = new Kernel();
    const source: PluginSource = { kind: "file", path: PLUGIN_FILE };
    const result = await kernel.boot([{ id: "session-jsonl", source, config: { agentDir } }]);
    expect(result.errors).toEqual([]);
    const handle = kernel.use(SessionStoreContract);
    const store = throughHandle(handle);
    booted.push({ kernel, handle, store });
    expect(existsSync(agentDir)).toBe(false);

    const info = await store.newSession({ cwd: "/p" });
    store.appendMessage(user("q1"));
    const a1 = store.appendMessage(assistant("a1"));
    const text = readFileSync(info.path!, "utf8");

    expect(await kernel.reload("session-jsonl", { source })).toMatchObject({ status: "committed", generation: 2 });
    expect(readFileSync(info.path!, "utf8")).toBe(text);
    expect(store.current()).toEqual(info);
    expect(store.leafId()).toBe(a1);
  });
});
