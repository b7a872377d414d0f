/**
 * The host's plugin sources: a compiled built-in (`builtin`) or a user, project or package plugin file
 * (`file`, .ts or .js). The kernel knows only inline definitions; these kinds, how they are evaluated and
 * how they are hashed are the host's, handed to the kernel as `loadSource` and `sourceHash`
 * (hosts/host-kernel.ts). Compiled built-ins load with the runtime's own `import()`, so a cold start loads
 * no transpiler; file plugins load through `importSource` (hosts/plugin-import.ts: jiti with the host's
 * own modules), or `import()` without one.
 */
import { pathToFileURL } from "node:url";
import { definitionProblem, type LoadedPlugin, type PluginDefinition, type PluginSource } from "../kernel/index.js";

declare module "../kernel/loader.js" {
  /** The host's source kinds, added to the kernel's `inline`. */
  interface PluginSources {
    builtin: { kind: "builtin"; name: string; path: string };
    file: { kind: "file"; path: string };
  }
}

/** How the host reads plugin files: the evaluator and the content hash (hosts/source-policy.ts). */
export interface SourceReadOptions {
  /** Evaluates a file plugin's module and returns its default export; without it, the runtime's `import()`. */
  importSource?: (path: string) => Promise<unknown>;
  /** The content hash of a file plugin's source: an unchanged source reloads as a no-op; without it, no hash. */
  hashSource?: (entry: string) => Promise<string>;
}

/** The kernel's `loadSource`: evaluates a builtin or file source and checks that it exports a plugin. */
export function sourceLoader(options: SourceReadOptions): (source: PluginSource) => Promise<LoadedPlugin> {
  return async (source) => {
    if (source.kind === "inline") return { definition: source.definition, hash: undefined };
    const hash = source.kind === "file" ? await options.hashSource?.(source.path) : undefined;
    const importSource = (source.kind === "file" && options.importSource) || importDefault;
    const exported = await importSource(source.path);
    const problem = definitionProblem(exported);
    if (problem) throw new Error(`${sourceLabel(source)}: ${problem}`);
    return { definition: exported as PluginDefinition<any, any>, hash };
  };
}

/** The kernel's `sourceHash`: a file source's hash as it is now, or undefined (no hash policy, unreadable, not a file). */
export function sourceHasher(options: SourceReadOptions): (source: PluginSource) => Promise<string | undefined> {
  return async (source) =>
    source.kind === "file" ? options.hashSource?.(source.path).catch(() => undefined) : undefined;
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
