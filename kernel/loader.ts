/**
 * Turns a plugin source into a definition. Compiled built-ins load with the runtime's own `import()`, so
 * a cold start loads no transpiler; user, project and package plugins (.ts or .js) load through jiti,
 * with its module cache off (each load is a fresh generation) and `virtualModules` so their imports of
 * the host's packages resolve to the running host's own instances.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { basename, dirname, join, relative } from "node:path";
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

/** The file extensions that count as plugin source for hashing and watching. */
export const SOURCE_EXTENSIONS = [".ts", ".mts", ".cts", ".js", ".mjs", ".cjs", ".json"];

/** Options for the loader. */
export interface LoaderOptions {
  /** Module specifiers that resolve to the host's own module objects (e.g. "pi-host"). */
  virtualModules?: Record<string, unknown>;
}

type Jiti = { import: (id: string, opts?: { default?: boolean }) => Promise<unknown> };

/** Loads plugin sources; jiti is imported on first need only. */
export class PluginLoader {
  private jiti: Jiti | undefined;

  constructor(private readonly options: LoaderOptions = {}) {}

  /** Evaluates the source and checks that it exports a plugin. Throws on any problem. */
  async load(source: PluginSource): Promise<LoadedPlugin> {
    if (source.kind === "inline") return { definition: source.definition, hash: undefined };
    const hash = source.kind === "file" ? await hashSource(source.path) : undefined;
    const exported =
      source.kind === "builtin"
        ? ((await import(pathToFileURL(source.path).href)) as { default?: unknown }).default
        : await (await this.getJiti()).import(source.path, { default: true });
    const problem = definitionProblem(exported);
    if (problem) throw new Error(`${sourceLabel(source)}: ${problem}`);
    return { definition: exported as PluginDefinition<any, any>, hash };
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

/**
 * The folder or file a plugin's source lives in: an `index.*` entry owns its whole folder, any other
 * entry file only itself.
 */
export function sourceRoot(path: string): { dir: string; file: string | undefined } {
  return /^index\.[cm]?[jt]s$/.test(basename(path)) ? { dir: dirname(path), file: undefined } : { dir: dirname(path), file: path };
}

/** Whether a changed path belongs to a plugin's source (ignores dot-files, editor backups, node_modules). */
export function isSourceFile(path: string): boolean {
  const name = basename(path);
  if (name.startsWith(".") || name.endsWith("~") || path.split(/[\\/]/).includes("node_modules")) return false;
  return SOURCE_EXTENSIONS.some((ext) => name.endsWith(ext));
}

/** A content hash of a plugin's source: every source file under its root, by relative path. */
export async function hashSource(entry: string): Promise<string> {
  const root = sourceRoot(entry);
  const files = root.file !== undefined ? [root.file] : await listSourceFiles(root.dir);
  const hash = createHash("sha256");
  for (const file of files.sort()) {
    hash.update(relative(root.dir, file));
    hash.update("\0");
    hash.update(await readFile(file).catch(() => Buffer.from("<missing>")));
    hash.update("\0");
  }
  return hash.digest("hex");
}

async function listSourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith(".") && entry.name !== "node_modules") out.push(...(await listSourceFiles(path)));
    } else if (isSourceFile(path)) {
      out.push(path);
    }
  }
  return out;
}
