/**
 * Whether a SIGTSTP can stop this process. Linux discards it for an orphaned process group (no member's
 * parent in another group of the same session): pi started by a shell without job control (`sh -c` in a
 * tmux command, some IDE terminals). Suspending there would hand the terminal back and never return, so
 * the shell asks first. Read from /proc along the process's ancestors in its group; elsewhere, assume yes.
 */
import { readFileSync } from "node:fs";

interface ProcStat {
  ppid: number;
  pgrp: number;
  session: number;
}

function procStat(pid: number | "self"): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: fields after it follow the last ")".
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(fields[1]), pgrp: Number(fields[2]), session: Number(fields[3]) };
  } catch {
    return undefined;
  }
}

/** False when the process group is orphaned, so Ctrl+Z would have no effect. */
export function canSuspend(): boolean {
  if (process.platform === "win32") return false;
  const self = procStat("self");
  if (self === undefined) return true;
  let current = self;
  for (let depth = 0; depth < 64; depth++) {
    const parent = procStat(current.ppid);
    if (parent === undefined) return true;
    if (parent.pgrp !== self.pgrp) return parent.session === self.session;
    current = parent;
  }
  return true;
}
