/**
 * A 20,000-message session opens and builds its context fast (target: under ~300 ms here). The time is
 * logged, not asserted, so a slow CI machine cannot fail the build; the test checks the work is right.
 */
import { performance } from "node:perf_hooks";
import { afterEach, describe, expect, it } from "vitest";
import { assistant, bootStore, storageBytes, storeUnderTest, tempDir, user, type BootedStore } from "./harness.js";

const MESSAGES = 20_000;

const booted: BootedStore[] = [];
afterEach(async () => {
  for (const b of booted.splice(0)) await b.kernel.shutdown();
});

describe("a 20,000-message session", () => {
  it("opens and builds its context quickly (time logged)", async () => {
    const agentDir = tempDir();
    const writer = await bootStore(agentDir);
    booted.push(writer);
    const info = await writer.store.newSession({ cwd: "/p" });
    const filler = "lorem ipsum dolor sit amet ".repeat(12);
    const appendStart = performance.now();
    let firstKept = "";
    for (let i = 0; i < MESSAGES; i++) {
      const id = writer.store.appendMessage(
        i % 2 === 0 ? user(`question ${i} ${filler}`) : assistant(`answer ${i} ${filler}`),
      );
      if (i === MESSAGES - 1_000) firstKept = id;
    }
    const appendMs = performance.now() - appendStart;
    const leaf = writer.store.leafId();

    const reader = await bootStore(agentDir);
    booted.push(reader);
    const start = performance.now();
    await reader.store.open(info.path!);
    const context = reader.store.buildContext();
    const openAndBuildMs = performance.now() - start;

    expect(context.messages).toHaveLength(MESSAGES);
    expect(context.entryIds.at(-1)).toBe(leaf);
    const buildStart = performance.now();
    reader.store.buildContext();
    const buildMs = performance.now() - buildStart;

    // With a compaction near the end the context is short, and building it is still a walk of the path.
    reader.store.appendCompaction("summary", firstKept, 123_456);
    expect(reader.store.buildContext().messages).toHaveLength(1 + 1_000);

    const mb = (storageBytes(info.path!) / 1_048_576).toFixed(1);
    console.log(
      `${storeUnderTest.definition.id}: ${MESSAGES} messages (${mb} MB): open + buildContext ${openAndBuildMs.toFixed(0)} ms ` +
        `(buildContext alone ${buildMs.toFixed(1)} ms); ${MESSAGES} appends ${appendMs.toFixed(0)} ms`,
    );
  });
});
