/**
 * The remote tools against a real sshd on 127.0.0.1: read, write, edit, ls, grep, find and bash act on
 * the remote folder (checked on disk), the local cwd stays untouched, and the answers equal the local
 * tools' answers for the same files — the same schemas, limits, notes and errors. Skips with the reason
 * when /usr/sbin/sshd is absent.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFileLocks, type AgentTool, type ToolResult } from "../../../contracts/tool.js";
import { createBashTool } from "../../../plugins/tools/tool-bash/bash-tool.js";
import { RunningCommands } from "../../../plugins/tools/tool-bash/running-commands.js";
import { createEditTool } from "../../../plugins/tools/tool-edit/edit-tool.js";
import { createFindTool } from "../../../plugins/tools/tool-find/find-tool.js";
import { createGrepTool } from "../../../plugins/tools/tool-grep/grep-tool.js";
import { createLsTool } from "../../../plugins/tools/tool-ls/ls-tool.js";
import { createReadTool } from "../../../plugins/tools/tool-read/read-tool.js";
import { bootRemote, entriesOf, type RemoteTools, sshConfig, tempFolder, textOf } from "./harness.js";
import { startSshd, sshdMissing, type TestSshd } from "./sshd.js";

const missing = sshdMissing();
if (missing !== undefined) console.log(`skipping the remote tools' sshd tests: ${missing}`);

let sshd: TestSshd;
let folder: string;
let remote: RemoteTools;
let posix: RemoteTools;

/** The local tool of that name, run with the remote folder as its cwd (the two folders are one disk here). */
async function local(tool: AgentTool<any, any>, params: unknown): Promise<ToolResult> {
  return tool.execute("local", params as never, undefined, undefined, { cwd: folder, withFileLock: createFileLocks() });
}

/** The answer or the thrown message, to compare the local and the remote tools' errors too. */
async function outcome(
  run: () => Promise<ToolResult>,
): Promise<{ text: string; isError?: boolean; details?: unknown }> {
  try {
    const result = await run();
    return { text: textOf(result), isError: result.isError, details: result.details };
  } catch (error) {
    return { text: `threw: ${(error as Error).message}` };
  }
}

describe.skipIf(missing !== undefined)("tools-remote over SSH", () => {
  beforeAll(async () => {
    sshd = await startSshd();
    folder = tempFolder("pi-remote-dir-");
    writeFileSync(join(folder, "notes.txt"), "alpha\nbeta\ngamma\n");
    writeFileSync(join(folder, ".hidden"), "secret\n");
    mkdirSync(join(folder, "src/deep"), { recursive: true });
    writeFileSync(join(folder, "src/main.ts"), "export const answer = 42;\n// TODO: more\n");
    writeFileSync(join(folder, "src/deep/util.ts"), "export function util() {\n  return 'TODO';\n}\n");
    writeFileSync(join(folder, "big.txt"), Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`).join("\n"));
    writeFileSync(join(folder, "blob.bin"), Buffer.from([1, 2, 0, 3]));
    remote = await bootRemote(sshConfig(sshd, folder));
    posix = await bootRemote(sshConfig(sshd, folder, { searchPrograms: "posix" }));
  }, 60_000);
  afterAll(async () => {
    await remote?.kernel.shutdown();
    await posix?.kernel.shutdown();
    await sshd?.stop();
  });

  it("offers the seven tools with the local tools' schemas and descriptions", () => {
    const locals = [createReadTool(), createEditTool(), createLsTool(), createFindTool(), createGrepTool()];
    expect([...remote.tools.keys()].sort()).toEqual(["bash", "edit", "find", "grep", "ls", "read", "write"]);
    for (const tool of locals) {
      const twin = remote.tools.get(tool.name)!;
      expect(twin.parameters).toEqual(tool.parameters);
      expect(twin.description).toBe(tool.description);
      expect(twin.enabled?.()).toBe(true);
    }
  });

  it("read answers as the local read: whole files, truncation notes, offsets, missing, folder and binary errors", async () => {
    const read = createReadTool();
    for (const params of [
      { path: "notes.txt" },
      { path: "big.txt" },
      { path: "big.txt", offset: 2990, limit: 5 },
      { path: "notes.txt", offset: 99 },
      { path: "nope.txt" },
      { path: "src" },
      { path: "blob.bin" },
      { path: `${folder}/src/main.ts` },
    ]) {
      expect(await outcome(() => remote.call("read", params)), JSON.stringify(params)).toEqual(
        await outcome(() => local(read, params)),
      );
    }
    expect(textOf(await remote.call("read", { path: "notes.txt" }))).toBe("alpha\nbeta\ngamma\n");
  });

  it("write creates the file (and its folders) in the remote folder; edit changes it; the local cwd stays empty", async () => {
    const wrote = await remote.call("write", { path: "out/new/file.txt", content: "one\ntwo\nthree\n" });
    expect(textOf(wrote)).toBe("Successfully wrote 14 bytes to out/new/file.txt");
    expect(readFileSync(join(folder, "out/new/file.txt"), "utf-8")).toBe("one\ntwo\nthree\n");
    const edited = await remote.call("edit", { path: "out/new/file.txt", edits: [{ oldText: "two", newText: "TWO" }] });
    expect(textOf(edited)).toBe("Successfully replaced 1 block(s) in out/new/file.txt.");
    expect(edited.details).toMatchObject({ firstChangedLine: 2 });
    expect(readFileSync(join(folder, "out/new/file.txt"), "utf-8")).toBe("one\nTWO\nthree\n");
    expect(entriesOf(remote.localCwd)).toEqual([]);
    expect(existsSync(join(remote.localCwd, "out"))).toBe(false);
  });

  it("edit refuses as the local edit does: no match, two matches, a missing file, a folder, a binary file", async () => {
    const edit = createEditTool();
    writeFileSync(join(folder, "twice.txt"), "same\nsame\n");
    for (const params of [
      { path: "notes.txt", edits: [{ oldText: "delta", newText: "x" }] },
      { path: "twice.txt", edits: [{ oldText: "same", newText: "x" }] },
      { path: "missing.txt", edits: [{ oldText: "a", newText: "b" }] },
      { path: "src", edits: [{ oldText: "a", newText: "b" }] },
      { path: "blob.bin", edits: [{ oldText: "a", newText: "b" }] },
    ]) {
      const theirs = await outcome(() => remote.call("edit", params));
      expect(theirs.text).toMatch(/^threw: /);
      expect(theirs, JSON.stringify(params)).toEqual(await outcome(() => local(edit, params)));
    }
    expect(readFileSync(join(folder, "twice.txt"), "utf-8")).toBe("same\nsame\n");
  });

  it("write into a path under a file, or onto a folder, fails with the local write's lines", async () => {
    expect((await outcome(() => remote.call("write", { path: "notes.txt/x", content: "" }))).text).toBe(
      "threw: Cannot write notes.txt/x: a parent in that path is a file, not a folder.",
    );
    expect((await outcome(() => remote.call("write", { path: "src", content: "" }))).text).toBe(
      "threw: Cannot write src: it is a directory.",
    );
  });

  it("ls lists the remote folder like the local ls (dotfiles, folders with '/', limits, errors)", async () => {
    const ls = createLsTool();
    for (const params of [{}, { path: "src" }, { limit: 2 }, { path: "nope" }, { path: "notes.txt" }]) {
      expect(await outcome(() => remote.call("ls", params)), JSON.stringify(params)).toEqual(
        await outcome(() => local(ls, params)),
      );
    }
    expect(textOf(await remote.call("ls", {}))).toContain(".hidden\n");
  });

  it("grep with the remote rg and with POSIX grep answers as the local grep", async () => {
    const grep = createGrepTool();
    for (const params of [
      { pattern: "TODO" },
      { pattern: "todo", ignoreCase: true },
      { pattern: "answer", context: 1 },
      { pattern: "TODO", path: "src/main.ts" },
      { pattern: "export", limit: 1 },
      { pattern: "nothing-matches-this" },
      { pattern: "x", path: "nope" },
    ]) {
      const expected = await outcome(() => local(grep, params));
      expect(await outcome(() => remote.call("grep", params)), `rg ${JSON.stringify(params)}`).toEqual(expected);
      expect(await outcome(() => posix.call("grep", params)), `grep ${JSON.stringify(params)}`).toEqual(expected);
    }
  });

  it("find with the remote fd and with POSIX find answers as the local find", async () => {
    const find = createFindTool();
    for (const params of [
      { pattern: "*.ts" },
      { pattern: "src/**/*.ts" },
      { pattern: "*.txt", limit: 1 },
      { pattern: "*", path: "nope" },
    ]) {
      const expected = await outcome(() => local(find, params));
      expect(await outcome(() => remote.call("find", params)), `fd ${JSON.stringify(params)}`).toEqual(expected);
      expect(await outcome(() => posix.call("find", params)), `find ${JSON.stringify(params)}`).toEqual(expected);
    }
  });

  it("bash runs in the remote folder and answers as the local bash: output, exit codes, long output's tail", async () => {
    const bash = createBashTool({ running: new RunningCommands() });
    expect(textOf(await remote.call("bash", { command: "pwd" })).trim()).toBe(folder);
    for (const params of [
      { command: "pwd; ls" },
      { command: "echo out; echo err >&2; exit 3" },
      { command: "true" },
      { command: "true", timeout: -1 },
      { command: "printf 'no newline'" },
    ]) {
      expect(await outcome(() => remote.call("bash", params)), JSON.stringify(params)).toEqual(
        await outcome(() => local(bash, params)),
      );
    }
    const long = await remote.call("bash", { command: "seq 1 5000" });
    expect(textOf(long)).toMatch(/^3001\n[\s\S]*\n5000\n\n\[Showing lines 3001-5000 of 5000\. Full output: .+\]$/);
    const fullOutput = (long.details as { fullOutputPath: string }).fullOutputPath;
    expect(readFileSync(fullOutput, "utf-8").split("\n")).toHaveLength(5001);
  });

  it("bash timeout and abort kill the remote command's whole process group", async () => {
    const timedOut = await remote.call("bash", { command: "echo started; sleep 1000", timeout: 1 });
    expect(timedOut.isError).toBe(true);
    expect(textOf(timedOut)).toMatch(/^started\n+Command timed out after 1 seconds$/);

    const pidFile = join(folder, "sleeper.pid");
    const controller = new AbortController();
    const running = remote.call(
      "bash",
      { command: `sleep 1000 & echo $! > ${pidFile}; echo ready; wait` },
      controller.signal,
      (partial) => {
        if (textOf(partial as ToolResult).includes("ready")) controller.abort();
      },
    );
    await expect(running).rejects.toThrow(/Command aborted$/);
    const sleeper = Number(readFileSync(pidFile, "utf-8"));
    expect(processAlive(sleeper)).toBe(false);
  });

  it("unloading the plugin stops its running remote commands", async () => {
    const own = await bootRemote(sshConfig(sshd, folder), { drainTimeoutMs: 50 });
    const pidFile = join(folder, "unload.pid");
    let started: () => void = () => {};
    const ready = new Promise<void>((resolve) => {
      started = resolve;
    });
    const running = own.call(
      "bash",
      { command: `sleep 1000 & echo $! > ${pidFile}; echo ready; wait` },
      undefined,
      (p) => {
        if (textOf(p as ToolResult).includes("ready")) started();
      },
    );
    const settled = running.then(
      () => "resolved",
      (error: Error) => error.message,
    );
    await ready;
    expect((await own.kernel.disable("tools-remote")).status).toBe("committed");
    expect(await settled).toMatch(/\n\nCommand aborted: the bash tool was unloaded$/);
    expect(processAlive(Number(readFileSync(pidFile, "utf-8")))).toBe(false);
    await own.kernel.shutdown();
  });
});

/** Whether `pid` still runs: a zombie (killed, not yet reaped by its adoptive parent) counts as ended. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf-8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}
