/**
 * Node resources a plugin generation owns: timers, child processes and file watchers, each tied to the
 * generation through the kernel's generic `ctx.effect` / `ctx.own`, so retire clears, ends or closes them.
 * The kernel knows only "own this disposer"; what a timer or a process is lives here.
 */
import type { ChildProcess, SpawnOptions } from "node:child_process";
import { watch, type FSWatcher } from "node:fs";
import type { PluginContext } from "../../kernel/index.js";
import { endProcess } from "./end-process.js";
import { childProcess } from "./node-builtins.js";

/** An owned timer: started at commit (at once when already active), cleared at retire. */
export function ownedTimeout(ctx: PluginContext<any, any>, callback: () => void, ms: number): void {
  ctx.effect("timeout", () => {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  });
}

/** An owned interval: started at commit (at once when already active), cleared at retire. */
export function ownedInterval(ctx: PluginContext<any, any>, callback: () => void, ms: number): void {
  ctx.effect("interval", () => {
    const timer = setInterval(callback, ms);
    return () => clearInterval(timer);
  });
}

/**
 * An owned child process (not from setup): ended at retire by SIGTERM, a grace period, then SIGKILL —
 * with `detached: true` the child leads its own process group, and the whole group is ended.
 */
export function ownedSpawn(
  ctx: PluginContext<any, any>,
  command: string,
  args: readonly string[],
  options: SpawnOptions = {},
): ChildProcess {
  let child: ChildProcess | undefined;
  // Owned before it starts, so a refused context (setup, retired) starts no process.
  const forget = ctx.own(`process ${command}`, () =>
    child ? endProcess(child, options.detached === true) : undefined,
  );
  try {
    child = childProcess().spawn(command, args, options);
  } catch (error) {
    forget();
    throw error;
  }
  child.once("exit", forget);
  return child;
}

/** An owned file watcher (not from setup): closed at retire. */
export function ownedWatch(
  ctx: PluginContext<any, any>,
  path: string,
  listener: (event: string, filename: string | null) => void,
): FSWatcher {
  let watcher: FSWatcher | undefined;
  const forget = ctx.own(`watch ${path}`, () => watcher?.close());
  try {
    watcher = watch(path, listener);
  } catch (error) {
    forget();
    throw error;
  }
  return watcher;
}
