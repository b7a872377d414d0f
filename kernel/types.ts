/**
 * The kernel's data shapes as hosts see them: the entries and options they pass in, and the results and
 * descriptions they get back. Plain data, so a host can log, compare or serialize any of it.
 */
import type { ChildProcess } from "node:child_process";
import type { TSchema } from "@sinclair/typebox";
import type { LifecycleError, Phase } from "./errors.js";
import type { PluginSource } from "./loader.js";

/** One plugin the kernel should run: an id, where its code is, its raw config, and whether it is on. */
export interface PluginEntry {
  id: string;
  source: PluginSource;
  config?: unknown;
  enabled?: boolean;
}

/** Where the kernel is in a lifecycle operation; tests pause here through `phaseHook`. */
export interface PhaseInfo {
  pluginId: string;
  phase: Phase;
  generation: number;
}

/**
 * What the host hands the kernel: its policies for the platform's parts (how plugin source is evaluated,
 * hashed and watched at setup, how config and state are checked, how a child process ends), and bounds
 * that each have a default.
 */
export interface KernelOptions {
  /**
   * Checks an entry's raw config against the plugin's config schema and returns it with defaults filled in;
   * throws on a bad value (an error's `field` and `reason` name it in a boot's config errors). Without it
   * the raw config is used as given (`{}` when absent).
   */
  validateConfig?: (schema: TSchema | undefined, raw: unknown) => unknown;
  /** Checks a plugin's state against its state schema, throwing on a mismatch; without it state is not checked. */
  checkState?: (schema: TSchema, value: unknown) => void;
  /** Evaluates a file plugin's module and returns its default export; without it, the runtime's `import()`. */
  importSource?: (path: string) => Promise<unknown>;
  /** Runs a plugin's setup and reports the kinds of I/O it started, refused as declare-only; without it none are seen. */
  watchSetup?: <T>(body: () => T) => { result: T; io: string[] };
  /** The host's content hash of a file plugin's source: an unchanged source reloads as a no-op. */
  hashSource?: (entry: string) => Promise<string>;
  /**
   * How the host ends a plugin's child process at retire (`group`: a detached child and its process
   * group). Without it a child gets SIGTERM and retire waits for its exit, bounded by `disposeTimeoutMs`.
   */
  endProcess?: (child: ChildProcess, group: boolean) => void | Promise<void>;
  /** How long one disposer may take at retire before it is cut off and reported. */
  disposeTimeoutMs?: number;
  /** How long retire waits for admitted work on the old generation before disposing anyway. */
  drainTimeoutMs?: number;
  /** Awaited at the start of each phase; lets tests hold the kernel at an exact point. */
  phaseHook?: (info: PhaseInfo) => void | Promise<void>;
}

/** How one lifecycle operation ended. Operations never reject; failures come back here as data. */
export interface OperationResult {
  pluginId: string;
  status: "committed" | "deferred" | "noop" | "aborted";
  generation?: number;
  error?: LifecycleError;
}

/** What `boot` reports: config errors refuse the whole boot before any setup runs. */
export interface BootResult {
  ok: boolean;
  configErrors: Array<{ pluginId: string; field: string; message: string }>;
  errors: LifecycleError[];
}

/** One plugin as `describe()` shows it. */
export interface PluginDescription {
  id: string;
  name: string | undefined;
  version: string | undefined;
  source: string;
  generation: number | undefined;
  status: "active" | "disabled" | "failed";
  /** The validated config the active generation runs with. */
  config: unknown;
  provides: Array<{ contract: string; version: string; key: string }>;
  requires: Array<{ contract: string; range: string }>;
}

/** A snapshot of everything the kernel has registered; equal before and after an aborted reload. */
export interface KernelDescription {
  plugins: PluginDescription[];
  handles: Array<{ contract: string; key: string; pluginId: string; generation: number }>;
  listeners: Record<string, number>;
}
