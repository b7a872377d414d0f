/**
 * The import rewriting behind `pi plugin eject`. A built-in plugin's source imports the kernel and the
 * contracts by relative path (`../../contracts/tool.js`), which means nothing once the files sit in the
 * user's agent folder. The copy imports them from "pi-host" instead — the running host's own module, so
 * contract tokens and error classes stay the host's. A contract module whose values the "pi-host" module
 * does not export is copied next to the plugin (`host-contracts/`) rather than left dangling; contracts
 * match by id, so a copied contract still meets the host's. The plugin's imports of its own files stay.
 */
import { existsSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";

/** The specifier ejected code imports the host through. */
export const HOST_MODULE = "pi-host";

/** The folder of an ejected plugin that holds contract modules "pi-host" does not export. */
export const VENDORED_CONTRACTS_DIR = "host-contracts";

/** One module reference in a source file: where its specifier sits, and what it brings in at run time. */
interface ModuleReference {
  /** Offsets of the specifier text (without quotes). */
  start: number;
  end: number;
  specifier: string;
  /** Named values imported, `*` for the whole module; empty for type-only references. */
  values: string[];
  typeOnly: boolean;
}

/** What the rewrite needs to know about the package it copies from and the host it will run in. */
export interface RewriteHost {
  /** The installed package's root: `<root>/kernel/index.ts` and `<root>/contracts/**` are host modules. */
  packageRoot: string;
  /** The names the "pi-host" module exports at run time. */
  hostExports: ReadonlySet<string>;
  /** Bare specifiers the host resolves itself (its virtual modules), which need no node_modules. */
  hostProvided: ReadonlySet<string>;
}

/** One file to write into the copy: its path relative to the copy's root, and its rewritten text. */
export interface RewrittenFile {
  path: string;
  text: string;
}

/** The rewritten sources of one plugin, the contract modules copied with it, and the npm packages they import. */
export interface RewrittenPlugin {
  files: RewrittenFile[];
  vendored: string[];
  packages: string[];
}

/** Thrown when a source cannot be made to work outside the package; the message is one line for the user. */
export class EjectImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EjectImportError";
  }
}

const STATIC_REFERENCE = /(^|[\n;{}])([ \t]*)(import|export)(\s+type)?\s+([^;"'`]*?)\s*from\s*(["'])([^"'\n]+)\6/g;
const SIDE_EFFECT_IMPORT = /(^|[\n;{}])[ \t]*import\s*(["'])([^"'\n]+)\2/g;
const DYNAMIC_IMPORT = /\bimport\(\s*(["'])([^"'\n]+)\1\s*\)/g;
const NPM_NAME = /^(?:@[a-z0-9~][a-z0-9._~-]*\/)?[a-z0-9~][a-z0-9._~-]*(?:\/[^\s]*)?$/;

/**
 * Rewrites every source file of a plugin (given as relative path → text) for a copy outside the package.
 * `pluginDir` is where the plugin lives in the package, so relative imports can be resolved there.
 */
export function rewritePlugin(pluginDir: string, sources: Map<string, string>, host: RewriteHost): RewrittenPlugin {
  const contractsDir = join(host.packageRoot, "contracts");
  const kernelIndex = join(host.packageRoot, "kernel", "index.ts");
  const valueExports = new Map<string, Set<string>>();
  const valuesOf = (module: string): Set<string> => {
    let values = valueExports.get(module);
    if (values === undefined) {
      values = moduleValueExports(module, new Set());
      valueExports.set(module, values);
    }
    return values;
  };

  // Every file that ends up in the copy, by its absolute path in the package; contract modules join as
  // they turn out to be needed.
  const pending = new Map<string, string>();
  for (const [path, text] of sources) pending.set(join(pluginDir, path), text);
  const referencesOf = new Map<string, ModuleReference[]>();
  const vendored = new Set<string>();
  const packages = new Set<string>();

  const isHosted = (module: string, needed: string[]): boolean => {
    const values = valuesOf(module);
    const wanted = needed.includes("*") ? [...values] : needed.filter((name) => values.has(name));
    return wanted.every((name) => host.hostExports.has(name));
  };

  for (let changed = true; changed; ) {
    changed = false;
    for (const [file, text] of pending) {
      if (referencesOf.has(file)) continue;
      const references = findModuleReferences(text);
      referencesOf.set(file, references);
      changed = true;
      for (const reference of references) {
        const target = hostModuleOf(file, reference.specifier, host.packageRoot);
        if (target === undefined) {
          if (!reference.specifier.startsWith(".")) {
            if (!reference.typeOnly) notePackage(reference.specifier, host, packages);
            continue;
          }
          const resolved = resolve(dirname(file), reference.specifier);
          if (!isInside(resolved, pluginDir) && !isInside(resolved, contractsDir)) {
            throw new EjectImportError(`${relative(host.packageRoot, file)} imports "${reference.specifier}", outside its plugin folder; only the kernel and contracts can be rewritten to "${HOST_MODULE}"`);
          }
          continue;
        }
        if (target === kernelIndex) {
          if (!isHosted(target, reference.values)) {
            throw new EjectImportError(`${relative(host.packageRoot, file)} imports kernel names the "${HOST_MODULE}" module does not export; this pi-host cannot run an ejected copy of it`);
          }
          continue;
        }
        // A contract module is copied as soon as one reference needs a value "pi-host" lacks; every
        // reference to it then points at the copy, so the plugin sees one instance of it.
        if (!isHosted(target, reference.values) && !vendored.has(target)) {
          vendored.add(target);
          pending.set(target, readFileSync(target, "utf8"));
        }
      }
    }
  }
  const files: RewrittenFile[] = [];
  for (const [file, text] of pending) {
    const copyPath = vendored.has(file) ? join(VENDORED_CONTRACTS_DIR, relative(contractsDir, file)) : relative(pluginDir, file);
    let out = "";
    let last = 0;
    for (const reference of referencesOf.get(file)!) {
      const target = hostModuleOf(file, reference.specifier, host.packageRoot);
      if (target === undefined) continue;
      let specifier = HOST_MODULE;
      if (vendored.has(target)) {
        const targetCopy = join(VENDORED_CONTRACTS_DIR, relative(contractsDir, target));
        specifier = relativeSpecifier(dirname(copyPath), targetCopy);
      }
      out += text.slice(last, reference.start) + specifier;
      last = reference.end;
    }
    out += text.slice(last);
    files.push({ path: copyPath, text: out });
  }
  return { files, vendored: [...vendored].map((m) => relative(host.packageRoot, m)).sort(), packages: [...packages].sort() };
}

/** The host module (kernel index or a contract file, as a `.ts` path) a relative specifier points at, if any. */
function hostModuleOf(file: string, specifier: string, packageRoot: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const target = resolve(dirname(file), specifier).replace(/\.js$/, ".ts");
  if (target === join(packageRoot, "kernel", "index.ts")) return target;
  if (isInside(target, join(packageRoot, "contracts")) && existsSync(target)) return target;
  return undefined;
}

function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir + sep);
}

function relativeSpecifier(fromDir: string, toFile: string): string {
  const path = relative(fromDir, toFile).split(sep).join("/").replace(/\.ts$/, ".js");
  return path.startsWith(".") ? path : `./${path}`;
}

/** Records the npm package a bare specifier names, unless Node or the host provides it. */
function notePackage(specifier: string, host: RewriteHost, packages: Set<string>): void {
  if (specifier.startsWith("node:") || builtinModules.includes(specifier) || host.hostProvided.has(specifier)) return;
  if (!NPM_NAME.test(specifier)) return;
  const parts = specifier.split("/");
  packages.add(specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!);
}

/** Finds the module references of a source text: static imports and re-exports, side-effect and dynamic imports. */
function findModuleReferences(text: string): ModuleReference[] {
  const references: ModuleReference[] = [];
  for (const match of text.matchAll(STATIC_REFERENCE)) {
    const clause = match[5]!;
    const specifier = match[7]!;
    const start = match.index! + match[0].length - specifier.length - 1;
    const typeOnly = match[4] !== undefined || clauseIsTypeOnly(clause);
    references.push({ start, end: start + specifier.length, specifier, values: typeOnly ? [] : clauseValues(clause), typeOnly });
  }
  for (const match of text.matchAll(SIDE_EFFECT_IMPORT)) {
    const specifier = match[3]!;
    const start = match.index! + match[0].length - specifier.length - 1;
    references.push({ start, end: start + specifier.length, specifier, values: [], typeOnly: false });
  }
  for (const match of text.matchAll(DYNAMIC_IMPORT)) {
    const specifier = match[2]!;
    const start = match.index! + match[0].indexOf(specifier, match[0].indexOf(match[1]!));
    references.push({ start, end: start + specifier.length, specifier, values: ["*"], typeOnly: false });
  }
  return references.sort((a, b) => a.start - b.start);
}

/** `{ type A, type B }` brings nothing in at run time; the compiler drops the whole import. */
function clauseIsTypeOnly(clause: string): boolean {
  const named = /^\{([\s\S]*)\}$/.exec(clause.trim());
  if (named === null) return false;
  const specifiers = named[1]!.split(",").map((s) => s.trim()).filter((s) => s !== "");
  return specifiers.length > 0 && specifiers.every((s) => s.startsWith("type "));
}

/** The names an import or export clause takes from its module at run time; `*` for the whole module. */
function clauseValues(clause: string): string[] {
  const values: string[] = [];
  const braces = /\{([\s\S]*)\}/.exec(clause);
  if (braces !== null) {
    for (const part of braces[1]!.split(",")) {
      const spec = part.trim();
      if (spec === "" || spec.startsWith("type ")) continue;
      values.push(spec.split(/\s+as\s+/)[0]!.trim());
    }
  }
  const outside = (braces === null ? clause : clause.replace(braces[0], "")).replace(/,/g, " ").trim();
  if (/\*/.test(outside)) values.push("*");
  else if (/^[A-Za-z_$][\w$]*$/.test(outside)) values.push("default");
  return values;
}

/**
 * The value names a TypeScript module exports (functions, classes, constants, enums, and what it
 * re-exports), read from its text. Types are left out: they do not exist at run time.
 */
function moduleValueExports(file: string, seen: Set<string>): Set<string> {
  const names = new Set<string>();
  if (seen.has(file) || !existsSync(file)) return names;
  seen.add(file);
  const text = readFileSync(file, "utf8");
  for (const match of text.matchAll(/^export\s+(?:async\s+)?(?:function\*?|class|abstract\s+class|const\s+enum|enum|const|let|var)\s+([A-Za-z_$][\w$]*)/gm)) {
    names.add(match[1]!);
  }
  if (/^export\s+default\b/m.test(text)) names.add("default");
  for (const match of text.matchAll(/^export\s+(type\s+)?\{([^}]*)\}\s*(?:from\s*["']([^"']+)["'])?/gm)) {
    if (match[1] !== undefined) continue;
    for (const part of match[2]!.split(",")) {
      const spec = part.trim();
      if (spec === "" || spec.startsWith("type ")) continue;
      const [local, exported] = spec.split(/\s+as\s+/).map((s) => s.trim());
      const name = exported ?? local!;
      if (match[3] === undefined || !match[3].startsWith(".")) {
        names.add(name);
        continue;
      }
      // A re-export is a value only if the module it comes from exports it as one.
      const from = resolve(dirname(file), match[3]).replace(/\.js$/, ".ts");
      if (!existsSync(from) || moduleValueExports(from, new Set(seen)).has(local!)) names.add(name);
    }
  }
  for (const match of text.matchAll(/^export\s+\*\s+as\s+([A-Za-z_$][\w$]*)\s+from/gm)) names.add(match[1]!);
  for (const match of text.matchAll(/^export\s+\*\s+from\s*["']([^"']+)["']/gm)) {
    if (!match[1]!.startsWith(".")) continue;
    for (const name of moduleValueExports(resolve(dirname(file), match[1]!).replace(/\.js$/, ".ts"), seen)) names.add(name);
  }
  return names;
}
