/**
 * Turns a plugin source into a definition. Compiled built-ins load with the runtime's own `import()`, so
 * a cold start loads no transpiler; user, project and package plugins (.ts or .js) load through the
 * host's `importSource` (hosts/plugin-import.ts: jiti with the host's own modules), or `import()` without one.
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
  /** Evaluates a file plugin's module and returns its default export; without it, the runtime's `import()`. */
  importSource?: (path: string) => Promise<unknown>;
  /** The host's content hash of a file plugin's source; without it file sources carry no hash. */
  hashSource?: (entry: string) => Promise<string>;
}

/** Loads plugin sources. */
export class PluginLoader {
  constructor(private readonly options: LoaderOptions = {}) {}

  /** Evaluates the source and checks that it exports a plugin. Throws on any problem. */
  async load(source: PluginSource): Promise<LoadedPlugin> {
    if (source.kind === "inline") return { definition: source.definition, hash: undefined };
    const hash =
      source.kind === "file" && this.options.hashSource !== undefined
        ? await this.options.hashSource(source.path)
        : undefined;
    const importSource = (source.kind === "file" && this.options.importSource) || importDefault;
    const exported = await importSource(source.path);
    const problem = definitionProblem(exported);
    if (problem) throw new Error(`${sourceLabel(source)}: ${problem}`);
    return { definition: exported as PluginDefinition<any, any>, hash };
  }

  /** The host's hash of a file source, or undefined (no policy given, or the source is unreadable). */
  async hash(entry: string): Promise<string | undefined> {
    return this.options.hashSource?.(entry).catch(() => undefined);
  }
}

/** The default export of a module, loaded by the runtime itself (compiled code, no transpiler). */
async function importDefault(path: string): Promise<unknown> {
  return ((await import(pathToFileURL(path).href)) as { default?: unknown }).default;
}

/** A short human label for a source. */
export function sourceLabel(source: PluginSource): string {
  if (source.kind === "inline") return source.label;
  if (source.kind === "builtin") return `builtin:${source.name}`;
  return source.path;
}
