/** Shared helpers for the bash tool tests: temp folders, a tool instance, and process-group inspection. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileLocks, type ToolContext, type ToolResult } from "../../../contracts/tool.js";

/** A fresh real folder (symlinks resolved, so `pwd` prints it unchanged). */
export function tempDir(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "pi-tool-bash-")));
}

/** The context a session would lend the tool. */
export function toolContext(cwd: string): ToolContext {
  return { cwd, withFileLock: createFileLocks() };
}

/** The text of a result's first content block. */
export function textOf(result: ToolResult<unknown>): string {
  const block = result.content[0];
  return block !== undefined && block.type === "text" ? block.text : "";
}

/** Pids of live (non-zombie) processes in the group `pgid`, read from `ps`. */
export function liveGroupMembers(pgid: number): number[] {
  const table = execFileSync("ps", ["-eo", "pid=,pgid=,stat="], { encoding: "utf8" });
  const members: number[] = [];
  for (const row of table.split("\n")) {
    const [pid, group, stat] = row.trim().split(/\s+/);
    if (Number(group) === pgid && stat !== undefined && !stat.startsWith("Z")) members.push(Number(pid));
  }
  return members;
}

/** Resolves with the first streamed text that matches `pattern`; `listener` goes to the tool as onUpdate. */
export function waitForUpdate(pattern: RegExp): {
  listener: (partial: ToolResult<unknown>) => void;
  seen: Promise<RegExpMatchArray>;
} {
  let found: (match: RegExpMatchArray) => void = () => {};
  const seen = new Promise<RegExpMatchArray>((resolve) => {
    found = resolve;
  });
  return {
    seen,
    listener: (partial) => {
      const match = textOf(partial).match(pattern);
      if (match) found(match);
    },
  };
}
