/**
 * What a host reports of its kernel — `describe()` for `pi plugins`, the plugin table and tests, the
 * entries, which generations are alive, and a lifecycle error as one line for humans — built here from
 * the kernel's read-only snapshot of its records and its error data, so the kernel keeps no reporting
 * vocabulary.
 */
import {
  Kernel as CoreKernel,
  type LifecycleError,
  type PluginEntry,
  type PluginSnapshot,
  requiresOf,
} from "../kernel/index.js";
import { sourceLabel } from "./plugin-source.js";

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

/** The core kernel with the host's reports on it; the host's kernel (hosts/host-kernel.ts) is one. */
export class ReportingKernel extends CoreKernel {
  /** Everything registered, in a stable order: plugins, bound handles (singles first), listener counts. */
  describe(): KernelDescription {
    const { plugins, listeners } = this.snapshot();
    const counts = [...listeners].sort(([a], [b]) => a.localeCompare(b)).map(([event, set]) => [event, set.size]);
    const bound = plugins.flatMap((p) => (p.active?.provided ?? []).map((q) => ({ p, q })));
    const handles = [
      ...bound.filter((b) => b.q.contract.kind === "single"),
      ...bound.filter((b) => b.q.contract.kind !== "single"),
    ];
    return {
      plugins: plugins.map(describePlugin),
      handles: handles.map(({ p, q }) => ({
        contract: q.contract.id,
        key: q.contract.kind === "single" ? q.contract.id : `${p.id}#${q.key}`,
        pluginId: p.id,
        generation: p.active!.number,
      })),
      listeners: Object.fromEntries(counts),
    };
  }

  /** The entries the kernel knows, with their current source and config. */
  entries(): PluginEntry[] {
    return this.snapshot().plugins.map((p) => ({ id: p.id, source: p.source, config: p.config, enabled: p.enabled }));
  }

  /** The generation currently serving a plugin, for hosts and tests. */
  activeGeneration(pluginId: string): number | undefined {
    return this.snapshot().plugins.find((p) => p.id === pluginId)?.active?.number;
  }

  /** How many generations of a plugin are alive (active, retiring or waiting at a gate). */
  liveGenerations(pluginId: string): number {
    return this.snapshot().plugins.find((p) => p.id === pluginId)?.live ?? 0;
  }
}

/** One plugin record as `describe()` shows it. */
function describePlugin(p: PluginSnapshot): PluginDescription {
  const gen = p.active;
  return {
    id: p.id,
    name: gen?.definition.id,
    version: gen?.definition.version,
    source: sourceLabel(p.source),
    generation: gen?.number,
    status: gen ? "active" : p.enabled && p.failed ? "failed" : "disabled",
    config: gen?.config,
    provides: (gen?.provided ?? []).map((q) => ({ contract: q.contract.id, version: q.version, key: q.key })),
    requires: gen ? requiresOf(gen.definition).map((q) => ({ contract: q.contract.id, range: q.range })) : [],
  };
}

/** One line for humans: `plugin "x" failed at prepare (generation 3): message`. */
export function formatLifecycleError(error: LifecycleError): string {
  return `plugin "${error.pluginId}" failed at ${error.phase} (generation ${error.generation}): ${error.cause.message}`;
}
