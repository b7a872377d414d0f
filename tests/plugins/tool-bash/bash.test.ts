import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TypeGuard } from "@sinclair/typebox";
import { afterEach, describe, expect, it } from "vitest";
import { ToolContract, type AgentTool, type ToolResult } from "../../../contracts/tool.js";
import { Kernel } from "../../schema-kernel.js";
import { createBashTool, type BashDetails } from "../../../plugins/tools/tool-bash/bash-tool.js";
import bashPlugin from "../../../plugins/tools/tool-bash/index.js";
import { KILL_GRACE_MS } from "../../../plugins/tools/tool-bash/process-group.js";
import { RunningCommands } from "../../../plugins/tools/tool-bash/running-commands.js";
import { ThrottledUpdates } from "../../../kit/tools/bash/throttled-updates.js";
import { membersAfterKill } from "../../support/process-groups.js";
import { liveGroupMembers, tempDir, textOf, toolContext, waitForUpdate } from "./helpers.js";

type BashResult = ToolResult<BashDetails | undefined>;

function bashTool(options: { shellPath?: string; commandPrefix?: string } = {}) {
  return createBashTool({ running: new RunningCommands(), ...options });
}

function run(
  tool: AgentTool<any, any>,
  command: string,
  extra: { timeout?: number; signal?: AbortSignal; onUpdate?: (p: ToolResult<unknown>) => void; cwd?: string } = {},
): Promise<BashResult> {
  const params = extra.timeout === undefined ? { command } : { command, timeout: extra.timeout };
  return tool.execute("call-1", params, extra.signal, extra.onUpdate, toolContext(extra.cwd ?? tempDir()));
}

/** A shell with a child sleep and a subshell with its own (grandchild) sleep; prints both ids once all exist. */
const FAMILY = "sleep 1000 & (sleep 1000 & echo grandchild $!; wait) & echo group $$; wait";
const FAMILY_STARTED = /^(?=[\s\S]*grandchild (\d+))(?=[\s\S]*group (\d+))/;

const kernels: Kernel[] = [];
afterEach(async () => {
  for (const kernel of kernels.splice(0)) await kernel.shutdown();
});

describe("tool-bash plugin", () => {
  it("boots in a kernel and provides the bash tool under key bash with a TypeBox object schema", async () => {
    const kernel = new Kernel();
    kernels.push(kernel);
    const boot = await kernel.boot([
      { id: "tool-bash", source: { kind: "inline", label: "tool-bash", definition: bashPlugin } },
    ]);
    expect(boot.errors).toEqual([]);
    const handles = kernel.useAll(ToolContract).list();
    expect(handles.map((h) => h.key)).toEqual(["tool-bash#bash"]);
    const tool = handles[0]!.peek()!;
    expect(tool.name).toBe("bash");
    expect(TypeGuard.IsObject(tool.parameters)).toBe(true);
    expect(Object.keys(tool.parameters.properties)).toEqual(["command", "timeout"]);
    expect(tool.parameters.required).toEqual(["command"]);
    const cwd = tempDir();
    const result: BashResult = await handles[0]!.call(
      "execute",
      "id",
      { command: "echo through the handle; pwd" },
      undefined,
      undefined,
      toolContext(cwd),
    );
    expect(textOf(result)).toBe(`through the handle\n${cwd}`);
  });

  it("uses the configured command prefix and shell", async () => {
    const prefixed = bashTool({ commandPrefix: "export GREETING=hello-from-prefix" });
    expect(textOf(await run(prefixed, "echo $GREETING"))).toBe("hello-from-prefix");
    const sh = bashTool({ shellPath: "/bin/sh" });
    expect(textOf(await run(sh, "echo $0"))).toBe("/bin/sh");
    await expect(run(bashTool({ shellPath: "/no/such/shell" }), "true")).rejects.toThrow(
      "Custom shell path not found: /no/such/shell",
    );
  });
});

describe("bash tool", () => {
  it("runs a command in ctx.cwd and returns its output without details", async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, "marker.txt"), "");
    const result = await run(bashTool(), "pwd; ls", { cwd });
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toBe(`${cwd}\nmarker.txt`);
    expect(result.details).toBeUndefined();
  });

  it("says (no output) for a silent command", async () => {
    expect(textOf(await run(bashTool(), "true"))).toBe("(no output)");
  });

  it("merges stdout and stderr in the order they were written", async () => {
    const result = await run(bashTool(), "echo one; echo two >&2; echo three; ls /no/such/path; echo four");
    expect(textOf(result)).toBe("one\ntwo\nthree\nls: cannot access '/no/such/path': No such file or directory\nfour");
  });

  it("streams output through onUpdate before the command ends", async () => {
    const cwd = tempDir();
    const go = join(cwd, "go");
    const updates: string[] = [];
    const started = waitForUpdate(/started/);
    const call = run(bashTool(), `echo started; while [ ! -f ${go} ]; do sleep 0.01; done; echo finished`, {
      cwd,
      onUpdate: (partial) => {
        updates.push(textOf(partial));
        started.listener(partial);
      },
    });
    await started.seen;
    // The command cannot finish until this file exists, so the update above arrived while it ran.
    expect(updates.some((text) => text.includes("finished"))).toBe(false);
    writeFileSync(go, "");
    const result = await call;
    expect(textOf(result)).toBe("started\nfinished");
  });

  it("throttles updates: a burst of changes emits once at once and once more after the interval", async () => {
    let emitted = 0;
    let second: () => void = () => {};
    const secondEmit = new Promise<void>((resolve) => {
      second = resolve;
    });
    const updates = new ThrottledUpdates(() => {
      emitted++;
      if (emitted === 2) second();
    }, 20);
    for (let i = 0; i < 1000; i++) updates.changed();
    expect(emitted).toBe(1);
    await secondEmit;
    expect(emitted).toBe(2);
    updates.stop();
  });

  it("keeps the last 2,000 lines of huge output and spills everything to a temp file", async () => {
    const result = await run(bashTool(), "seq 1 100000");
    const text = textOf(result);
    const fullOutputPath = result.details?.fullOutputPath;
    expect(fullOutputPath).toMatch(new RegExp(`pi-bash-${process.pid}-[0-9a-f]{16}\\.log$`));
    expect(text.startsWith("98001\n98002\n")).toBe(true);
    expect(text.endsWith(`\n100000\n\n[Showing lines 98001-100000 of 100000. Full output: ${fullOutputPath}]`)).toBe(
      true,
    );
    expect(result.details?.truncation).toMatchObject({
      truncated: true,
      truncatedBy: "lines",
      totalLines: 100000,
      outputLines: 2000,
    });
    expect(readFileSync(fullOutputPath!, "utf8")).toBe(execFileSync("seq", ["1", "100000"], { encoding: "utf8" }));
  });

  it("keeps the last 50 KB when lines are long, on whole lines", async () => {
    // 1,000 lines of 99 digits: 100,000 bytes; 512 whole lines fit in 51,200 bytes.
    const result = await run(bashTool(), "for i in $(seq 1 1000); do printf '%099d\\n' $i; done");
    const text = textOf(result);
    const lines = text.split("\n\n[")[0]!.split("\n");
    expect(lines).toHaveLength(512);
    expect(lines[0]).toBe("489".padStart(99, "0"));
    expect(lines.at(-1)).toBe("1000".padStart(99, "0"));
    expect(text).toContain(
      `[Showing lines 489-1000 of 1000 (50.0KB limit). Full output: ${result.details?.fullOutputPath}]`,
    );
    expect(readFileSync(result.details!.fullOutputPath!, "utf8").split("\n")).toHaveLength(1001);
  });

  it("shows the end of a single line longer than 50 KB", async () => {
    const result = await run(bashTool(), "head -c 200000 /dev/zero | tr '\\0' 'x'; echo -n END");
    const text = textOf(result);
    expect(text).toContain(
      `[Showing last 50.0KB of line 1 (line is 195.3KB). Full output: ${result.details?.fullOutputPath}]`,
    );
    expect(text.split("\n\n[")[0]).toBe(`${"x".repeat(51200 - 3)}END`);
    expect(readFileSync(result.details!.fullOutputPath!, "utf8")).toBe(`${"x".repeat(200000)}END`);
  });

  it("returns an error result with the output and the exit code for a failing command", async () => {
    const failed = await run(bashTool(), "echo some output; exit 3");
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toBe("some output\n\nCommand exited with code 3");
    const silent = await run(bashTool(), "exit 1");
    expect(textOf(silent)).toBe("(no output)\n\nCommand exited with code 1");
  });

  it("times out: kills the command's group and returns the output so far", async () => {
    const started = waitForUpdate(/group (\d+)/);
    const call = run(bashTool(), "sleep 1000 & echo group $$; wait", { timeout: 0.5, onUpdate: started.listener });
    const pgid = Number((await started.seen)[1]);
    expect(liveGroupMembers(pgid).length).toBeGreaterThanOrEqual(2);
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(`group ${pgid}\n\nCommand timed out after 0.5 seconds`);
    expect(liveGroupMembers(pgid)).toEqual([]);
  });

  it("aborts: kills the shell, its children and grandchildren, and rejects promptly", async () => {
    const controller = new AbortController();
    const started = waitForUpdate(FAMILY_STARTED);
    const call = run(bashTool(), FAMILY, { signal: controller.signal, onUpdate: started.listener });
    const ids = await started.seen;
    const grandchild = Number(ids[1]);
    const pgid = Number(ids[2]);
    // bash, a sleep, a subshell and its sleep.
    expect(liveGroupMembers(pgid)).toHaveLength(4);
    expect(liveGroupMembers(pgid)).toContain(grandchild);
    const abortedAt = Date.now();
    controller.abort();
    await expect(call).rejects.toThrow(/\n\nCommand aborted$/);
    expect(Date.now() - abortedAt).toBeLessThan(1_000);
    expect(liveGroupMembers(pgid)).toEqual([]);
  });

  it("SIGKILLs what ignores SIGTERM after the grace period, and only then settles", async () => {
    const controller = new AbortController();
    const started = waitForUpdate(/^(?=[\s\S]*stubborn (\d+))(?=[\s\S]*group (\d+))/);
    const command = "(trap '' TERM; sleep 1000 & echo stubborn $!; wait) & echo group $$; wait";
    const call = run(bashTool(), command, { signal: controller.signal, onUpdate: started.listener });
    const ids = await started.seen;
    const pgid = Number(ids[2]);
    expect(liveGroupMembers(pgid)).toContain(Number(ids[1]));
    const abortedAt = Date.now();
    controller.abort();
    await expect(call).rejects.toThrow(/\n\nCommand aborted$/);
    expect(Date.now() - abortedAt).toBeGreaterThanOrEqual(KILL_GRACE_MS - 50);
    expect(liveGroupMembers(pgid)).toEqual([]);
  });

  it("refuses to start when already aborted or when the folder is missing", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(run(bashTool(), "echo never", { signal: controller.signal })).rejects.toThrow("Command aborted");
    await expect(run(bashTool(), "true", { cwd: "/no/such/folder" })).rejects.toThrow(
      "Working directory does not exist: /no/such/folder",
    );
    await expect(run(bashTool(), "true", { timeout: Number.NaN })).rejects.toThrow(
      "Invalid timeout: must be a finite number of seconds",
    );
  });

  it("refuses a timeout a timer cannot wait for (1e308 s overflowed to 1 ms) and runs one just under the maximum", async () => {
    for (const timeout of [1e308, Number.POSITIVE_INFINITY, 2_147_484]) {
      await expect(run(bashTool(), "sleep 0.2; echo survived", { timeout })).rejects.toThrow(/^Invalid timeout: /);
    }
    await expect(run(bashTool(), "true", { timeout: 1e308 })).rejects.toThrow(
      "Invalid timeout: maximum is 2147483.647 seconds",
    );
    await expect(run(bashTool(), "true", { timeout: 0 })).rejects.toThrow(
      "Invalid timeout: must be a finite number of seconds",
    );
    const justUnder = await run(bashTool(), "sleep 0.2; echo survived", { timeout: 2_147_483 });
    expect(textOf(justUnder)).toBe("survived");
  });

  it("a retiring tool-bash generation kills a running command's process group", async () => {
    const kernel = new Kernel({ drainTimeoutMs: 50 });
    kernels.push(kernel);
    await kernel.boot([{ id: "tool-bash", source: { kind: "inline", label: "tool-bash", definition: bashPlugin } }]);
    const handle = kernel.useAll(ToolContract).list()[0]!;
    const started = waitForUpdate(FAMILY_STARTED);
    const call: Promise<BashResult> = handle.call(
      "execute",
      "id",
      { command: FAMILY },
      undefined,
      started.listener,
      toolContext(tempDir()),
    );
    const settled = call.then(
      () => "resolved",
      (error: Error) => error.message,
    );
    const ids = await started.seen;
    const pgid = Number(ids[2]);
    expect(liveGroupMembers(pgid)).toHaveLength(4);
    const disabled = await kernel.disable("tool-bash");
    expect(disabled.status).toBe("committed");
    expect(await membersAfterKill(pgid)).toEqual([]);
    expect(await settled).toMatch(/\n\nCommand aborted: the bash tool was unloaded$/);
  });

  it("leaves no temp file when the output fits", async () => {
    const result = await run(bashTool(), "seq 1 2000");
    expect(result.details).toBeUndefined();
    expect(textOf(result).split("\n")).toHaveLength(2000);
    expect(existsSync(String(result.details?.fullOutputPath))).toBe(false);
  });
});
