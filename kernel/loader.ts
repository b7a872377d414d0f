/**
 * Turns a plugin source into a definition. Compiled built-ins load with the runtime's own `import()`, so
 * a cold start loads no transpiler; user, project and package plugins (.ts or .js) load through jiti,
 * with its module cache off (each load is a fresh generation) and `virtualModules` so their imports of
 * the host's packages resolve to the running host's own instances.
 */
import { pathToFileURL } from "node:url";
import { definitionProblem, type PluginDefinition } from "./plugin.js";

/** Where a plugin's code comes from. */
export type PluginSource =
  | { kind: "inline"; label: string; definition: PluginDefinition<any, any> }
  | { kind: "builtin"; name: string; path: string }
  | { kind: "file"; path: string };

/** A loaded definition with the content hash of the source it came from. */
export interface LoadedPlugin {
  definition: PluginDefinition<any, any>;
  hash: string | undefined;
}

/** Options for the loader. */
export interface LoaderOptions {
  /** Module specifiers that resolve to the host's own module objects (e.g. "pi-host"). */
  virtualModules?: Record<string, unknown>;
  /** The host's content hash of a file plugin's source; without it file sources carry no hash. */
  hashSource?: (entry: string) => Promise<string>;
}

type Jiti = { import: (id: string, opts?: { default?: boolean }) => Promise<unknown> };

/** Loads plugin sources; jiti is imported on first need only. */
export class PluginLoader {
  private jiti: Jiti | undefined;

  constructor(private readonly options: LoaderOptions = {}) {}

  /** Evaluates the source and checks that it exports a plugin. Throws on any problem. */
  async load(source: PluginSource): Promise<LoadedPlugin> {
    if (source.kind === "inline") return { definition: source.definition, hash: undefined };
    const hash =
      source.kind === "file" && this.options.hashSource !== undefined
        ? await this.options.hashSource(source.path)
        : undefined;
    const exported =
      source.kind === "builtin"
        ? ((await import(pathToFileURL(source.path).href)) as { default?: unknown }).default
        : await (await this.getJiti()).import(source.path, { default: true });
    const problem = definitionProblem(exported);
    if (problem) throw new Error(`${sourceLabel(source)}: ${problem}`);
    return { definition: exported as PluginDefinition<any, any>, hash };
  }

  /** The host's hash of a file source, or undefined (no policy given, or the source is unreadable). */
  async hash(entry: string): Promise<string | undefined> {
    return this.options.hashSource?.(entry).catch(() => undefined);
  }

  private async getJiti(): Promise<Jiti> {
    if (this.jiti === undefined) {
      // jiti evaluates each transpiled module as a new script, and V8 keeps every distinct script's
      // compiled code in its compilation cache until memory pressure: in a live-editing session that is
      // ~16 KB per save that ordinary GC never returns. Plugin modules are evaluated once per
      // generation, so the cache buys nothing here.
      (await import("node:v8")).setFlagsFromString("--no-compilation-cache");
      const { createJiti } = await import("jiti");
      this.jiti = createJiti(import.meta.url, {
        moduleCache: false,
        fsCache: true,
        interopDefault: true,
        virtualModules: this.options.virtualModules ?? {},
      }) as unknown as Jiti;
    }
    return this.jiti;
  }
}

/** A short human label for a source. */
export function sourceLabel(source: PluginSource): string {
  if (source.kind === "inline") return source.label;
  if (source.kind === "builtin") return `builtin:${source.name}`;
  return source.path;
}
