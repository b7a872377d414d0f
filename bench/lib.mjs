/**
 * Shared helpers for the benchmarks: where things are, statistics, the generated plugin source, and the
 * result file every benchmark writes. Benchmarks import the BUILT host (../dist/api.js), never kernel/*.ts.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
export const ROOT = dirname(BENCH_DIR);
export const RESULTS_DIR = join(BENCH_DIR, "results");
/**
 * The built host. run.mjs points PI_BENCH_DIST at a private snapshot of dist/ (see there), so a rebuild
 * elsewhere in the repository (`npm test` cleans dist/) cannot swap or delete the code mid-benchmark.
 */
export const DIST_DIR = process.env.PI_BENCH_DIST ?? join(ROOT, "dist");
export const DIST_API = join(DIST_DIR, "api.js");
export const DIST_CLI = join(DIST_DIR, "cli.js");
/** pi 0.73.1's CLI entry inside bench/node_modules (the `pi` bin points here); it runs on Node 20. */
export const PI_CLI = join(BENCH_DIR, "node_modules", "@mariozechner", "pi-coding-agent", "dist", "cli.js");
/** pi 1.6.0's CLI entry inside bench/node_modules: the pi our users run. It needs Node ≥ 22.19. */
export const PI16_CLI = join(BENCH_DIR, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "cli.js");
/** Node 22 from npm's node-linux-<arch> package in bench/node_modules, for pi 1.6.0 and pi-host on 22. */
export const NODE22 = join(BENCH_DIR, "node_modules", `node-linux-${process.arch}`, "bin", "node");

/** The built kernel API, exactly what source-loaded plugins get as the "pi-host" module. */
export async function loadApi() {
  if (!existsSync(DIST_API))
    throw new Error(`${DIST_API} is missing; run "npm run build" at the repository root first`);
  return import(pathToFileURL(DIST_API).href);
}

/**
 * The host's TypeBox: the copy in the root package's node_modules (the version hosts/compose.ts hands to
 * plugins), loaded by path so a TypeBox that pi brings into bench/node_modules can never be picked instead.
 */
export async function loadTypebox() {
  const path = join(ROOT, "node_modules", "@sinclair", "typebox", "build", "esm", "index.mjs");
  if (!existsSync(path)) throw new Error(`${path} is missing; run "npm ci" at the repository root first`);
  return import(pathToFileURL(path).href);
}

/** The virtual modules a kernel needs to load the generated plugin, as hosts/compose.ts builds them. */
export async function hostModules() {
  const api = await loadApi();
  const typebox = await loadTypebox();
  return { api, virtualModules: { "pi-host": api, "@sinclair/typebox": typebox, tsyringe: api.tsyringe } };
}

// ── statistics ──────────────────────────────────────────────────────────────────────────────────

/** Nearest-rank percentile of an already sorted array (p in 0..100). */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** n, min, p50, p95, max and mean of a list of numbers. */
export function summarize(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((s, v) => s + v, 0) / (sorted.length || 1);
  return {
    n: sorted.length,
    min: sorted[0],
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    max: sorted[sorted.length - 1],
    mean,
  };
}

export function median(values) {
  return summarize(values).p50;
}

/** Milliseconds since `start` (a process.hrtime.bigint() value). */
export function msSince(start) {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export const round = (value, digits = 2) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : value);

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the collector several times with turns of the event loop in between, so finalizers get to run. */
export async function fullGc(rounds = 6) {
  if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc");
  for (let i = 0; i < rounds; i++) {
    globalThis.gc();
    await sleep(20);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

// ── results ─────────────────────────────────────────────────────────────────────────────────────

/**
 * One checked number. `target` null means "information only" (e.g. a ratio against pi). `better` says
 * which direction passes: "lower" (value <= target) or "higher" (value >= target).
 */
export function check(metric, value, unit, target, better = "lower") {
  const pass = target === null || target === undefined ? null : better === "lower" ? value <= target : value >= target;
  return { metric, value: round(value, 3), unit, target: target ?? null, better, pass };
}

/** Writes bench/results/<name>.json with the machine facts every result needs. */
export function writeResult(name, data) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const cpu = cpus();
  const out = {
    name,
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: cpu.length,
    cpuModel: cpu[0]?.model ?? "unknown",
    /** 1/5/15-minute load averages when the benchmark finished: above the core count, expect noise. */
    loadavg: loadavg().map((v) => round(v)),
    ...data,
  };
  const file = join(RESULTS_DIR, `${name}.json`);
  writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  return file;
}

/** Prints the checks of one benchmark as aligned lines. */
export function printChecks(checks) {
  for (const c of checks) {
    const target = c.target === null ? "(info)" : `target ${c.better === "lower" ? "≤" : "≥"} ${c.target} ${c.unit}`;
    const verdict = c.pass === null ? "" : c.pass ? "PASS" : "MISS";
    console.log(
      `  ${c.metric.padEnd(38)} ${String(c.value).padStart(10)} ${c.unit.padEnd(4)} ${target.padEnd(22)} ${verdict}`,
    );
  }
}

// ── the generated plugin ────────────────────────────────────────────────────────────────────────

/**
 * A realistic ~200-line TypeScript plugin: a TypeBox config schema, a few functions, a class and a
 * provider of a `many`/`overlap` contract. `revision` changes a constant, so each call gives new content
 * (a real reload, never the content-hash no-op) of the same size and shape.
 */
export function pluginSource(revision, id = "bench-text") {
  return `/**
 * Text utilities: a plugin of the size and shape a user writes and edits while a session runs.
 */
import { defineContract, definePlugin } from "pi-host";
import { Type, type Static } from "@sinclair/typebox";

/** Bumped on every save by the benchmark, so each save is a real change. */
const REVISION = ${revision};

const ConfigSchema = Type.Object({
  greeting: Type.String({ default: "hello" }),
  maxWords: Type.Integer({ minimum: 1, maximum: 10_000, default: 200 }),
  caseSensitive: Type.Boolean({ default: false }),
  stopWords: Type.Array(Type.String(), { default: ["a", "an", "the", "of", "to", "and"] }),
  cache: Type.Object(
    {
      size: Type.Integer({ minimum: 1, default: 64 }),
      ttlMs: Type.Integer({ minimum: 0, default: 30_000 }),
    },
    { default: {} },
  ),
});
type Config = Static<typeof ConfigSchema>;

/** What this plugin serves to others. */
export interface TextTools {
  revision(): number;
  greet(name: string): string;
  words(text: string): string[];
  frequencies(text: string): Array<[string, number]>;
  distance(a: string, b: string): number;
  table(rows: string[][]): string;
  summary(text: string): TextSummary;
}

export const TextContract = defineContract<TextTools>({
  id: "bench/text",
  version: "1.0.0",
  kind: "many",
  gate: "overlap",
});

export interface TextSummary {
  words: number;
  unique: number;
  longest: string;
  top: Array<[string, number]>;
}

/** Splits text into words, lower-cased unless the config says otherwise. */
export function tokenize(text: string, config: Config): string[] {
  const raw = text.split(/[^\\p{L}\\p{N}_'-]+/u).filter((w) => w.length > 0);
  const words = config.caseSensitive ? raw : raw.map((w) => w.toLowerCase());
  const stop = new Set(config.stopWords.map((w) => (config.caseSensitive ? w : w.toLowerCase())));
  return words.filter((w) => !stop.has(w)).slice(0, config.maxWords);
}

/** Counts words and returns them most frequent first, ties in alphabetical order. */
export function countWords(words: string[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** Levenshtein distance with two rolling rows. */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  let current = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length];
}

/** Renders rows as a plain-text table with padded columns. */
export function formatTable(rows: string[][]): string {
  if (rows.length === 0) return "";
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  const line = (row: string[]): string => row.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd();
  const [head, ...body] = rows;
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [line(head), rule, ...body.map(line)].join("\\n");
}

interface CacheEntry<V> {
  value: V;
  expires: number;
}

/** A small least-recently-used cache with a time-to-live, for repeated summaries of the same text. */
export class LruCache<V> {
  private readonly entries = new Map<string, CacheEntry<V>>();
  hits = 0;
  misses = 0;

  constructor(
    private readonly size: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.expires < this.now()) {
      if (entry !== undefined) this.entries.delete(key);
      this.misses++;
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.hits++;
    return entry.value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expires: this.now() + this.ttlMs });
    while (this.entries.size > this.size) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
  }

  get length(): number {
    return this.entries.size;
  }
}

/** The provider: stateless request/response methods over the validated config. */
class TextToolsImpl implements TextTools {
  private readonly cache: LruCache<TextSummary>;

  constructor(private readonly config: Config) {
    this.cache = new LruCache<TextSummary>(config.cache.size, config.cache.ttlMs);
  }

  revision(): number {
    return REVISION;
  }

  greet(name: string): string {
    return \`\${this.config.greeting}, \${name} (r\${REVISION})\`;
  }

  words(text: string): string[] {
    return tokenize(text, this.config);
  }

  frequencies(text: string): Array<[string, number]> {
    return countWords(this.words(text));
  }

  distance(a: string, b: string): number {
    return levenshtein(a, b);
  }

  table(rows: string[][]): string {
    return formatTable(rows);
  }

  summary(text: string): TextSummary {
    const cached = this.cache.get(text);
    if (cached !== undefined) return cached;
    const words = this.words(text);
    const counts = countWords(words);
    const longest = words.reduce((best, w) => (w.length > best.length ? w : best), "");
    const result: TextSummary = { words: words.length, unique: counts.length, longest, top: counts.slice(0, 5) };
    this.cache.set(text, result);
    return result;
  }

  dispose(): void {
    this.cache.clear();
  }
}

export default definePlugin({
  id: "${id}",
  version: "1.0.0",
  description: "Text utilities (benchmark fixture)",
  config: ConfigSchema,
  provides: [TextContract],
  setup(ctx) {
    const tools = new TextToolsImpl(ctx.config as Config);
    ctx.provide(TextContract, tools, { key: "text" });
    ctx.onDispose(() => tools.dispose(), "text cache");
  },
});
`;
}
