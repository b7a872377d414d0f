/**
 * Live editing (`pi --watch`): watches the source folder of every file-based plugin and reloads the plugin when its
 * source changes. Folders, not globs (globs never fire); `awaitWriteFinish` turns an atomic save into one
 * event; a short debounce merges the events of one save; and the kernel's content hash turns a save that
 * changed nothing into a no-op. The kernel knows nothing of files changing: this driver only calls
 * `kernel.reload`, so an editor integration could drive reloads the same way.
 */
import { existsSync } from "node:fs";
import { sep } from "node:path";
// Loads the kernel (and the reflect polyfill tsyringe needs) ahead of this module in the bundle's order.
import "../kernel/index.js";
import type { OperationResult } from "../kernel/index.js";
import type { Kernel } from "./host-kernel.js";
import { hashSource, isSourceFile, sourceRoot } from "./source-policy.js";
import { trialLoad } from "./load-trial.js";

/** Tuning for the watcher; defaults suit editors on a local disk. */
export interface WatchOptions {
  /** How long a file's size must stay still before its change counts (chokidar awaitWriteFinish). */
  stabilityMs?: number;
  /** How long to wait after a plugin's last change event before reloading it. */
  debounceMs?: number;
  /** Called with the result of each reload the watcher started. */
  onReload?: (result: OperationResult) => void;
  /**
   * When set, each reload first evaluates the new source in a worker thread with this deadline (ms), and
   * a source whose top level does not finish in time is refused (hosts/load-trial.ts).
   */
  trialDeadlineMs?: number;
  /** How often a watched folder that was moved or deleted is looked for again. */
  lostFolderPollMs?: number;
}

/** A running watcher. */
export interface PluginWatcher {
  /** Re-reads the kernel's entries and watches any new source folders. */
  refresh(): void;
  /** The folders being watched (empty when no plugin is loaded from a source file). */
  folders(): string[];
  close(): Promise<void>;
}

type ChokidarWatcher = {
  add(paths: string | string[]): void;
  unwatch(paths: string | string[]): void;
  on(event: string, listener: (...args: any[]) => void): unknown;
  close(): Promise<void>;
};

/** Starts watching; resolves once the initial scan is done, so a write after it is seen. */
export async function watchPlugins(kernel: Kernel, options: WatchOptions = {}): Promise<PluginWatcher> {
  const { watch } = await import("chokidar");
  const debounceMs = options.debounceMs ?? 0;
  const watched = new Set<string>();
  const timers = new Map<string, NodeJS.Timeout>();
  const roots = (): Array<{ id: string; dir: string; file: string | undefined }> =>
    kernel.entries().flatMap((e) => (e.source.kind === "file" ? [{ id: e.id, ...sourceRoot(e.source.path) }] : []));

  const initial = [...new Set(roots().map((r) => r.dir))];
  for (const dir of initial) watched.add(dir);
  const watcher = watch(initial, {
    ignoreInitial: true,
    awaitWriteFinish: { stabilityThreshold: options.stabilityMs ?? 20, pollInterval: 5 },
    // Only a node_modules below a watched folder: npm package plugins live in npm/node_modules/<name>.
    ignored: (path: string) => {
      const root = [...watched].find((dir) => path === dir || path.startsWith(dir + sep));
      return (root === undefined ? path : path.slice(root.length)).split(/[\\/]/).includes("node_modules");
    },
  }) as unknown as ChokidarWatcher;
  // chokidar never reports "ready" for an empty list; with nothing to watch there is no scan to wait for.
  const ready =
    initial.length === 0 ? Promise.resolve() : new Promise<void>((resolve) => watcher.on("ready", () => resolve()));

  const reload = (id: string): void => {
    void reloadGuarded(kernel, id, options.trialDeadlineMs).then((result) => options.onReload?.(result));
  };
  const schedule = (id: string): void => {
    clearTimeout(timers.get(id));
    timers.set(
      id,
      setTimeout(() => {
        timers.delete(id);
        reload(id);
      }, debounceMs),
    );
  };
  const changed = (path: string): void => {
    for (const root of roots()) {
      if (!isSourceFile(path, root.dir)) continue;
      const owns = root.file !== undefined ? path === root.file : path.startsWith(root.dir + sep);
      if (owns) schedule(root.id);
    }
  };
  for (const event of ["add", "change", "unlink"]) watcher.on(event, changed);

  // chokidar forgets a watched folder that is moved or deleted, and does not notice it coming back: look
  // for it until it is there again, then watch it afresh and reload its plugins (their source may differ).
  const lost = new Set<string>();
  let lostTimer: NodeJS.Timeout | undefined;
  const lookForLost = (): void => {
    lostTimer = undefined;
    for (const dir of [...lost]) {
      if (!existsSync(dir)) continue;
      lost.delete(dir);
      watcher.unwatch(dir);
      watcher.add(dir);
      for (const root of roots()) if (root.dir === dir) schedule(root.id);
    }
    if (lost.size > 0) lostTimer = setTimeout(lookForLost, options.lostFolderPollMs ?? 250).unref();
  };
  watcher.on("unlinkDir", (path: string) => {
    const gone = [...watched].filter((dir) => dir === path || dir.startsWith(path + sep));
    for (const dir of gone) lost.add(dir);
    if (gone.length > 0 && lostTimer === undefined)
      lostTimer = setTimeout(lookForLost, options.lostFolderPollMs ?? 250).unref();
  });

  const refresh = (): void => {
    const dirs = [...new Set(roots().map((r) => r.dir))].filter((d) => !watched.has(d));
    for (const d of dirs) watched.add(d);
    if (dirs.length > 0) watcher.add(dirs);
  };
  await ready;
  const stopListening = kernel.on("kernel:commit", refresh);

  return {
    refresh,
    folders: () => [...watched],
    async close() {
      stopListening();
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      clearTimeout(lostTimer);
      lost.clear();
      await watcher.close();
    },
  };
}

/**
 * Reloads one plugin; with a deadline, a plugin loaded from source is first evaluated in a worker, and
 * one whose top level does not finish in time is refused (the old generation keeps serving) instead of
 * freezing the host.
 */
export async function reloadGuarded(
  kernel: Kernel,
  id: string,
  trialDeadlineMs: number | undefined,
): Promise<OperationResult> {
  const entry = kernel.entries().find((e) => e.id === id);
  if (trialDeadlineMs !== undefined && entry?.source.kind === "file") {
    const path = entry.source.path;
    // A save landing during the trial means the kernel would load source the trial never saw: try again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const before = await hashSource(path).catch(() => undefined);
      const verdict = await trialLoad(path, { deadlineMs: trialDeadlineMs });
      if (verdict.outcome === "hung") {
        const cause = new Error(
          `its top level ran for over ${verdict.deadlineMs} ms without finishing (an endless loop?); the previous version keeps running`,
        );
        return {
          pluginId: id,
          status: "aborted",
          error: {
            pluginId: id,
            phase: "load",
            generation: kernel.describe().plugins.find((p) => p.id === id)?.generation ?? 0,
            cause,
          },
        };
      }
      if (before === (await hashSource(path).catch(() => undefined))) break;
    }
  }
  return kernel.reload(id);
}

/** The bus event a UI emits for `/reload`. */
export const RELOAD_REQUEST = "host:reload-request";

/**
 * Answers `/reload`: reloads every enabled plugin loaded from source (a saved edit takes effect; an
 * unchanged file is a no-op by content hash). Returns the function that stops listening.
 */
export function reloadOnRequest(
  kernel: Kernel,
  onReload?: (result: OperationResult) => void,
  trialDeadlineMs?: number,
): () => void {
  return kernel.on(RELOAD_REQUEST, () => {
    for (const entry of kernel.entries()) {
      if (entry.enabled && entry.source.kind === "file")
        void reloadGuarded(kernel, entry.id, trialDeadlineMs).then((result) => onReload?.(result));
    }
  });
}
