/** Shared helpers for the bash tool tests: temp folders, a tool instance, and process-group inspection. */
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

export { liveGroupMembers } from "../../support/process-groups.js";

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
