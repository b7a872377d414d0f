/**
 * The host's read-only view of its kernel's plugin table, served to plugins as `host/plugins` by the
 * host's own plugin. It is built from what the kernel already tells a host — `describe()`, `entries()`
 * and the `kernel:error` event — plus the one thing only the host knows: which files came from an
 * installed package. Each answer is a new, deeply frozen copy.
 */
import { sep } from "node:path";
import type { PluginSourceKind, PluginTableEntry, PluginTableError } from "../contracts/host-plugins.js";
import type { LifecycleError, PluginSource } from "../kernel/index.js";
import type { Kernel } from "./host-kernel.js";

/** An installed package: its source as the user wrote it and the folder it lives in. */
export interface PackageRoot {
  source: string;
  root: string;
}

/**
 * Watches one kernel for lifecycle errors and answers `host/plugins`. It is created before the kernel
 * boots (the host's plugin is one of the boot's entries) and attached once the kernel exists, so the
 * failures of the boot itself are seen too.
 */
export class PluginTable {
  private kernel: Kernel | undefined;
  private readonly lastErrors = new Map<string, PluginTableError>();

  /** `hidden`: plugin ids left out of the table (the host's own plugin); `packages`: installed package folders. */
  constructor(
    private readonly hidden: readonly string[],
    private readonly packages: readonly PackageRoot[] = [],
  ) {}

  /** Starts reading `kernel`; call before it boots. A table serves one kernel for its whole life. */
  attach(kernel: Kernel): void {
    if (this.kernel !== undefined) throw new Error("the plugin table already reads a kernel");
    this.kernel = kernel;
    kernel.on("kernel:error", (error: LifecycleError) => {
      this.lastErrors.set(error.pluginId, {
        phase: error.phase,
        generation: error.generation,
        message: error.cause.message,
      });
    });
  }

  /** Every entry the kernel knows, in boot order, as a frozen copy. */
  plugins(): readonly PluginTableEntry[] {
    const kernel = this.kernel;
    if (kernel === undefined) throw new Error("the plugin table was read before the host attached its kernel");
    const described = new Map(kernel.describe().plugins.map((p) => [p.id, p]));
    const table: PluginTableEntry[] = [];
    for (const entry of kernel.entries()) {
      if (this.hidden.includes(entry.id)) continue;
      const description = described.get(entry.id);
      const lastError = this.lastErrors.get(entry.id);
      table.push({
        id: entry.id,
        version: description?.version,
        source: this.sourceOf(entry.source),
        enabled: entry.enabled !== false,
        state: description?.status ?? (entry.enabled === false ? "disabled" : "failed"),
        generation: description?.generation,
        provides: (description?.provides ?? []).map((p) => ({ contract: p.contract, version: p.version, key: p.key })),
        requires: (description?.requires ?? []).map((r) => ({ contract: r.contract, range: r.range })),
        ...(lastError === undefined ? {} : { lastError: { ...lastError } }),
      });
    }
    return deepFreeze(table);
  }

  private sourceOf(source: PluginSource): PluginTableEntry["source"] {
    if (source.kind === "builtin") return { kind: "built-in", label: source.name };
    if (source.kind === "inline") return { kind: "inline", label: source.label };
    const pkg = this.packages.find((p) => source.path === p.root || source.path.startsWith(withSep(p.root)));
    const kind: PluginSourceKind = pkg === undefined ? "path" : "package";
    return pkg === undefined ? { kind, label: source.path } : { kind, label: source.path, package: pkg.source };
  }
}

function withSep(dir: string): string {
  return dir.endsWith(sep) ? dir : `${dir}${sep}`;
}

/** Freezes a plain value all the way down, so no plugin can change what another one reads. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
