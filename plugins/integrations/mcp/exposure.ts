/**
 * pi 1.6's MCP exposure: how a server's tools reach the model. `codemode` (the default; alias
 * `codemode-deferred`) tools are callable from codemode scripts only, `deferred` ones are declared once
 * `tool_search` loads them, `direct` ones are declared like built-in tools, `hidden` ones are unreachable.
 * `toolExposure` overrides single tools: an exact tool name wins, then the first `*` pattern that matches.
 */

/** One exposure, as mcp.json names it (aliases resolved). */
export type Exposure = "codemode" | "deferred" | "direct" | "hidden";

const EXPOSURES: readonly string[] = ["codemode", "deferred", "direct", "hidden"];
const ALIASES: Record<string, Exposure> = { "codemode-deferred": "codemode" };

/** A server entry's `exposure` and `toolExposure`, checked; or the reason they are unusable. */
export interface ExposureConfig {
  exposure?: Exposure;
  toolExposure?: Record<string, Exposure>;
}

/** Reads `exposure` / `toolExposure` of one entry; a string is the one-line problem. */
export function parseExposure(entry: Record<string, unknown>): ExposureConfig | string {
  const listed = EXPOSURES.map((e) => `"${e}"`).join(", ");
  const out: ExposureConfig = {};
  if (entry.exposure !== undefined) {
    const exposure = resolve(entry.exposure);
    if (exposure === undefined) return `"exposure" must be one of ${listed}`;
    out.exposure = exposure;
  }
  if (entry.toolExposure !== undefined) {
    const raw = entry.toolExposure;
    if (raw === null || typeof raw !== "object" || Array.isArray(raw))
      return `"toolExposure" must map tool names to exposures`;
    const map: Record<string, Exposure> = {};
    for (const [tool, value] of Object.entries(raw)) {
      const exposure = resolve(value);
      if (exposure === undefined) return `"toolExposure" "${tool}" must be one of ${listed}`;
      map[tool] = exposure;
    }
    out.toolExposure = map;
  }
  return out;
}

function resolve(value: unknown): Exposure | undefined {
  if (typeof value !== "string") return undefined;
  if (ALIASES[value] !== undefined) return ALIASES[value];
  return EXPOSURES.includes(value) ? (value as Exposure) : undefined;
}

/** The exposure of one server tool: its exact `toolExposure` entry, the first matching pattern, the server's, or `fallback`. */
export function toolExposureOf(config: ExposureConfig, toolName: string, fallback: Exposure): Exposure {
  const overrides = config.toolExposure ?? {};
  const exact = overrides[toolName];
  if (exact !== undefined) return exact;
  for (const [pattern, exposure] of Object.entries(overrides)) {
    if (pattern.includes("*") && patternRegExp(pattern).test(toolName)) return exposure;
  }
  return config.exposure ?? fallback;
}

/** The widest exposure among a server's tools, for helpers that reach the whole server (resources, prompts). */
export function widestExposure(exposures: readonly Exposure[]): Exposure {
  for (const e of ["direct", "codemode", "deferred"] as const) if (exposures.includes(e)) return e;
  return "hidden";
}

function patternRegExp(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .split("*")
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*")}$`,
  );
}
