/**
 * How a plugin's owned child process ends when its generation retires (kit/process/owned.ts): SIGTERM,
 * a grace period, then SIGKILL — for a detached child, of its whole process group.
 */
import type { ChildProcess } from "node:child_process";

/** How long a child has between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 1_000;

/**
 * Ends a child process: SIGTERM, then SIGKILL after a grace period; resolves when it has exited. For a
 * process group, whatever of the group outlives the leader (a grandchild ignoring SIGTERM) gets SIGKILL.
 */
export function endProcess(child: ChildProcess, group: boolean): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return Promise.resolve();
  const signal = (name: NodeJS.Signals | 0): boolean => {
    try {
      if (group) process.kill(-pid, name);
      else if (name !== 0) child.kill(name);
      return true;
    } catch {
      return false;
    }
  };
  const exited = child.exitCode !== null || child.signalCode !== null;
  if (exited && !(group && signal(0))) return Promise.resolve();
  return new Promise((resolve) => {
    const finish = (): void => {
      clearTimeout(killer);
      if (group && signal(0)) signal("SIGKILL");
      resolve();
    };
    const killer = setTimeout(() => {
      signal("SIGKILL");
      if (exited) finish();
    }, KILL_GRACE_MS);
    if (!exited) child.once("exit", finish);
    signal("SIGTERM");
  });
}
