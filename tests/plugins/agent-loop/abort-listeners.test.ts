/**
 * 50 parallel tool calls through the loop, each listening for abort as real tools do (bash waits on its
 * command, grep/find on rg/fd): no MaxListenersExceededWarning, every listener gone when the run ends,
 * and an abort still reaches every call.
 */
import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolResultMessage } from "../../../contracts/ai/index.js";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { createBashTool } from "../../../plugins/tools/tool-bash/bash-tool.js";
import { RunningCommands } from "../../../plugins/tools/tool-bash/running-commands.js";
import { gate, LoopHarness, tool } from "./harness.js";

const CALLS = 50;
const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

let warnings: Error[] = [];
const onWarning = (warning: Error): void => {
  if (warning.name === "MaxListenersExceededWarning") warnings.push(warning);
};
beforeEach(() => {
  warnings = [];
  process.on("warning", onWarning);
});
afterEach(() => {
  process.off("warning", onWarning);
});

function manyCalls(name: string, args: Record<string, unknown> = {}) {
  return Array.from({ length: CALLS }, (_, i) => fauxToolCall(name, args, `call-${i}`));
}

describe("abort listeners with 50 parallel tool calls", () => {
  it("tools that each listen for abort while running: no warning, no listener left, all finish", async () => {
    const h = new LoopHarness({ responses: [{ content: manyCalls("listen") }, { content: "ok" }] });
    const release = gate();
    let running = 0;
    h.tools = [
      tool("listen", async (_args, signal) => {
        const onAbort = (): void => {};
        signal?.addEventListener("abort", onAbort, { once: true });
        running++;
        try {
          await release.promise;
          return "done";
        } finally {
          signal?.removeEventListener("abort", onAbort);
        }
      }),
    ];
    const done = h.run("go");
    while (running < CALLS) await flush();
    release.open();
    const added = await done;
    await flush();
    expect(added.filter((m): m is ToolResultMessage => m.role === "toolResult").filter((r) => !r.isError)).toHaveLength(
      CALLS,
    );
    expect(warnings.map((w) => w.message)).toEqual([]);
    expect(getEventListeners(h.abort.signal, "abort")).toHaveLength(0);
  });

  it("an abort still reaches every one of the 50 running calls", async () => {
    const h = new LoopHarness({ responses: [{ content: manyCalls("wait") }, { content: "never" }] });
    let running = 0;
    h.tools = [
      tool(
        "wait",
        (_args, signal) =>
          new Promise((_resolve, reject) => {
            running++;
            signal?.addEventListener("abort", () => reject(new Error("aborted by user")), { once: true });
          }),
      ),
    ];
    const done = h.run("go");
    while (running < CALLS) await flush();
    h.abort.abort();
    const added = await done;
    await flush();
    const results = added.filter((m): m is ToolResultMessage => m.role === "toolResult");
    expect(results).toHaveLength(CALLS);
    expect(
      results.every((r) => r.isError && r.content[0]?.type === "text" && r.content[0].text === "aborted by user"),
    ).toBe(true);
    expect(warnings.map((w) => w.message)).toEqual([]);
  });

  it("the real bash tool, 50 commands at once: no warning", async () => {
    const h = new LoopHarness({
      responses: [{ content: manyCalls("bash", { command: "sleep 0.3" }) }, { content: "ok" }],
    });
    h.tools = [createBashTool({ running: new RunningCommands() })];
    const added = await h.run("go");
    await flush();
    const results = added.filter((m): m is ToolResultMessage => m.role === "toolResult");
    expect(results.filter((r) => !r.isError)).toHaveLength(CALLS);
    expect(warnings.map((w) => w.message)).toEqual([]);
    expect(getEventListeners(h.abort.signal, "abort")).toHaveLength(0);
  }, 60_000);
});
