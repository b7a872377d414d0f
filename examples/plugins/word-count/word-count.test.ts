/**
 * The worked example's own test, the way docs/plugins.md teaches plugin testing: boot a real Kernel with
 * the plugin as a file source (loaded through jiti, as `pi` loads it), call it through a stable handle,
 * reload it, and watch the phases with a phase hook.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import * as host from "pi-host";
import { countText } from "./count.js";

const ENTRY = fileURLToPath(new URL("./index.ts", import.meta.url));
const fromFile: host.PluginSource = { kind: "file", path: ENTRY };

let kernel: host.Kernel | undefined;
afterEach(async () => {
  await kernel?.shutdown();
  kernel = undefined;
});

/** A kernel whose source-loaded plugins get this very "pi-host" module, as `pi` gives them its own. */
function newKernel(options: host.KernelOptions = {}): host.Kernel {
  kernel = new host.Kernel({ ...options, virtualModules: { "pi-host": host } });
  return kernel;
}

/** A folder with one file in it, and the ToolContext a session would lend the tool there. */
function workingFolder(name: string, text: string): host.ToolContext {
  const cwd = mkdtempSync(join(tmpdir(), "word-count-"));
  writeFileSync(join(cwd, name), text);
  return { cwd, withFileLock: (_path, work) => work() };
}

/** Calls word_count through its stable handle, as the agent loop does. */
async function countFile(k: host.Kernel, tool: host.ToolContext, path: string): Promise<host.ToolResult> {
  const handle = k
    .useAll(host.ToolContract)
    .list()
    .find((h) => h.peek()?.name === "word_count");
  if (handle === undefined) throw new Error("word_count is not provided");
  return handle.call("execute", "call_1", { path }, undefined, undefined, tool);
}

describe("countText", () => {
  it("counts words, lines as an editor shows them, and code points", () => {
    expect(countText("")).toEqual({ words: 0, lines: 0, characters: 0 });
    expect(countText("one two\nthree\n")).toEqual({ words: 3, lines: 2, characters: 14 });
    expect(countText("no newline at the end")).toMatchObject({ words: 5, lines: 1 });
    expect(countText("🙂 ok")).toMatchObject({ words: 2, characters: 4 });
  });
});

describe("the word-count plugin in a kernel", () => {
  it("boots from its file and counts a file through the tool handle", async () => {
    const k = newKernel();
    const boot = await k.boot([{ id: "word-count", source: fromFile }]);
    expect(boot.errors).toEqual([]);
    const tool = workingFolder("notes.txt", "the answer is 42\nsee above\n");
    const result = await countFile(k, tool, "notes.txt");
    expect(result.content).toEqual([{ type: "text", text: "notes.txt: 6 words, 2 lines, 27 characters" }]);
    expect(result.details).toMatchObject({ totals: { filesCounted: 1, wordsCounted: 6 } });
  });

  it("validates config before setup runs, and uses it", async () => {
    const refused = await newKernel().boot([{ id: "word-count", source: fromFile, config: { maxBytes: 0 } }]);
    expect(refused.ok).toBe(false);
    expect(refused.configErrors).toHaveLength(1);
    expect(refused.configErrors[0]).toMatchObject({
      pluginId: "word-count",
      field: "config.maxBytes",
      message: "Expected integer to be greater or equal to 1",
    });

    const k = newKernel();
    await k.boot([{ id: "word-count", source: fromFile, config: { maxBytes: 8 } }]);
    const tool = workingFolder("long.txt", "more than eight bytes");
    await expect(countFile(k, tool, "long.txt")).rejects.toThrow(
      "long.txt has 21 bytes; word_count reads at most 8 (config maxBytes)",
    );
  });

  it("keeps its totals across a reload, and migrates the state of version 1", async () => {
    const versionOne = host.definePlugin({
      id: "word-count",
      version: "1.0.0",
      provides: [host.ToolContract],
      state: { version: 1, schema: host.Type.Object({ calls: host.Type.Integer() }), initial: () => ({ calls: 7 }) },
      setup() {},
    });
    const k = newKernel();
    await k.boot([{ id: "word-count", source: { kind: "inline", label: "word-count 1.0.0", definition: versionOne } }]);
    expect((await k.reload("word-count", { source: fromFile })).status).toBe("committed");
    const tool = workingFolder("a.txt", "one two three\n");
    expect((await countFile(k, tool, "a.txt")).details).toMatchObject({ totals: { filesCounted: 8, wordsCounted: 3 } });

    // Same version again (a save in the editor): no migration needed, the totals carry over as they are.
    expect((await k.reload("word-count", { source: fromFile })).status).toBe("committed");
    expect((await countFile(k, tool, "a.txt")).details).toMatchObject({ totals: { filesCounted: 9, wordsCounted: 6 } });
    expect(k.activeGeneration("word-count")).toBe(3);
  });

  it("goes through load, prepare, gate, migrate, commit and retire on a reload (seen by a phase hook)", async () => {
    const phases: string[] = [];
    const k = newKernel({ phaseHook: (info) => void phases.push(`${info.phase}:${info.generation}`) });
    await k.boot([{ id: "word-count", source: fromFile }]);
    phases.length = 0;
    await k.reload("word-count", { source: fromFile });
    expect(phases).toEqual(["load:2", "prepare:2", "gate:2", "migrate:2", "commit:2", "retire:1"]);
  });
});
