/**
 * bash's full-output temp files are cleaned up: a process deletes its own when it exits, the next run
 * deletes those left by a killed process, and a running process keeps only its newest ones (the one
 * the last result points to stays readable). The end-to-end cases run the real bash tool in a child
 * Node process with its own TMPDIR.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SpillFiles } from "../../../kit/tools/bash/spill-files.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

function tempFolder(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "pi-tool-bash-spill-")));
}

/**
 * A child Node process that loads the TypeScript bash tool (through jiti), runs a command whose output
 * spills to a temp file, prints the file's path, then exits — or, with `hang`, waits to be killed.
 */
function childScript(hang: boolean): string {
  return `
    import { createJiti } from "jiti";
    const jiti = createJiti(${JSON.stringify(join(ROOT, "package.json"))});
    const { createBashTool } = await jiti.import(${JSON.stringify(join(ROOT, "plugins/tools/tool-bash/bash-tool.ts"))});
    const { RunningCommands } = await jiti.import(${JSON.stringify(join(ROOT, "plugins/tools/tool-bash/running-commands.ts"))});
    const tool = createBashTool({ running: new RunningCommands() });
    const result = await tool.execute("c", { command: "seq 1 5000" }, undefined, undefined, { cwd: process.cwd(), withFileLock: (_k, f) => f() });
    process.stdout.write(result.details.fullOutputPath + "\\n");
    if (${hang}) setInterval(() => {}, 1000);
  `;
}

/** Runs the child in `tmp` until it prints a path; resolves with the path and the child's pid. */
function runChild(tmp: string, hang: boolean): Promise<{ path: string; pid: number; exited: Promise<unknown> }> {
  const child = spawn(process.execPath, ["--input-type=module", "-e", childScript(hang)], {
    cwd: ROOT,
    env: { ...process.env, TMPDIR: tmp },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  let out = "";
  let err = "";
  child.stderr.on("data", (chunk) => (err += chunk));
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      out += chunk;
      if (out.endsWith("\n")) resolve({ path: out.trim(), pid: child.pid!, exited });
    });
    child.once("exit", (code) => {
      if (!out.endsWith("\n")) reject(new Error(`child exited ${code} before printing a path: ${err}`));
    });
  });
}

describe("bash full-output temp files", () => {
  it("a process deletes its own files when it exits", async () => {
    const tmp = tempFolder();
    const { path, exited } = await runChild(tmp, false);
    expect(path.startsWith(join(tmp, "pi-bash-"))).toBe(true);
    await exited;
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(tmp)).toEqual([]);
  }, 60_000);

  it("files of a killed process are deleted by the next run's first spill; its own newest file stays", async () => {
    const tmp = tempFolder();
    const killed = await runChild(tmp, true);
    process.kill(killed.pid, "SIGKILL");
    await killed.exited;
    expect(existsSync(killed.path)).toBe(true);
    const foreign = join(tmp, "pi-bash-0123456789abcdef.log");
    writeFileSync(foreign, "a file in another naming scheme is not ours to delete");

    const files = new SpillFiles(() => tmp);
    const mine = files.newPath();
    writeFileSync(mine, "output");
    expect(existsSync(killed.path)).toBe(false);
    expect(existsSync(foreign)).toBe(true);
    expect(existsSync(mine)).toBe(true);
  }, 60_000);

  it("keeps only the newest files of a running process; files of live processes are left alone", () => {
    const tmp = tempFolder();
    const alive = join(tmp, `pi-bash-${process.ppid}-00000000000000aa.log`);
    writeFileSync(alive, "a live process's output");
    const dead = spawnSync("true").pid!;
    const stale = join(tmp, `pi-bash-${dead}-00000000000000bb.log`);
    writeFileSync(stale, "a dead process's output");
    const files = new SpillFiles(
      () => tmp,
      3,
      (pid) => pid !== dead,
    );
    const paths = Array.from({ length: 5 }, () => {
      const path = files.newPath();
      writeFileSync(path, "x");
      return path;
    });
    expect(paths.map(existsSync)).toEqual([false, false, true, true, true]);
    expect(existsSync(alive)).toBe(true);
    expect(existsSync(stale)).toBe(false);
    files.removeAll();
    expect(paths.map(existsSync)).toEqual([false, false, false, false, false]);
  });
});
