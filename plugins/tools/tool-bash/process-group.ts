/**
 * Killing a command means killing everything it started. Each command runs as the leader of its own
 * process group (spawned detached), so one signal to the negative pid reaches the shell, its children
 * and their children alike.
 */

/** How long a group gets to exit on SIGTERM before it is sent SIGKILL. */
export const KILL_GRACE_MS = 1_000;

/** Sends `signal` to the whole group led by `pgid`; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    // EPERM: some member belongs to someone else; still reach the leader we started.
    try {
      process.kill(pgid, signal);
      return true;
    } catch {
      return false;
    }
  }
}

/** Whether any process of the group led by `pgid` still exists (zombies included). */
export function groupExists(pgid: number): boolean {
  return signalGroup(pgid, 0);
}
