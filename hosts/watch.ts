/**
 * Live editing (`pi --watch`): watches the source folder of every file-based plugin and reloads the plugin when its
 * source changes. Folders, not globs (globs never fire); `awaitWriteFinish` turns an atomic save into one
 * event; a short debounce merges the events of one save; and the kernel's content hash turns a save that
 * changed nothing into a no-op. The kernel knows nothing of files changing: this driver only calls
 * `kernel.reload`, so an editor integration could drive reloads the same way.
 */
import { sep } from "node:path";
import { isSourceFile, sourceRoot, type Kernel, type OperationResult } from "../kernel/index.js";

/** Tuning for the watcher; defaults suit editors on a local disk. */
export interface WatchOptions {
  /** How long a file's size must stay still before its change counts (chokidar awaitWriteFinish). */
  stabilityMs?: number;
  /** How long to wait after a plugin's last change event before reloading it. */
  debounceMs?: number;
  /** Called with the result of each reload the watcher started. */
  onReload?: (result: OperationResult) => void;
}

/** A running watcher. */
export interface PluginWatcher {
  /** Re-reads the kernel's entries and watches any new source folders. */
  refresh(): void;
  close(): Promise<void>;
}

type ChokidarWatcher = {
  add(paths: string | string[]): void;
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
    ignored: (path: string) => path.split(/[\\/]/).includes("node_modules"),
  }) as unknown as ChokidarWatcher;
  const ready = new Promise<void>((resolve) => watcher.on("ready", () => resolve()));

  const changed = (path: string): void => {
    if (!isSourceFile(path)) return;
    for (const root of roots()) {
      const owns = root.file !== undefined ? path === root.file : path.startsWith(root.dir + sep);
      if (!owns) continue;
      clearTimeout(timers.get(root.id));
      timers.set(
        root.id,
        setTimeout(() => {
          timers.delete(root.id);
          void kernel.reload(root.id).then((result) => options.onReload?.(result));
        }, debounceMs),
      );
    }
  };
  for (const event of ["add", "change", "unlink"]) watcher.on(event, changed);

  const refresh = (): void => {
    const dirs = [...new Set(roots().map((r) => r.dir))].filter((d) => !watched.has(d));
    for (const d of dirs) watched.add(d);
    if (dirs.length > 0) watcher.add(dirs);
  };
  await ready;
  const stopListening = kernel.on("kernel:commit", refresh);

  return {
    refresh,
    async close() {
      stopListening();
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      await watcher.close();
    },
  };
}

/** The bus event a UI emits for `/reload`. */
export const RELOAD_REQUEST = "host:reload-request";

/**
 * Answers `/reload`: reloads every enabled plugin loaded from source (a saved edit takes effect; an
 * unchanged file is a no-op by content hash). Returns the function that stops listening.
 */
export function reloadOnRequest(kernel: Kernel, onReload?: (result: OperationResult) => void): () => void {
  return kernel.on(RELOAD_REQUEST, () => {
    for (const entry of kernel.entries()) {
      if (entry.enabled && entry.source.kind === "file") void kernel.reload(entry.id).then((result) => onReload?.(result));
    }
  });
}
