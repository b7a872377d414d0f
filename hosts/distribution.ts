/**
 * Distributions: which plugins run, from where, with which config. A distribution is a `plugins.json`;
 * layers of them (package default < user < trusted project < command line) merge by entry id, so an
 * overlay can add, replace, reconfigure or disable one plugin without restating the rest.
 */
import { readFile } from "node:fs/promises";
import { dirname } from "node:path";

/** One entry of a plugins.json. */
export interface DistributionEntry {
  id: string;
  /** A built-in name, a path (relative to the file), `npm:<pkg>` or `git:<url>`. */
  use?: string;
  config?: Record<string, unknown>;
  enabled?: boolean;
}

/** One parsed plugins.json layer. `extends: "none"` makes it a whole distribution of its own. */
export interface DistributionLayer {
  file: string;
  extends: "default" | "none";
  entries: DistributionEntry[];
}

/** A merged entry, remembering which file set its `use` and its `config`, for error messages. */
export interface MergedEntry {
  id: string;
  use: string;
  config: Record<string, unknown> | undefined;
  enabled: boolean;
  /** The file whose `use` is in force; relative paths resolve against its folder. */
  useFrom: string;
  /** The file that last set `config` (or `useFrom`). */
  configFrom: string;
}

/** Bad distribution input: one line naming the file, the entry and the field. */
export class DistributionError extends Error {
  constructor(
    readonly file: string,
    readonly entryId: string | undefined,
    readonly field: string | undefined,
    readonly reason: string,
  ) {
    super(
      `${file}: ${entryId !== undefined ? `entry "${entryId}": ` : ""}${field !== undefined ? `${field}: ` : ""}${reason}`,
    );
    this.name = "DistributionError";
  }
}

const ENTRY_KEYS = new Set(["id", "use", "config", "enabled"]);
const FILE_KEYS = new Set(["$schema", "extends", "plugins"]);

/** Parses plugins.json text: either an array of entries or `{ "extends"?, "plugins": [...] }`. */
export function parseDistribution(file: string, text: string): DistributionLayer {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new DistributionError(
      file,
      undefined,
      undefined,
      `not valid JSON (${(error as Error).message}); fix the file`,
    );
  }
  let list: unknown = data;
  let extendsMode: "default" | "none" = "default";
  if (!Array.isArray(data)) {
    if (data === null || typeof data !== "object")
      throw new DistributionError(
        file,
        undefined,
        undefined,
        `must be an array of plugin entries or an object with "plugins"`,
      );
    const object = data as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      if (!FILE_KEYS.has(key))
        throw new DistributionError(file, undefined, key, `unknown field; expected "extends" or "plugins"`);
    }
    if (object.extends !== undefined && object.extends !== "default" && object.extends !== "none") {
      throw new DistributionError(file, undefined, "extends", `must be "default" or "none"`);
    }
    extendsMode = (object.extends as "default" | "none" | undefined) ?? "default";
    list = object.plugins ?? [];
    if (!Array.isArray(list))
      throw new DistributionError(file, undefined, "plugins", "must be an array of plugin entries");
  }
  const seen = new Set<string>();
  const entries = (list as unknown[]).map((raw, index) => {
    const entry = checkEntry(file, raw, index);
    if (seen.has(entry.id))
      throw new DistributionError(file, entry.id, "id", "appears twice in this file; merge the two entries");
    seen.add(entry.id);
    return entry;
  });
  return { file, extends: extendsMode, entries };
}

function checkEntry(file: string, raw: unknown, index: number): DistributionEntry {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new DistributionError(file, undefined, `plugins[${index}]`, 'must be an object like {"id": ..., "use": ...}');
  }
  const e = raw as Record<string, unknown>;
  if (typeof e.id !== "string" || !/^[A-Za-z0-9@._/-]+$/.test(e.id)) {
    throw new DistributionError(
      file,
      undefined,
      `plugins[${index}].id`,
      "must be a non-empty string of letters, digits, @ . _ / -",
    );
  }
  const id = e.id;
  for (const key of Object.keys(e)) {
    if (!ENTRY_KEYS.has(key))
      throw new DistributionError(file, id, key, `unknown field; expected id, use, config or enabled`);
  }
  if (e.use !== undefined && (typeof e.use !== "string" || e.use === ""))
    throw new DistributionError(file, id, "use", "must be a non-empty string");
  if (e.config !== undefined && (e.config === null || typeof e.config !== "object" || Array.isArray(e.config))) {
    throw new DistributionError(file, id, "config", "must be an object");
  }
  if (e.enabled !== undefined && typeof e.enabled !== "boolean")
    throw new DistributionError(file, id, "enabled", "must be true or false");
  return {
    id,
    use: e.use as string | undefined,
    config: e.config as Record<string, unknown> | undefined,
    enabled: e.enabled as boolean | undefined,
  };
}

/** Reads and parses a plugins.json; a missing file is no layer at all. */
export async function readDistribution(file: string): Promise<DistributionLayer | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new DistributionError(file, undefined, undefined, `cannot be read (${(error as Error).message})`);
  }
  return parseDistribution(file, text);
}

/**
 * Merges layers in order, by entry id: a known id may get a new `use` (replace; its config starts
 * over), new `config` keys (reconfigure; shallow merge) or `enabled: false` (disable); an unknown id is
 * added and must say what to `use`. A layer with `extends: "none"` starts from nothing.
 */
export function mergeDistributions(layers: DistributionLayer[]): MergedEntry[] {
  let merged = new Map<string, MergedEntry>();
  for (const layer of layers) {
    if (layer.extends === "none") merged = new Map();
    for (const entry of layer.entries) {
      const base = merged.get(entry.id);
      if (base === undefined) {
        if (entry.use === undefined && entry.enabled === false) {
          throw new DistributionError(
            layer.file,
            entry.id,
            undefined,
            'is in no earlier distribution, so there is nothing to disable; check the id with "pi plugins"',
          );
        }
        if (entry.use === undefined)
          throw new DistributionError(layer.file, entry.id, "use", "required: no earlier distribution has this id");
        merged.set(entry.id, {
          id: entry.id,
          use: entry.use,
          config: entry.config,
          enabled: entry.enabled ?? true,
          useFrom: layer.file,
          configFrom: layer.file,
        });
        continue;
      }
      const replaced = entry.use !== undefined && entry.use !== base.use;
      merged.set(entry.id, {
        id: entry.id,
        use: entry.use ?? base.use,
        config: replaced
          ? entry.config
          : entry.config !== undefined
            ? { ...base.config, ...entry.config }
            : base.config,
        enabled: entry.enabled ?? base.enabled,
        useFrom: entry.use !== undefined ? layer.file : base.useFrom,
        configFrom: entry.config !== undefined || replaced ? layer.file : base.configFrom,
      });
    }
  }
  return [...merged.values()];
}

/** The folder a merged entry's relative `use` path is resolved against. */
export function useBaseDir(entry: MergedEntry): string {
  return dirname(entry.useFrom);
}
