/**
 * Ending a run's detached child (pi, or a check's shell) with everything it started: SIGTERM to its
 * process group, so pi can stop its tools (the bash tool's commands run in groups of their own), then
 * SIGKILL to the group after a grace period for whatever is left.
 */
import type { ChildProcess } from "node:child_process";

/** How long a group has between SIGTERM and SIGKILL. */
const GRACE_MS = 3_000;

/** Signals the group led by `pid`; false when it is gone. */
function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Ends a detached child's group: SIGTERM now, SIGKILL after the grace period if it has not exited. */
export function endGroup(child: ChildProcess): void {
  const pid = child.pid;
  if (pid === undefined || !signalGroup(pid, "SIGTERM")) return;
  const killer = setTimeout(() => signalGroup(pid, "SIGKILL"), GRACE_MS);
  killer.unref();
  child.once("close", () => {
    clearTimeout(killer);
    // What the leader left behind in its group.
    signalGroup(pid, "SIGKILL");
  });
}
