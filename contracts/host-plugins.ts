/**
 * The plugin table as the host sees it, read-only, for plugins that list plugins (the TUI's `/plugins`).
 * A plugin cannot see the kernel itself, and piecing the table together from the handles of every
 * contract it knows misses plugins, failures and disabled entries; the host provides this contract from
 * its own plugin instead, as it does `host/environment`. Every answer is a fresh, frozen copy, so no
 * plugin can change what the kernel or another plugin sees.
 */
import { defineContract, type Handle } from "../kernel/index.js";

/**
 * Where a plugin's code comes from: a compiled built-in, a file or folder the user named, an installed
 * package, or a definition the host or an embedder passed in directly.
 */
export type PluginSourceKind = "built-in" | "path" | "package" | "inline";

/** Where one entry's code comes from. */
export interface PluginTableSource {
  readonly kind: PluginSourceKind;
  /** The built-in name, the file path, or the inline label. */
  readonly label: string;
  /** The package source as the user installed it (npm:..., git:..., a path), for `kind: "package"`. */
  readonly package?: string;
}

/** A lifecycle failure of one plugin, as text (the cause's message, not the Error object). */
export interface PluginTableError {
  readonly phase: string;
  readonly generation: number;
  readonly message: string;
}

/** One entry of the running distribution. */
export interface PluginTableEntry {
  readonly id: string;
  /** The version of the generation serving it; undefined when none serves (disabled, failed to boot). */
  readonly version: string | undefined;
  readonly source: PluginTableSource;
  /** Whether the distribution turns it on. */
  readonly enabled: boolean;
  /** active: a generation serves it; failed: enabled but none serves; disabled: turned off. */
  readonly state: "active" | "failed" | "disabled";
  /** The generation serving it, or undefined. */
  readonly generation: number | undefined;
  /** The contracts its serving generation provides (one line per key of a `many` contract). */
  readonly provides: ReadonlyArray<{ readonly contract: string; readonly version: string; readonly key: string }>;
  /** The contracts its serving generation requires, with the accepted range. */
  readonly requires: ReadonlyArray<{ readonly contract: string; readonly range: string }>;
  /**
   * Its most recent lifecycle failure, if it ever had one. A failed reload leaves the old generation
   * active, so an `active` entry can carry one: compare `lastError.generation` with `generation`.
   */
  readonly lastError?: PluginTableError;
}

/** The provider: one synchronous method, answered from the host's kernel at the time of the call. */
export interface HostPluginsProvider {
  /** Every entry of the running distribution in boot order, without the host's own plugin. */
  plugins(): readonly PluginTableEntry[];
}

/** Provided by the host, never by a distribution plugin. */
export const HostPluginsContract = defineContract<HostPluginsProvider>({
  id: "host/plugins",
  version: "1.0.0",
  kind: "single",
  gate: "overlap",
  shape: { plugins: "function" },
  methods: { plugins: "sync" },
});

/**
 * The plugin table, or undefined without a host (a plugin booted alone, in tests). Synchronous so a
 * synchronous command can use it: the host's plugin never reloads, so its handle is never held; a held
 * handle (which would answer with a promise) counts as no host.
 */
export function readPluginTable(
  host: Handle<HostPluginsProvider> | undefined,
): readonly PluginTableEntry[] | undefined {
  if (host === undefined || !host.available) return undefined;
  const table: readonly PluginTableEntry[] | Promise<readonly PluginTableEntry[]> = host.call("plugins");
  return table instanceof Promise ? undefined : table;
}
