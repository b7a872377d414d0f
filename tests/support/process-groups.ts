/**
 * Process groups as `ps` lists them, for tests that check a kill reached a whole group (a shell, its
 * children and grandchildren).
 */
import { execFileSync } from "node:child_process";

/** Pids of live (non-zombie) processes in the group `pgid`. */
export function liveGroupMembers(pgid: number): number[] {
  const table = execFileSync("ps", ["-eo", "pid=,pgid=,stat="], { encoding: "utf8" });
  const members: number[] = [];
  for (const row of table.split("\n")) {
    const [pid, group, stat] = row.trim().split(/\s+/);
    if (Number(group) === pgid && stat !== undefined && !stat.startsWith("Z")) members.push(Number(pid));
  }
  return members;
}

/**
 * The group's live members once it is empty, or as they are after `withinMs`. A SIGKILL is delivered at
 * once, but a killed process leaves the process table a moment later, so a loaded machine may still
 * list it right after the kill.
 */
export async function membersAfterKill(pgid: number, withinMs = 2_000): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const members = liveGroupMembers(pgid);
    if (members.length === 0 || Date.now() > deadline) return members;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
