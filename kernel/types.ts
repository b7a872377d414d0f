/**
 * The kernel's data shapes as hosts see them: the entries and options they pass in, and the results and
 * descriptions they get back. Plain data, so a host can log, compare or serialize any of it.
 */
import type { TSchema } from "@sinclair/typebox";
import type { LifecycleError } from "./errors.js";
import type { PluginRecord } from "./cycle.js";
import type { Generation } from "./generation.js";
import type { LoadedPlugin, PluginSource } from "./loader.js";

/** One plugin the kernel should run: an id, where its code is, its raw config, and whether it is on. */
export interface PluginEntry {
  id: string;
  source: PluginSource;
  config?: unknown;
  enabled?: boolean;
}

/** Where the kernel is in a lifecycle operation; tests pause here through `phaseHook`. */
export type PhaseInfo = Omit<LifecycleError, "cause">;

/**
 * What the host hands the kernel: its policies for the platform's parts (how plugin source is loaded,
 * hashed and watched at setup, how config and state are checked), and bounds that each have a default.
 */
export interface KernelOptions {
  /**
   * Checks an entry's raw config against the plugin's config schema and returns it with defaults filled in;
   * throws on a bad value (a boot's config errors carry what it threw). Without it
   * the raw config is used as given (`{}` when absent).
   */
  validateConfig?: (schema: TSchema | undefined, raw: unknown) => unknown;
  /** Checks a plugin's state against its state schema, throwing on a mismatch; without it state is not checked. */
  checkState?: (schema: TSchema, value: unknown) => void;
  /** Loads any source but `inline` (the host's kinds) and checks it is a plugin; without it only inline sources load. */
  loadSource?: (source: PluginSource) => Promise<LoadedPlugin>;
  /** Runs a plugin's setup and reports the kinds of I/O it started, refused as declare-only; without it none are seen. */
  watchSetup?: <T>(body: () => T) => { result: T; io: string[] };
  /** The host's content hash of a source as it is now (undefined: none): an unchanged source reloads as a no-op. */
  sourceHash?: (source: PluginSource) => Promise<string | undefined>;
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
  configErrors: Array<{ pluginId: string; error: Error }>;
  errors: LifecycleError[];
}

/** A generation as hosts read it. */
export type GenerationView = Readonly<Pick<Generation, "number" | "definition" | "config" | "provided">>;

/** One plugin record as hosts read it: what it was asked to run, what runs, and how many generations are alive. */
export type PluginSnapshot = Readonly<Pick<PluginRecord, "id" | "source" | "config" | "enabled" | "failed">> & {
  readonly active: GenerationView | undefined;
  readonly live: number;
};

/** The kernel's records, read-only, for the host's reports (hosts/kernel-report.ts). */
export interface KernelSnapshot {
  readonly plugins: readonly PluginSnapshot[];
  /** Every bus event with its handlers. */
  readonly listeners: ReadonlyMap<string, ReadonlySet<unknown>>;
}
