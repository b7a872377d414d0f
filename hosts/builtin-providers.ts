/**
 * Finds, among the package's own built-in plugins, the ones that provide a set of contracts — and,
 * transitively, what those require — so a host that boots a small kernel of its own (the package
 * commands) asks for contracts, never for plugin ids. Only built-ins are considered, never the user's
 * distribution: a package that breaks the distribution must still be removable.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Contract, PluginDefinition, PluginEntry } from "../kernel/index.js";
import { builtinNames } from "./compose.js";
import { readDistribution } from "./distribution.js";

/** Where the built-ins are: the package's default plugins.json and the compiled `<name>/index.js` folder. */
export interface BuiltinPlace {
  defaultFile: string;
  builtinDir: string;
}

/** A built-in that could serve, with its definition once loaded. */
interface Candidate {
  id: string;
  name: string;
  path: string;
  definition?: PluginDefinition<any, any>;
}

/**
 * Kernel entries for the built-ins that provide `contracts` and every contract they require (optional
 * requirements and `hostProvided` contracts aside), in the order the default distribution runs them.
 * The first candidate providing a contract wins: the default distribution's enabled built-in entries
 * in order, then the other built-ins by name. Throws a one-line error when a contract has no provider.
 */
export async function builtinProvidersOf(
  contracts: Contract<any>[],
  place: BuiltinPlace,
  hostProvided: Contract<any>[] = [],
): Promise<PluginEntry[]> {
  const candidates = await candidatesOf(place);
  const chosen = new Set<Candidate>();
  const settled = new Set(hostProvided.map((c) => c.id));
  const wanted = contracts.map((c) => c.id);
  while (wanted.length > 0) {
    const contract = wanted.shift()!;
    if (settled.has(contract)) continue;
    settled.add(contract);
    const found = await firstProvider(candidates, contract);
    if (found === undefined) throw new Error(`no built-in plugin provides "${contract}"; reinstall pi-host`);
    chosen.add(found);
    for (const r of found.definition!.requires ?? []) {
      const required = "contract" in r ? r : { contract: r, optional: false };
      if (required.optional !== true) wanted.push(required.contract.id);
    }
  }
  return candidates
    .filter((c) => chosen.has(c))
    .map((c) => ({ id: c.id, source: { kind: "builtin", name: c.name, path: c.path } }));
}

async function candidatesOf(place: BuiltinPlace): Promise<Candidate[]> {
  const names = builtinNames(place.builtinDir);
  const candidate = (id: string, name: string): Candidate => ({
    id,
    name,
    path: join(place.builtinDir, name, "index.js"),
  });
  const listed = ((await readDistribution(place.defaultFile))?.entries ?? [])
    .filter((e) => e.enabled !== false && e.use !== undefined && names.includes(e.use))
    .map((e) => candidate(e.id, e.use!));
  const rest = names.filter((n) => !listed.some((c) => c.name === n || c.id === n)).map((n) => candidate(n, n));
  return [...listed, ...rest];
}

/** The first candidate whose definition provides `contract`, loading definitions in order as needed. */
async function firstProvider(candidates: Candidate[], contract: string): Promise<Candidate | undefined> {
  for (const c of candidates) {
    c.definition ??= await loadDefinition(c.path);
    const provides = (c.definition.provides ?? []).map((p) => ("contract" in p ? p.contract : p).id);
    if (provides.includes(contract)) return c;
  }
  return undefined;
}

async function loadDefinition(path: string): Promise<PluginDefinition<any, any>> {
  const exported = ((await import(pathToFileURL(path).href)) as { default?: PluginDefinition<any, any> }).default;
  if (exported === undefined || typeof exported !== "object")
    throw new Error(`${path} does not export a plugin; reinstall pi-host`);
  return exported;
}
