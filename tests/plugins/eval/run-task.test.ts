/**
 * A run whose working folder cannot be made (a fixture Node's copy refuses, here a FIFO) is an error of
 * that run with the reason, not a crash of the whole eval.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runTask } from "../../../plugins/integrations/eval/run-task.js";
import { requireSystemTool } from "../../support/system-tools.js";

describe.skipIf(!requireSystemTool("mkfifo", ["mkfifo"], "the uncopyable-fixture test"))("eval runs", () => {
  it("reports a fixture that cannot be copied as that run's error and starts no agent", async () => {
    const fixture = mkdtempSync(join(tmpdir(), "pi-eval-fifo-"));
    mkdirSync(join(fixture, "src"));
    execFileSync("mkfifo", [join(fixture, "src", "pipe")]);
    const result = await runTask(
      { name: "t", file: "/s/t.json", prompt: "p", fixture, timeout: undefined, checks: [] },
      "no-docs",
      1,
      {
        // Never started: the run fails before pi would be spawned.
        launcher: { command: join(fixture, "no-such-pi"), args: [] },
        model: undefined,
        timeout: 5,
        docs: undefined,
        docsAs: "context",
        piArgs: [],
        keep: false,
        env: process.env,
        signal: new AbortController().signal,
      },
    );
    expect(result).toMatchObject({ task: "t", status: "error", turns: 0, exitCode: null, checks: [] });
    expect(result.error).toMatch(/^cannot prepare the run's folder: .*pipe/);
  });
});
